"""What the per-address caps count as one address: an IPv4 address, or an IPv6 /64 network.

One host on IPv6 is usually given a whole /64 (2^64 addresses) and may pick a new address for every
connection; counted address by address, every per-address cap (connections, request budgets, rooms, seats,
spectator places, wrong passwords) would be as good as none. An IPv4 address mapped into IPv6
(``::ffff:192.0.2.7``, a dual-stack listener) counts as that IPv4 address.
"""

from __future__ import annotations

import functools
import ipaddress

#: The IPv6 network one host is usually given.
IPV6_PREFIX = 64


@functools.lru_cache(maxsize=1 << 12)
def address_group(host: str) -> str:
    """The address ``host`` (a socket peer's host text) counts as: an IPv4 address as it is, an IPv6
    address as its /64 network (``2001:db8:1:2::/64``), an IPv4-mapped IPv6 address as its IPv4 address, and
    anything that is not an IP address (a Unix socket's name) as it is."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # a scope (fe80::1%eth0) names no other host
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)

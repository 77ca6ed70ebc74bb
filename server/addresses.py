"""What the per-address caps count as one address: an IPv4 address, or an IPv6 /64 network; behind a
reverse proxy the server trusts (``ServerConfig.trusted_proxies``), the client's address it forwards.

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


def forwarded_client(peer: str, forwarded: list[str], trusted: frozenset[str]) -> str:
    """The address a connection from ``peer`` (the socket's host) counts as, given its request's
    ``X-Forwarded-For`` header values ``forwarded`` and the reverse proxies the server ``trusted``: from a
    trusted proxy, the rightmost forwarded address that is not itself a trusted proxy (the one the proxy
    nearest the server saw: a client cannot forge it, only the entries left of it); from anyone else, or
    when no valid address is forwarded, ``peer`` itself. Grouped as ``address_group`` does."""
    if peer not in trusted:
        return address_group(peer)
    hops = [hop.strip() for value in forwarded for hop in value.split(",")]
    for hop in reversed(hops):
        if hop in trusted:
            continue
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break  # a forged or garbled entry: nothing left of it can be trusted
        return address_group(hop)
    return address_group(peer)

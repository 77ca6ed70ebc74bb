"""Which names the server answers browsers under: the ``Host`` check, against DNS rebinding.

The ``Origin`` check (``server.origins``) lets a page open the WebSocket when its origin is the request's own
``Host``. A site whose DNS name first points at its own machine and then re-resolves to the barbu server (DNS
rebinding) gets round that: its page, loaded as ``http://evil.test:8765/``, then talks to the barbu server
with ``Host: evil.test:8765`` and ``Origin: http://evil.test:8765``, which match. What the attacker cannot
choose is the name in ``Host``: it is the attacker's own. So a browser's request (one carrying ``Origin``,
and every plain HTTP request for the page and its files, which a browser sends without one) is answered
only under a name the server knows for its own: an IP literal (v4 or v6: no name to re-resolve),
``localhost``, the name it was started with (``--host`` when that is a name, or the machine's name that
``BarbuServer.share_url`` prints when it listens on every interface), the hosts of the ``--allowed-origin``
values, and those ``barbu serve --allowed-host`` names. A WebSocket handshake without ``Origin`` (the
terminal client, bots: not browsers, which rebinding needs) goes on whatever its ``Host``.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable
from ipaddress import ip_address

from websockets.http11 import Request

from server.origins import QUOTED, host_key, origin_key

#: ``--host`` values that mean every interface (the server then goes by the machine's name).
EVERY_INTERFACE = ("", "0.0.0.0", "::")


def own_name(host: str) -> str:
    """The name the server goes by when it listens on ``host`` (``--host``): the machine's name
    (``socket.gethostname``) for every interface, else ``host`` itself."""
    return socket.gethostname() if host in EVERY_INTERFACE else host


def host_name(text: str) -> str:
    """``text`` as a host name the server may answer under (``--allowed-host``), in lower case.

    Raises:
        ValueError: ``text`` is not a bare host name (a port, a scheme, a path or a user with it, or
            nothing); the message says which rule.
    """
    key = host_key(text, "http")
    if key is None or ":" in text or key[1].rstrip(".") != text.lower().rstrip("."):
        raise ValueError(f"{text!r} is not a host name: write the name alone (barbu.example.org), no port")
    return key[1].rstrip(".")


def is_ip_literal(host: str) -> bool:
    """Whether ``host`` (as ``urlsplit`` gives it: an IPv6 address without brackets) is an IP address."""
    try:
        ip_address(host)
    except ValueError:
        return False
    return True


class HostCheck:
    """Says whether a browser's request may be answered under its ``Host`` (see the module docstring).

    Args:
        host: the address the server listens on (``ServerConfig.host``).
        allowed_origins: ``ServerConfig.allowed_origins``; their hosts are accepted.
        allowed_hosts: ``ServerConfig.allowed_hosts``: further names accepted.

    Raises:
        ValueError: an allowed origin is not an origin, or an allowed host not a host name.
    """

    def __init__(
        self, host: str, allowed_origins: Iterable[str] = (), allowed_hosts: Iterable[str] = ()
    ) -> None:
        names = {"localhost", *(origin_key(origin)[1].rstrip(".") for origin in allowed_origins)}
        names.update(host_name(name) for name in allowed_hosts)
        own = own_name(host)
        if own and not is_ip_literal(own):
            names.add(own.lower().rstrip("."))
        self.names = frozenset(names)

    def refusal(self, request: Request) -> str | None:
        """None when ``request`` may be answered under its ``Host``; else the one-line reason it is not."""
        hosts = request.headers.get_all("Host")
        if len(hosts) != 1:
            return "a request names its Host once"
        key = host_key(hosts[0], "http")
        if key is not None:
            name = key[1].rstrip(".")
            if name in self.names or is_ip_literal(name):
                return None
        return (
            f"this server does not answer browsers under the name {hosts[0][:QUOTED]!r} (a DNS rebinding"
            " page's name): use its address, or name it with barbu serve --allowed-host NAME"
        )

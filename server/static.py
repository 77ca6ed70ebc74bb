"""The browser client's files, served over plain HTTP by the WebSocket listener itself.

``GET /`` is the client's page and ``GET /PATH`` its other files, read once at start-up from the data-only
package ``web`` (``importlib.resources``, so they come from the installed package, also from a wheel). A
request asking for a WebSocket upgrade is not ours, whatever its path: it goes on to the handshake, so the
page and its WebSocket share one origin and one port, and a TLS reverse proxy in front needs nothing more.

Caching: every file is sent with an ``ETag`` (a hash of its bytes) and ``Cache-Control: no-cache``, so a
browser keeps it but asks each time whether it changed (a ``304`` with no body when not): a server upgrade
shows at the next reload, and a reload costs a few bytes per file. The page's ``Content-Security-Policy``
allows only this origin's files and WebSocket (``connect-src 'self'``, which covers ``ws:``/``wss:`` to the
page's own host and port) and forms sent nowhere else: nothing is fetched from elsewhere. Routing is by the
path alone, its query string ignored (``/js/main.js?v=2`` is the file).
"""

from __future__ import annotations

import email.utils
import hashlib
from dataclasses import dataclass
from http import HTTPStatus
from importlib.resources import files
from importlib.resources.abc import Traversable

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: The package holding the client's files (``web/``: no Python but its docstring, so the server finds the
#: files without importing the client layer above it).
PACKAGE = "web"
#: Content types by file suffix; files of other suffixes in the package are not served.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}
#: Only this origin's files and WebSocket; inline scripts and styles are refused; forms go nowhere else.
CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def path_of(request: Request) -> str:
    """The path ``request`` is routed by: its target without the query string (``/healthz?x``: ``/healthz``)."""
    return request.path.partition("?")[0]


def wants_websocket(request: Request) -> bool:
    """Whether ``request`` asks for a WebSocket upgrade (a ``GET`` with ``Upgrade: websocket``): it goes on
    to the handshake, whatever its path."""
    return request.method == "GET" and "websocket" in request.headers.get("Upgrade", "").lower()


@dataclass(frozen=True)
class StaticFile:
    """One file: its ``body``, ``content_type`` header and ``etag`` (quoted, as sent)."""

    body: bytes
    content_type: str
    etag: str


def load_files(package: str = PACKAGE) -> dict[str, StaticFile]:
    """Every servable file under ``package`` by URL path (``/index.html``, ``/js/app.js``); ``/`` is
    ``index.html``.

    Raises:
        ModuleNotFoundError: the package is not installed.
    """
    found: dict[str, StaticFile] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
                continue
            suffix = "." + entry.name.rpartition(".")[2]
            if suffix in CONTENT_TYPES:
                body = entry.read_bytes()
                etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
                found[prefix + entry.name] = StaticFile(body, CONTENT_TYPES[suffix], etag)

    walk(files(package), "/")
    if "/index.html" in found:
        found["/"] = found["/index.html"]
    return found


class StaticFiles:
    """Answers plain HTTP ``GET`` (and ``HEAD``) requests for the client's files (see the module docstring).

    Args:
        package: the package to serve the files of.
    """

    def __init__(self, package: str = PACKAGE):
        self.files = load_files(package)

    def respond(self, request: Request) -> Response | None:
        """The response to ``request``: a file, ``304 Not Modified``, or ``404``; None for a WebSocket
        upgrade (the handshake goes on)."""
        if wants_websocket(request):
            return None
        found = self.files.get(path_of(request))
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        extra = [("ETag", found.etag), ("Cache-Control", "no-cache")]
        if found.content_type.startswith("text/html"):
            extra += [("Content-Security-Policy", CSP), ("Referrer-Policy", "no-referrer")]
        if found.etag in request.headers.get("If-None-Match", ""):
            return _response(HTTPStatus.NOT_MODIFIED, b"", None, extra)
        return _response(HTTPStatus.OK, found.body, found.content_type, extra)


def _response(
    status: HTTPStatus, body: bytes, content_type: str | None, extra: list[tuple[str, str]] | None = None
) -> Response:
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    if content_type is not None:
        headers["Content-Type"] = content_type
    for name, value in extra or []:
        headers[name] = value
    return Response(status.value, status.phrase, headers, body)

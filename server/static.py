"""The browser client's files, served over plain HTTP by the WebSocket listener itself.

``GET /`` is the client's page and ``GET /PATH`` its other files, read once at start-up from the data-only
package ``web`` (``importlib.resources``, so they come from the installed package, also from a wheel). A
request asking for a WebSocket upgrade is not ours, whatever its path: it goes on to the handshake, so the
page and its WebSocket share one origin and one port, and a TLS reverse proxy in front needs nothing more.

Caching: the page and its files name one another by versioned URLs (``/js/main.js?v=HASH``, the hash
following the content: ``server.static_versions``, rewritten once at start-up). A file asked for under its
current version is sent ``Cache-Control: public, max-age=31536000, immutable``: the browser keeps it a year
and a reload asks nothing. Anything else (the page itself, a file asked for without its version or under an
old one) is sent ``no-cache``, so a browser keeps it but asks each time whether it changed (a ``304`` with
no body when not, by its ``ETag``, a hash of the bytes sent): a server upgrade shows at the next reload.
websockets closes the TCP connection after every plain HTTP response (its ``send_response`` ends the stream
for any status but 101; nothing in it keeps a connection alive), so what is saved is requests.

Compression: each file that gzip makes at least 10 % smaller is compressed once at start-up and sent
``Content-Encoding: gzip`` to a request whose ``Accept-Encoding`` takes gzip, as it is otherwise (with
``Vary: Accept-Encoding`` either way, so a shared cache keeps the two apart).

The page's ``Content-Security-Policy``
allows only this origin's files and WebSocket (``connect-src 'self'``, which covers ``ws:``/``wss:`` to the
page's own host and port) and forms sent nowhere else: nothing is fetched from elsewhere. Routing is by the
path alone, its query string ignored (``/js/main.js?v=2`` is the file).
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
from dataclasses import dataclass
from http import HTTPStatus
from importlib.resources import files
from importlib.resources.abc import Traversable

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.static_versions import VERSION_PARAMETER, versioned_bodies

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
#: How a file asked for under its current version is cached: a year, never revalidated (RFC 8246).
IMMUTABLE = "public, max-age=31536000, immutable"
#: A file is sent gzipped only when that makes it at most this share of its size (PNG gains nothing).
GZIP_WORTH = 0.9


def path_of(request: Request) -> str:
    """The path ``request`` is routed by: its target without the query string (``/healthz?x``: ``/healthz``)."""
    return request.path.partition("?")[0]


def wants_websocket(request: Request) -> bool:
    """Whether ``request`` asks for a WebSocket upgrade (a ``GET`` with ``Upgrade: websocket``): it goes on
    to the handshake, whatever its path."""
    return request.method == "GET" and "websocket" in request.headers.get("Upgrade", "").lower()


def version_asked(request: Request) -> str | None:
    """The ``v`` parameter of ``request``'s query string (``/js/main.js?v=abc``: ``abc``), None without."""
    for pair in request.path.partition("?")[2].split("&"):
        name, equals, value = pair.partition("=")
        if equals and name == VERSION_PARAMETER:
            return value
    return None


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header value takes gzip (RFC 9110, 12.5.3): ``gzip`` (or ``x-gzip``)
    with a non-zero ``q``, or else ``*`` with one; an absent or empty header takes only the identity."""
    wildcard = False
    for item in accept_encoding.split(","):
        coding, _, parameters = item.partition(";")
        coding = coding.strip().lower()
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding in ("gzip", "x-gzip"):
            return quality > 0
        if coding == "*":
            wildcard = quality > 0
    return wildcard


@dataclass(frozen=True)
class StaticFile:
    """One file: its ``body``, ``content_type`` header and ``etag`` (quoted, as sent); its ``version``
    (None for the page, which is never versioned) and its ``gzipped`` body with that body's own ETag (None
    when gzip does not pay)."""

    body: bytes
    content_type: str
    etag: str
    version: str | None = None
    gzipped: tuple[bytes, str] | None = None


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def _static_file(body: bytes, content_type: str, version: str | None) -> StaticFile:
    # mtime=0: the same bytes, hence the same ETag, from every start of the server.
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    if len(packed) > GZIP_WORTH * len(body):
        return StaticFile(body, content_type, _etag(body), version)
    return StaticFile(body, content_type, _etag(body), version, (packed, _etag(packed)))


def load_files(package: str = PACKAGE) -> dict[str, StaticFile]:
    """Every servable file under ``package`` by URL path (``/index.html``, ``/js/app.js``), its references
    versioned and gzipped once (see the module docstring); ``/`` is ``index.html``.

    Raises:
        ModuleNotFoundError: the package is not installed.
    """
    read: dict[str, bytes] = {}
    types: dict[str, str] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
                continue
            suffix = "." + entry.name.rpartition(".")[2]
            if suffix in CONTENT_TYPES:
                read[prefix + entry.name] = entry.read_bytes()
                types[prefix + entry.name] = CONTENT_TYPES[suffix]

    walk(files(package), "/")
    bodies, version_of = versioned_bodies(read)
    found = {path: _static_file(body, types[path], version_of.get(path)) for path, body in bodies.items()}
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
        """The response to ``request``: a file (gzipped when asked and worth it; cached for good when asked
        for under its current version), ``304 Not Modified``, or ``404``; None for a WebSocket upgrade (the
        handshake goes on)."""
        if wants_websocket(request):
            return None
        found = self.files.get(path_of(request))
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        current = found.version is not None and version_asked(request) == found.version
        packed = found.gzipped is not None and accepts_gzip(request.headers.get("Accept-Encoding", ""))
        body, etag = found.gzipped if found.gzipped is not None and packed else (found.body, found.etag)
        extra = [("ETag", etag), ("Cache-Control", IMMUTABLE if current else "no-cache")]
        if found.gzipped is not None:
            extra.append(("Vary", "Accept-Encoding"))
        if found.content_type.startswith("text/html"):
            extra += [("Content-Security-Policy", CSP), ("Referrer-Policy", "no-referrer")]
        if etag in request.headers.get("If-None-Match", ""):
            return _response(HTTPStatus.NOT_MODIFIED, b"", None, extra)
        if packed:
            extra.append(("Content-Encoding", "gzip"))
        return _response(HTTPStatus.OK, body, found.content_type, extra)


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

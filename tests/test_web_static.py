"""The browser client's files served by the server itself (no browser needed): GET /, the files it loads,
content types, caching, 404, and that /healthz and the WebSocket on the same port are unchanged."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from server import BarbuServer
from server.static import CONTENT_TYPES, load_files
from tests.raw_http import Reply, http_request

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"


async def _get(server: BarbuServer, path: str, headers: str = "") -> Reply:
    return await http_request(server.port, path, headers=headers)


async def test_the_page_and_its_files(server: BarbuServer) -> None:
    status, head, body = await _get(server, "/")
    assert status == 200 and head["content-type"] == "text/html; charset=utf-8"
    assert re.search(rb'<script type="module" src="/js/main\.js\?v=[0-9a-f]+">', body)
    assert "default-src 'self'" in head["content-security-policy"]
    assert head["cache-control"] == "no-cache" and head["etag"].startswith('"')
    again, head304, empty = await _get(server, "/?x=1", f"If-None-Match: {head['etag']}\r\n")
    assert (again, empty) == (304, b"") and head304["etag"] == head["etag"]
    status, head, body = await _get(server, "/js/main.js")
    assert status == 200 and head["content-type"] == "text/javascript; charset=utf-8"
    assert head["x-content-type-options"] == "nosniff" and int(head["content-length"]) == len(body)
    status, head, _ = await _get(server, "/style.css")
    assert status == 200 and head["content-type"].startswith("text/css")
    for missing in ("/nope", "/js/../__init__.py", "/__init__.py", "/web/index.html"):
        assert (await _get(server, missing))[0] == 404, missing
    status, _, body = await _get(server, "/healthz")
    assert (status, body) == (200, b"ok\n")


def test_every_file_the_page_loads_is_served() -> None:
    served = load_files()
    wanted = {"/style.css", "/cards.css", "/favicon.svg", "/js/main.js"}
    for module in (WEB / "js").glob("*.js"):
        for name in re.findall(r'from "\./([\w.]+\.js)"', module.read_text()):
            wanted.add(f"/js/{name}")
    assert wanted <= set(served), wanted - set(served)
    on_disk = {f"/{p.relative_to(WEB).as_posix()}" for p in WEB.rglob("*") if p.suffix in CONTENT_TYPES}
    assert on_disk == set(served) - {"/"}
    modules = {f"/js/{p.name}" for p in (WEB / "js").glob("*.js")}
    assert modules <= wanted, f"modules nothing imports: {modules - wanted}"


def test_package_data_ships_every_file() -> None:
    """A wheel holds what pyproject's package-data names: each served file must match a pattern."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "web"
    ]
    for path in load_files():
        if path != "/":
            assert any(fnmatch(path[1:], pattern) for pattern in patterns), path


async def test_the_address_to_share(server: BarbuServer) -> None:
    assert server.share_url == f"http://127.0.0.1:{server.port}/"

"""The client's files sent fast over a slow network (issue 28): gzipped when ``Accept-Encoding`` takes it
(decoding to the very bytes sent without), named by content-hash versions that the browser keeps for good
while the page itself revalidates, a new version when a file changes, and in real Chromium a page that
loads and logs in with every file versioned and reloads with one request. Real servers on loopback ports,
raw HTTP requests, Debian's Chromium."""

from __future__ import annotations

import gzip
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Request, async_playwright
from websockets.http11 import Request as HTTPRequest
from websockets.http11 import Response

from server import BarbuServer
from server.static import IMMUTABLE, accepts_gzip, load_files
from tests.browser import MISSING, chromium_found, launch
from tests.raw_http import http_request

WEB = Path(__file__).resolve().parent.parent / "web"
#: A versioned reference in the page or a module: the path and the version.
VERSIONED = re.compile(r'"(/[^"?]+|\.{1,2}/[^"?]+)\?v=([0-9a-f]+)"')
#: What Chromium sends over HTTPS (over plain HTTP: "gzip, deflate").
BROWSER_ENCODINGS = "Accept-Encoding: gzip, deflate, br, zstd\r\n"


def _unversioned(body: bytes) -> bytes:
    """``body`` without its ``?v=HASH`` queries and modulepreload lines: the file as it is on disk."""
    body = re.sub(rb'\n *<link rel="modulepreload" href="[^"]+">', b"", body)
    return re.sub(rb"\?v=[0-9a-f]+", b"", body)


async def test_gzipped_files_decode_to_the_bytes_sent_without(server: BarbuServer) -> None:
    gzipped = 0
    for path, found in load_files().items():
        status, plain_head, plain = await http_request(server.port, path)
        assert status == 200 and "content-encoding" not in plain_head, path
        if path != "/":
            assert _unversioned(plain) == (WEB / path[1:]).read_bytes(), path
        status, head, body = await http_request(server.port, path, headers=BROWSER_ENCODINGS)
        assert status == 200 and int(head["content-length"]) == len(body), path
        if found.gzipped is None:  # gzip does not pay (an SVG of 198 bytes): sent as it is
            assert "content-encoding" not in head and body == plain, path
            continue
        gzipped += 1
        assert head["content-encoding"] == "gzip", path
        assert head["vary"] == plain_head["vary"] == "Accept-Encoding", path
        assert gzip.decompress(body) == plain and len(body) < len(plain), path
        assert head["etag"] != plain_head["etag"], "two representations, two ETags"
        again, _, empty = await http_request(
            server.port, path, headers=f"{BROWSER_ENCODINGS}If-None-Match: {head['etag']}\r\n"
        )
        assert (again, empty) == (304, b""), path
    assert gzipped >= 20  # the page, both style sheets and every module


@pytest.mark.parametrize(
    ("accept", "takes"),
    [
        ("", False),
        ("identity", False),
        ("gzip", True),
        ("GZIP;q=0.5", True),
        ("br, gzip;q=0", False),
        ("deflate, br", False),
        ("*", True),
        ("*;q=0", False),
        ("gzip;q=0, *", False),
        ("x-gzip", True),
    ],
)
def test_which_accept_encoding_takes_gzip(accept: str, takes: bool) -> None:
    assert accepts_gzip(accept) is takes


async def test_without_accept_encoding_a_file_is_sent_as_it_is(server: BarbuServer) -> None:
    for headers in ("", "Accept-Encoding: identity\r\n", "Accept-Encoding: br, gzip;q=0\r\n"):
        status, head, body = await http_request(server.port, "/js/table_view.js", headers=headers)
        assert status == 200 and "content-encoding" not in head, headers
        assert _unversioned(body) == (WEB / "js/table_view.js").read_bytes()


async def test_versioned_files_are_kept_for_good_and_the_rest_revalidates(server: BarbuServer) -> None:
    _, page_head, page = await http_request(server.port, "/", headers=BROWSER_ENCODINGS)
    assert page_head["cache-control"] == "no-cache"
    named = dict(VERSIONED.findall(gzip.decompress(page).decode()))
    modules = {f"/js/{p.name}" for p in (WEB / "js").glob("*.js")}
    assert {"/style.css", "/cards.css", "/favicon.svg"} | modules <= set(named), "every file versioned"
    for path, version in named.items():
        status, head, _ = await http_request(server.port, f"{path}?v={version}", headers=BROWSER_ENCODINGS)
        assert (status, head["cache-control"]) == (200, IMMUTABLE), path
        for other in (path, f"{path}?v=0123456789abcdef", f"{path}?x={version}"):
            status, head, _ = await http_request(server.port, other)
            assert (status, head["cache-control"]) == (200, "no-cache"), other
    # What a module names is versioned too, with the version it is served under.
    _, _, main = await http_request(server.port, f"/js/main.js?v={named['/js/main.js']}")
    for specifier, version in VERSIONED.findall(main.decode()):
        assert named["/js/" + specifier.removeprefix("./")] == version, specifier
    # The CSP and the page's other headers are those it had.
    _, head, _ = await http_request(server.port, "/")
    assert "script-src 'self'" in head["content-security-policy"] and head["referrer-policy"] == "no-referrer"


def _package(root: Path, name: str, files: dict[str, str]) -> str:
    for path, text in files.items():
        (root / name / path).parent.mkdir(parents=True, exist_ok=True)
        (root / name / path).write_text(text)
    (root / name / "__init__.py").write_text("")
    return name


def test_a_changed_file_gets_a_new_version_and_what_imports_it_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    site = {
        "index.html": '<head>\n  <link rel="stylesheet" href="/style.css">\n'
        '  <script type="module" src="/js/main.js"></script>\n</head>\n',
        "style.css": "body { color: red }\n",
        "js/main.js": 'import { b } from "./b.js";\nimport "./lone.js";\n',
        "js/b.js": 'import { c } from "./c.js";\nexport const b = 1;\n',
        "js/c.js": 'import { b } from "./b.js";\nexport const c = 2;\n',  # a cycle: b <-> c
        "js/lone.js": "export const lone = 3;\n",
    }
    before = load_files(_package(tmp_path, "site_before", site))
    after = load_files(_package(tmp_path, "site_after", site | {"js/c.js": site["js/c.js"] + "// changed\n"}))
    version = {path: (before[path].version, after[path].version) for path in before if path != "/"}
    for path in ("/js/c.js", "/js/b.js", "/js/main.js"):  # c changed; b and main reach it
        assert version[path][0] != version[path][1], path
    for path in ("/js/lone.js", "/style.css"):
        assert version[path][0] == version[path][1], path
    assert version["/index.html"] == (None, None), "the page is never versioned"
    page = after["/"].body.decode()
    assert f'href="/style.css?v={version["/style.css"][1]}"' in page
    assert f'src="/js/main.js?v={version["/js/main.js"][1]}"' in page
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    assert sorted(preloaded) == sorted(
        f"{p}?v={version[p][1]}" for p in ("/js/b.js", "/js/c.js", "/js/lone.js")
    )
    assert f'"./c.js?v={version["/js/c.js"][1]}"' in after["/js/b.js"].body.decode()
    assert f'"./b.js?v={version["/js/b.js"][1]}"' in after["/js/c.js"].body.decode()
    assert after["/js/c.js"].etag != before["/js/c.js"].etag


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not chromium_found():
        pytest.skip(MISSING)
    async with async_playwright() as pw:
        chromium = await launch(pw)
        yield chromium
        await chromium.close()


async def test_the_page_loads_versioned_logs_in_and_reloads_with_one_request(
    server: BarbuServer, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What reaches the server, as it answers (a cached file still shows in Playwright's request events).
    answered: list[str] = []
    respond = server.static.respond

    def recorded(request: HTTPRequest) -> Response | None:
        response = respond(request)
        if response is not None:
            answered.append(request.path)
        return response

    monkeypatch.setattr(server.static, "respond", recorded)
    page = await (await browser.new_context()).new_page()
    asked: list[Request] = []
    failures: list[str] = []
    page.on("request", lambda request: asked.append(request))
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda message: failures.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: failures.append(str(error)))
    await page.goto(server.share_url)
    await page.fill("#login-name", "quick")
    await page.click("text=Log in")
    await page.wait_for_selector("text=Log out")
    await page.wait_for_load_state("load")
    origin = server.share_url.rstrip("/")
    files = [request.url.removeprefix(origin) for request in asked if request.resource_type != "websocket"]
    assert files[0] == "/" and len(files) >= 24 and set(files) == set(answered), (files, answered)
    assert all(re.fullmatch(r"/[\w/.]+\?v=[0-9a-f]+", url) for url in files[1:]), files
    assert failures == [], failures
    sent = [await request.response() for request in asked if request.resource_type == "script"]
    assert {(await response.all_headers()).get("content-encoding") for response in sent if response} == {
        "gzip"
    }

    # A reload asks for every file again, and only the page (revalidated) reaches the server.
    asked.clear()
    answered.clear()
    await page.reload()
    await page.wait_for_selector("text=Log out")
    await page.wait_for_load_state("load")
    again = [request.url.removeprefix(origin) for request in asked if request.resource_type != "websocket"]
    assert set(again) == set(files), again
    assert answered == ["/"], answered
    assert failures == [], failures

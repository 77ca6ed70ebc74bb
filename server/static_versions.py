"""Content-hash versions for the browser client's files, put into the URLs that name them, once at start-up.

A browser may keep a file named ``/js/dom.js?v=HASH`` for a year without asking again (``server.static``
sends it ``immutable``), because the name changes with the content: here every reference to a served file
is rewritten to carry its version, in the page (``src="/…"`` and ``href="/…"`` attributes) and in the JS
modules (the specifiers of ``import … from "./x.js"``, ``export … from``, ``import "./x.js"`` and
``import("./x.js")``). A module's version hashes its own bytes and those of every module it reaches through
its imports, so a change deep in the graph renames every module above it (whose rewritten text names the
new version): the hash follows the content, cycles included. The page is never versioned (its URL is the
one players type); it gets ``<link rel="modulepreload">`` for every module its scripts reach, so the browser
asks for the whole module graph at once rather than one level of imports per round trip (websockets closes
the connection after each plain HTTP response, so every round trip costs a new TCP connection too).
"""

from __future__ import annotations

import hashlib
import posixpath
import re

#: The query parameter carrying a file's version (``/js/main.js?v=HASH``).
VERSION_PARAMETER = "v"
#: Characters of the hex SHA-256 kept in a version: 64 bits, ample against collisions among a few files.
VERSION_LENGTH = 16
#: A module specifier naming a file by a relative path: ``from "…"``, ``import "…"``, ``import("…")``.
_SPECIFIER = re.compile(r"""(\b(?:from|import)\s*\(?\s*)(["'])(\.{1,2}/[^"'?#\s]+)\2""")
#: A page attribute naming a file of this origin by an absolute path.
_ATTRIBUTE = re.compile(r"""(\s(?:src|href)=)(["'])(/[^"'?#\s]*)\2""")
#: A module script of the page (``<script type="module" src="…">``, attributes in any order).
_MODULE_SCRIPT = re.compile(r"""<script\b[^>]*\btype=["']module["'][^>]*>""")
_SRC = re.compile(r"""\bsrc=["'](/[^"'?#\s]*)["']""")


def versioned_url(path: str, version: str) -> str:
    """``path`` with its ``version`` in the query: ``/js/main.js?v=0123abcd…``."""
    return f"{path}?{VERSION_PARAMETER}={version}"


def module_imports(path: str, text: str) -> list[str]:
    """The served paths the JS module at URL path ``path`` imports by relative specifiers
    (``/js/main.js`` importing ``"./dom.js"``: ``/js/dom.js``), in the order written."""
    return [_resolve(path, match.group(3)) for match in _SPECIFIER.finditer(text)]


def _resolve(path: str, specifier: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), specifier))


def _reach(start: str, imports: dict[str, list[str]]) -> set[str]:
    """``start`` and every module reachable from it through ``imports`` (cycles allowed)."""
    seen = {start}
    todo = [start]
    while todo:
        for found in imports.get(todo.pop(), []):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return seen


def import_graph(bodies: dict[str, bytes]) -> dict[str, list[str]]:
    """Each JS module's (``.js``) served imports by URL path, from the files' bytes by URL path.

    Raises:
        UnicodeDecodeError: a module is not UTF-8.
    """
    return {
        path: [found for found in module_imports(path, body.decode()) if found in bodies]
        for path, body in bodies.items()
        if path.endswith(".js")
    }


def versions(bodies: dict[str, bytes], imports: dict[str, list[str]], page: str) -> dict[str, str]:
    """Each file's version by URL path (``bodies``: the files' bytes as read; ``imports``: their
    :func:`import_graph`), every file but ``page``: the hash of its bytes, and for a JS module of the bytes
    of every module it reaches too (see the module docstring)."""
    found: dict[str, str] = {}
    for path in bodies:
        if path == page:
            continue
        digest = hashlib.sha256()
        for part in sorted(_reach(path, imports)) if path in imports else [path]:
            digest.update(part.encode() + b"\0" + hashlib.sha256(bodies[part]).digest())
        found[path] = digest.hexdigest()[:VERSION_LENGTH]
    return found


def rewrite_module(path: str, text: str, version_of: dict[str, str]) -> str:
    """The JS module at ``path`` with each relative specifier naming a versioned file given its version
    (``"./dom.js"``: ``"./dom.js?v=…"``); other specifiers unchanged."""

    def one(match: re.Match[str]) -> str:
        version = version_of.get(_resolve(path, match.group(3)))
        if version is None:
            return match.group(0)
        quote = match.group(2)
        return f"{match.group(1)}{quote}{match.group(3)}?{VERSION_PARAMETER}={version}{quote}"

    return _SPECIFIER.sub(one, text)


def rewrite_page(text: str, version_of: dict[str, str], imports: dict[str, list[str]]) -> str:
    """The page with each ``src``/``href`` naming a versioned file given its version, and a
    ``<link rel="modulepreload">`` for every module its module scripts reach through ``imports`` (URL path:
    the paths it imports), put before the first module script."""
    entries = [
        source.group(1)
        for tag in _MODULE_SCRIPT.finditer(text)
        if (source := _SRC.search(tag.group(0))) is not None
    ]
    preload: list[str] = []
    for entry in entries:
        for module in sorted(_reach(entry, imports) - {entry}):
            if module in version_of and module not in preload and module not in entries:
                preload.append(module)

    def one(match: re.Match[str]) -> str:
        version = version_of.get(match.group(3))
        if version is None:
            return match.group(0)
        quote = match.group(2)
        return f"{match.group(1)}{quote}{versioned_url(match.group(3), version)}{quote}"

    text = _ATTRIBUTE.sub(one, text)
    first = _MODULE_SCRIPT.search(text)
    if first is None or not preload:
        return text
    line_start = text.rfind("\n", 0, first.start()) + 1
    indent = text[line_start : first.start()]
    links = "".join(
        f'<link rel="modulepreload" href="{versioned_url(module, version_of[module])}">\n{indent}'
        for module in preload
    )
    return text[: first.start()] + links + text[first.start() :]


def versioned_bodies(
    bodies: dict[str, bytes], page: str = "/index.html"
) -> tuple[dict[str, bytes], dict[str, str]]:
    """The files' bytes with every reference to a served file versioned (the page and the JS modules
    rewritten, other files as read), and each file's version by URL path (all but ``page``).

    Raises:
        UnicodeDecodeError: the page or a module is not UTF-8.
    """
    imports = import_graph(bodies)
    version_of = versions(bodies, imports, page)
    out = dict(bodies)
    for path in imports:
        out[path] = rewrite_module(path, bodies[path].decode(), version_of).encode()
    if page in bodies:
        out[page] = rewrite_page(bodies[page].decode(), version_of, imports).encode()
    return out, version_of

"""The rules of the games as web pages, made once at start-up from their one source, ``docs/rules/*.md``.

``/rules/barbu.html`` and ``/rules/solitaire.html`` are ``docs/rules/barbu.md`` and ``docs/rules/solitaire.md``
rendered by markdown-it-py (CommonMark with its tables), so the page's rules panel says what the documents
say, word for word, and a change to a document is in the page at the next start. Rendering is sanitised:
raw HTML in the markdown is escaped (``html`` off), links go only to web addresses and in-page anchors
(a relative link to a file of the repository, ``seeds/barbu.km.txt``, which the server does not serve,
keeps its words and loses its link) and nothing carries a ``style`` or a script, so the page's CSP holds.
Each heading gets an ``id`` from its words (``## Doubling``: ``doubling``; ``### Dominoes``:
``dominoes``), which the panel opens at.

Where the documents are read from: a wheel carries copies in the ``web`` package (``web/rules/``, put there
at build time by ``setup.py``); a checkout, or an editable install, reads them from the repository's
``docs/rules/`` beside the package.
"""

from __future__ import annotations

import html
import importlib.util
import re
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

#: The rules documents served, by name: ``docs/rules/NAME.md`` becomes ``/rules/NAME.html``.
DOCUMENTS = ("barbu", "solitaire")
#: The package whose ``rules/`` folder holds the documents in a wheel.
PACKAGE = "web"
#: Link targets kept as links: web addresses and in-page anchors.
_KEPT_LINK = re.compile(r"^(?:https?://|#)")
_NOT_WORD = re.compile(r"[^\w]+")


def rules_source(name: str, package: str = PACKAGE) -> str:
    """The markdown of rules document ``name`` (``barbu``): the packaged copy, else the repository's.

    Raises:
        FileNotFoundError: neither the package nor the repository beside it holds the document.
    """
    packaged = files(package) / "rules" / f"{name}.md"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise FileNotFoundError(f"the rules document {name}.md: no package {package}")
    beside = Path(spec.origin).resolve().parent.parent / "docs" / "rules" / f"{name}.md"
    if not beside.is_file():
        raise FileNotFoundError(
            f"the rules document {name}.md is neither in {package}/rules/ nor at {beside}"
        )
    return beside.read_text(encoding="utf-8")


def slug(words: str) -> str:
    """A heading's ``id``: its words in lower case joined by hyphens (``Baker's Dozen``: ``baker-s-dozen``)."""
    return _NOT_WORD.sub("-", words.lower()).strip("-")


def _heading_ids(state: StateCore) -> None:
    seen: dict[str, int] = {}
    tokens = state.tokens
    for index, token in enumerate(tokens[:-1]):
        if token.type != "heading_open":
            continue
        base = slug(tokens[index + 1].content) or "section"
        seen[base] = seen.get(base, 0) + 1
        token.attrSet("id", base if seen[base] == 1 else f"{base}-{seen[base]}")


def _link_open(
    renderer: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[index]
    if not _KEPT_LINK.match(str(token.attrGet("href") or "")):
        token.meta["dropped"] = True
        return ""
    if not str(token.attrGet("href")).startswith("#"):
        token.attrSet("rel", "noreferrer")
    return renderer.renderToken(tokens, index, options, env)


def _link_close(
    renderer: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    # The link_open this closes: the nearest one before it at the same nesting (links do not nest).
    opening = next(t for t in reversed(tokens[:index]) if t.type == "link_open")
    return "" if opening.meta.get("dropped") else renderer.renderToken(tokens, index, options, env)


def renderer() -> MarkdownIt:
    """The markdown renderer of the rules: CommonMark and tables, raw HTML escaped, heading ids, links only
    to web addresses and anchors (see the module docstring)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("heading_ids", _heading_ids)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    return md


def rules_page(markdown: str) -> str:
    """The web page of a rules document's ``markdown``: a whole HTML document (it opens on its own too)
    whose ``<main>`` holds the rendered rules; its title is the document's first heading."""
    md = renderer()
    body = md.render(markdown)
    first = re.search(r"^#\s+(.+)$", markdown, re.MULTILINE)
    title = html.escape(first.group(1).strip() if first else "Rules")
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{title}</title>\n</head>\n<body>\n<main class="rules-doc">\n{body}</main>\n</body>\n</html>\n'
    )


def rules_pages(package: str = PACKAGE) -> dict[str, bytes]:
    """Every rules page by URL path (``/rules/barbu.html``), UTF-8.

    Raises:
        FileNotFoundError: a document is missing (see ``rules_source``).
    """
    return {f"/rules/{name}.html": rules_page(rules_source(name, package)).encode() for name in DOCUMENTS}

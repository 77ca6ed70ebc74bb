"""The rules pages of the help screen, read from the one source of the rules, ``docs/rules/barbu.md``
(``server.rules_pages.rules_source``: the same document the browser's Rules panel shows), as plain text
for an 80x24 terminal: a page per section (the document's preface, about the document itself, left out),
and a page per row of the contracts' table, so that each contract has its page; a section's words that do
not fit one page go on to a page of their own ("Doubling (continued)"). Markdown marks are dropped (code,
bold, links keep their words); lists keep their bullets and numbers. ``NOTES`` adds, under a section, what
only the terminal shows (how the table writes the doubles)."""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from client.columns import wrap
from server.rules_pages import rules_source, slug

#: Columns of a page's text (the screen's 80, less a margin).
COLUMNS = 79
#: Where a page's title ends and its key hint starts.
TITLE_COLUMNS = 61
HINT = "(Left/Right: pages)"
#: What the terminal adds under a section of the document, by the section's heading id.
NOTES = {
    "doubling": [
        'On the table: "doubles W<NE!" says N and E doubled W, and ! marks a redoubled',
        'pair (or two who doubled each other); the log says "E doubled you", "You',
        'redoubled W" and who declined to redouble. Must double: the dialog ticks it.',
    ],
    "settling-doubles-pairwise-after-each-hand": [
        "The end-of-hand summary shows each settlement and every hand's result; the",
        "score sheet (s) keeps them all.",
    ],
}


@dataclass
class _Section:
    title: str
    key: str
    lines: list[str] = field(default_factory=list)


def _plain(token: Token) -> str:
    """An inline token's words without their markdown marks."""
    words = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            words.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            words.append(" ")
    return "".join(words)


def _short(title: str) -> str:
    """A heading short enough for a page's title line: its words before a long aside in brackets."""
    return title if len(title) < TITLE_COLUMNS else title.partition(" (")[0]


def sections(markdown: str) -> list[_Section]:
    """The document's sections in order (each heading's, and each row's of a table headed ``contract``),
    their words as lines of at most ``COLUMNS``."""
    tokens = MarkdownIt("commonmark", {"html": False}).enable("table").parse(markdown)
    found: list[_Section] = []
    current: _Section | None = None
    lists: list[list[int]] = []  # the open lists: [next number] for an ordered one, [] for bullets
    row: list[str] | None = None
    head: list[str] = []
    in_head = False
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            words = _plain(tokens[index + 1])
            current = None if token.tag == "h1" else _Section(_short(words), slug(words))
            if current is not None:
                found.append(current)
        elif current is None:
            continue
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            if not lists and current.lines and current.lines[-1]:
                current.lines.append("")  # a list after a paragraph: apart from it
            lists.append([int(token.attrGet("start") or 1)] if token.type == "ordered_list_open" else [])
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif token.type == "thead_open":
            in_head, head = True, []
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(_plain(token))
        elif token.type == "tr_close" and row is not None:
            if not in_head and head and head[0].lower() == "contract":
                page = _Section(row[0], slug(row[0]))
                for name, cell in zip(head[2:], row[2:], strict=False):
                    if cell and cell != "see below":
                        page.lines += wrap(f"{name[:1].upper()}{name[1:]}: {cell}.", COLUMNS)
                found.append(page)
            elif in_head:
                head = row
            row = None
        elif token.type == "inline" and tokens[index - 1].type == "paragraph_open":
            text = _plain(token)
            if lists and tokens[index - 2].type == "list_item_open":
                marker = "- " if not lists[-1] else f"{lists[-1][0]}. "
                if lists[-1]:
                    lists[-1][0] += 1
                lines = wrap(text, COLUMNS - len(marker))
                current.lines += [marker + lines[0], *(" " * len(marker) + line for line in lines[1:])]
            else:
                if current.lines:
                    current.lines.append("")
                current.lines += wrap(text, COLUMNS)
    # A section whose heading is a contract's (Dominoes) goes on that contract's page.
    merged: list[_Section] = []
    for section in found:
        owner = next((s for s in merged if s.key != section.key and s.title.startswith(section.title)), None)
        if owner is not None:
            owner.lines += ["", *section.lines]
        else:
            merged.append(section)
    return [section for section in merged if section.lines]


def rules_text_pages(page_lines: int, name: str = "barbu") -> list[str]:
    """The help pages of rules document ``name``: each at most ``page_lines`` lines of at most 80 columns,
    its title line first, then a blank line, then its words (see the module docstring).

    Raises:
        FileNotFoundError: the document is not installed (``server.rules_pages.rules_source``).
    """
    pages: list[str] = []
    room = page_lines - 2
    for section in sections(rules_source(name)):
        lines = section.lines + ([""] + NOTES[section.key] if section.key in NOTES else [])
        for start in range(0, len(lines), room):
            title = section.title if start == 0 else f"{section.title} (continued)"
            part = lines[start : start + room]
            while part and not part[0]:
                part = part[1:]
            pages.append("\n".join([title.ljust(TITLE_COLUMNS) + HINT, "", *part]) + "\n")
    return pages

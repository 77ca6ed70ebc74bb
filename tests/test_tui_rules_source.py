"""The terminal's rules pages are docs/rules/barbu.md itself (client/tui/rules_text.py): every sentence of the
document's sections is on a help page, a page a contract, each page fitting 80x24; a changed document
changes the pages, and no markdown mark shows."""

from __future__ import annotations

import re
from pathlib import Path

from client.columns import width
from client.tui.help import PAGE_LINES, PAGES
from client.tui.rules_text import rules_text_pages, sections

ROOT = Path(__file__).resolve().parent.parent


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_help_pages_hold_the_documents_words() -> None:
    shown = _words(" ".join(PAGES))
    document = (ROOT / "docs" / "rules" / "barbu.md").read_text(encoding="utf-8")
    for sentence in (
        "A double is a side bet between two players on who scores better in this hand.",
        "The declarer doubles nobody, and may only redouble players who doubled them.",
        "Example: No Tricks, N declarer. Contract scores N −8, E −6, S −10, W −2.",
        "A player who has a playable card must play one; a player who has none passes",
    ):
        assert sentence in _words(document) and sentence in shown, sentence
    assert "Special rules: the hand ends when the trick holding the 4th queen is complete." in shown


def test_the_pages_fit_the_terminal() -> None:
    for page in rules_text_pages(PAGE_LINES):
        lines = page.splitlines()
        assert len(lines) <= PAGE_LINES and all(width(line) <= 80 for line in lines), lines[0]


def test_a_changed_document_changes_the_pages() -> None:
    markdown = (
        "# Game\n\nAbout this file.\n\n## Dealing\nDeal **13** cards with `deal`.\n\n1. First\n2. Second\n\n"
        "## Contracts\n| contract | id | score | special rules |\n|---|---|---|---|\n"
        "| Tiny | `tiny` | +1 | [none](x.md) |\n"
    )
    found = {section.title: section.lines for section in sections(markdown)}
    assert found == {
        "Dealing": ["Deal 13 cards with deal.", "", "1. First", "2. Second"],
        "Tiny": ["Score: +1.", "Special rules: none."],
    }
    assert not re.search(r"`|\*\*|\[", " ".join(" ".join(lines) for lines in found.values()))

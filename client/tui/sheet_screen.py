"""The score-sheet screen: the lines of :func:`client.sheet.sheet_rows`, scrolled to fit the window."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.sheet import sheet_rows


def sheet_lines(view: dict[str, Any], players: dict[str, str], top: int, height: int) -> StyleAndTextTuples:
    """The sheet from row ``top`` (clamped so the last rows fill the screen), ``height`` rows of hands."""
    header, rows = sheet_rows(view.get("history", []), players)
    top = max(0, min(top, len(rows) - height))
    out: StyleAndTextTuples = [
        ("class:title", "Score sheet: hand score (running total); a>b a doubled b, ! redoubled\n")
    ]
    out += [("class:label", line + "\n") for line in header]
    for line in rows[top : top + height]:
        out.append(("class:contract" if line.lstrip().startswith("Totals") else "", line + "\n"))
    return out

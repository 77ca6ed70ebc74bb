"""The score-sheet screen: the lines of :func:`client.sheet.sheet_rows`, scrolled to fit the window."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.sheet import LEGEND, sheet_rows

#: Lines above the rows: the title, the legend, and the header of ``sheet_rows`` (players, column titles).
SHEET_TOP_LINES = 4


def sheet_lines(view: dict[str, Any], players: dict[str, str], top: int, height: int) -> StyleAndTextTuples:
    """The sheet from row ``top`` (clamped so the last rows fill the screen), ``height`` rows of hands (a hand
    whose doubles go on continuation lines takes more than one row)."""
    header, rows = sheet_rows(view.get("history", []), players)
    top = sheet_top(view, players, top, height)
    out: StyleAndTextTuples = [
        ("class:title", "Score sheet: hand score (running total)\n"),
        ("class:dim", LEGEND + "\n"),
    ]
    out += [("class:label", line + "\n") for line in header]
    for line in rows[top : top + height]:
        out.append(("class:contract" if line.lstrip().startswith("Totals") else "", line + "\n"))
    return out


def sheet_top(view: dict[str, Any], players: dict[str, str], top: int, height: int) -> int:
    """``top`` clamped to the sheet's rows so that ``height`` of them fill the screen."""
    return max(0, min(top, len(sheet_rows(view.get("history", []), players)[1]) - height))

"""The score sheet of the 28 hands in 80 columns: declarer, contract, doubles (``a>b``, ``!`` redoubled),
each seat's score with its running total, and the totals. Labels come from ``cli.sheet``."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from cli.sheet import contract_label, doubles_label
from engine.cards import SEATS


def sheet_rows(history: list[dict[str, Any]], players: dict[str, str]) -> tuple[list[str], list[str]]:
    """The header lines and one line a hand (then the totals), each at most 79 characters."""
    header = [
        "  ".join(f"{s}={players.get(s, s)[:14]}" for s in SEATS),
        f"{'#':>2} D {'contract':<12} {'doubles':<13}" + "".join(f"{s:>12}" for s in SEATS),
    ]
    totals = dict.fromkeys(SEATS, 0)
    rows = []
    for row in history:
        cells = ""
        for s in SEATS:
            totals[s] += row["scores"][s]
            cells += f"{row['scores'][s]:>5} ({totals[s]:>4})"
        label = doubles_label(row)
        rows.append(
            f"{row['hand_number']:>2} {row['declarer']} {contract_label(row)[:12]:<12} {label[:13]:<13}{cells}"
        )
    rows.append(f"{'':>2}   {'Totals':<12} {'':<13}" + "".join(f"{totals[s]:>12}" for s in SEATS))
    return header, rows


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

"""The Barbu score sheet as text: one line a hand with doubles marked, the running totals, the winner."""

from __future__ import annotations

from typing import Any

from engine.cards import SEATS

_SHORT = {
    "no-tricks": "No Tricks",
    "no-queens": "No Queens",
    "no-last-two": "No Last Two",
    "no-hearts": "No Hearts",
    "barbu": "Barbu",
    "trumps": "Trumps",
    "dominoes": "Dominoes",
}


def contract_label(row: dict[str, Any]) -> str:
    """``"Trumps H"``, ``"Dominoes 6"`` or the contract's name, from a score-sheet row or a view."""
    name = _SHORT.get(str(row.get("contract")), str(row.get("contract")))
    extra = row.get("trump") or row.get("start_rank")
    return f"{name} {extra}" if extra else name


def doubles_label(row: dict[str, Any]) -> str:
    """The doubles of a hand, e.g. ``"E>N! W>S"``: ``a>b`` a doubled b, ``!`` marks a redoubled pair."""
    redoubled = {frozenset(p) for p in row.get("redoubles", [])}
    pairs = [tuple(p) for p in row.get("doubles", [])]
    out = []
    for a, b in pairs:
        if (b, a) in pairs and a > b:
            continue
        mark = "!" if frozenset((a, b)) in redoubled or (b, a) in pairs else ""
        out.append(f"{a}>{b}{mark}")
    return " ".join(out)


def sheet_rows(
    history: list[dict[str, Any]], players: dict[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """The score sheet of the hands in ``history`` (rows as in ``Match.view()["history"]``) as text lines:
    the header (players, column titles) and one line a hand with each seat's score and running total in
    brackets, then the totals line. Every line is at most 78 characters."""
    players = players or {s: s for s in SEATS}
    header = [
        "  ".join(f"{s}={players.get(s, s)[:14]}" for s in SEATS),
        f"{'#':>2} {'D':1} {'contract':<11} {'doubles':<13}" + "".join(f"{s:>12}" for s in SEATS),
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
            f"{row['hand_number']:>2} {row['declarer']} {contract_label(row)[:11]:<11} {label[:13]:<13}{cells}"
        )
    rows.append(f"{'':>2} {'':1} {'Totals':<11} {'':<13}" + "".join(f"{totals[s]:>12}" for s in SEATS))
    return header, rows


def score_sheet(history: list[dict[str, Any]], players: dict[str, str] | None = None) -> str:
    """The score sheet (:func:`sheet_rows`) as one text, with the winner(s) on the last line."""
    header, rows = sheet_rows(history, players)
    lines = header + rows
    if history:
        totals = {s: sum(row["scores"][s] for row in history) for s in SEATS}
        top = max(totals.values())
        names = players or {}
        winners = [s for s in SEATS if totals[s] == top]
        lines.append("Winner: " + ", ".join(f"{s} ({names.get(s, s)})" for s in winners) + f" with {top}")
    return "\n".join(lines)

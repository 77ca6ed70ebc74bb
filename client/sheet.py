"""The Barbu score sheet as text: one line a hand with every double and redouble marked (continued on the
next lines when they do not fit), the running totals, the notation's legend, the winner."""

from __future__ import annotations

from typing import Any

from client.columns import shorten
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


#: Suits as people read them (records keep the letters).
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def contract_label(row: dict[str, Any]) -> str:
    """The contract in the client's one notation, from a score-sheet row or a view: ``"Trumps ♠"``,
    ``"Dominoes from 10"`` (16 columns at most) or the contract's name. Suits are symbols and a ten is ``10``
    in everything shown to people; records keep ``S`` and ``T``."""
    name = _SHORT.get(str(row.get("contract")), str(row.get("contract")))
    if row.get("trump"):
        return f"{name} {SUIT_SYMBOLS.get(str(row['trump']), row['trump'])}"
    rank = row.get("start_rank")
    if rank:
        shown = "10" if rank == "T" else str(rank)
        return f"{name} from {shown}"
    return name


#: The doubles column's notation, printed with the sheet.
LEGEND = "doubles: W<NE! = N and E doubled W, ! = redoubled (or they doubled each other)"
#: The doubles column: one group of the widest kind (``W<N!E!S!``) a line.
DOUBLES_WIDTH = 8
#: The contract column: ``Dominoes from 10``, the longest contract in the one notation.
CONTRACT_WIDTH = 16


def doubles_groups(row: dict[str, Any]) -> list[str]:
    """The doubles of a hand grouped by the doubled player, in seat order, e.g. ``["N<E!S", "W<S!"]``: ``N<E!S``
    says E and S doubled N and ``!`` marks a redoubled pair (or two players who doubled each other). Every
    doubled pair is shown once, however many there are (up to six in the trick contracts)."""
    redoubled = {frozenset(p) for p in row.get("redoubles", [])}
    pairs = [(str(a), str(b)) for a, b in row.get("doubles", [])]
    doublers: dict[str, list[str]] = {}
    for a, b in pairs:
        if (b, a) in pairs and pairs.index((b, a)) < pairs.index((a, b)):
            continue  # doubled each other: shown once, where the first of the two doubles is
        mark = "!" if frozenset((a, b)) in redoubled or (b, a) in pairs else ""
        doublers.setdefault(b, []).append(a + mark)
    return [
        f"{seat}<" + "".join(sorted(doublers[seat], key=lambda d: SEATS.index(d[0])))
        for seat in SEATS
        if seat in doublers
    ]


def doubles_label(row: dict[str, Any]) -> str:
    """The doubles of a hand on one line, e.g. ``"N<E!S W<S!"`` (:func:`doubles_groups`, :data:`LEGEND`)."""
    return " ".join(doubles_groups(row))


def doubles_lines(row: dict[str, Any], cols: int = DOUBLES_WIDTH) -> list[str]:
    """The doubles of a hand packed into lines of at most ``cols`` columns (a group is never split): one line
    when they fit, else the first and continuation lines (none when nobody doubled)."""
    lines: list[str] = []
    for group in doubles_groups(row):
        if lines and len(lines[-1]) + 1 + len(group) <= cols:
            lines[-1] += " " + group
        else:
            lines.append(group)
    return lines


def sheet_rows(
    history: list[dict[str, Any]], players: dict[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """The score sheet of the hands in ``history`` (rows as in ``Match.view()["history"]``) as text lines:
    the header (players, column titles) and one line a hand with each seat's score and running total in
    brackets, followed by continuation lines holding the rest of its doubles when they do not fit in the
    doubles column, then the totals line. Every line is at most 78 terminal columns (names are cut in the
    middle to 14 columns)."""
    players = players or {s: s for s in SEATS}
    header = [
        "  ".join(f"{s}={shorten(players.get(s, s), 14)}" for s in SEATS),
        f"{'#':>2} {'*':1} {'contract':<{CONTRACT_WIDTH}} {'doubles':<{DOUBLES_WIDTH}}"
        + "".join(f"{s:>12}" for s in SEATS),
    ]
    totals = dict.fromkeys(SEATS, 0)
    rows = []
    for row in history:
        cells = ""
        for s in SEATS:
            totals[s] += row["scores"][s]
            cells += f"{row['scores'][s]:>5} ({totals[s]:>4})"
        first, *more = doubles_lines(row) or [""]
        contract = contract_label(row)
        rows.append(
            f"{row['hand_number']:>2} {row['declarer']} {contract:<{CONTRACT_WIDTH}} {first:<{DOUBLES_WIDTH}}{cells}"
        )
        rows += [f"{'':>2} {'':1} {'':<{CONTRACT_WIDTH}} {line}" for line in more]
    totals_line = f"{'':>2} {'':1} {'Totals':<{CONTRACT_WIDTH}} {'':<{DOUBLES_WIDTH}}"
    rows.append(totals_line + "".join(f"{totals[s]:>12}" for s in SEATS))
    return header, rows


def score_sheet(history: list[dict[str, Any]], players: dict[str, str] | None = None) -> str:
    """The score sheet (:func:`sheet_rows`) as one text, with the winner(s) on the last line."""
    header, rows = sheet_rows(history, players)
    lines = header + rows + [LEGEND]
    if history:
        totals = {s: sum(row["scores"][s] for row in history) for s in SEATS}
        top = max(totals.values())
        names = players or {}
        winners = [s for s in SEATS if totals[s] == top]
        lines.append(
            "Winner: " + ", ".join(f"{s} ({shorten(names.get(s, s), 20)})" for s in winners) + f" with {top}"
        )
    return "\n".join(lines)

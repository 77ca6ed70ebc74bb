"""Game events in words, for the notice line (``engine.barbu`` event kinds)."""

from __future__ import annotations

from typing import Any

from client.sheet import contract_label
from client.tui.cards import card_label
from client.tui.model import TableModel


def _who(table: TableModel, seat: Any) -> str:
    if not isinstance(seat, str):
        return "?"
    return "you" if seat == table.seat else f"{seat} {table.player(seat)}"


def event_text(event: dict[str, Any], table: TableModel) -> str:
    """A one-line account of ``event`` at ``table`` (empty for events not worth a line). A ``trick-won``
    event also becomes the table's last trick."""
    kind = event.get("event")
    if kind == "trick-won":
        table.last_trick = {k: event.get(k) for k in ("leader", "cards", "winner")}
        cards = " ".join(card_label(str(c)) for c in event.get("cards", []))
        return f"Trick {event.get('trick_number')} ({cards}) won by {_who(table, event.get('winner'))}."
    if kind == "contract-chosen":
        return f"{_who(table, event.get('declarer', event.get('seat')))} chose {contract_label(event)}."
    if kind == "doubled":
        targets = ", ".join(str(t) for t in event.get("targets", []))
        seat = _who(table, event.get("seat"))
        return f"{seat} doubled {targets}." if targets else f"{seat} doubled nobody."
    if kind == "redoubled":
        targets = ", ".join(str(t) for t in event.get("targets", []))
        return f"{_who(table, event.get('seat'))} redoubled {targets}." if targets else ""
    if kind == "card-played":
        return f"{_who(table, event.get('seat'))} played {card_label(str(event.get('card')))}."
    if kind == "passed":
        return f"{_who(table, event.get('seat'))} passed (no card to play)."
    if kind == "player-out":
        return f"{_who(table, event.get('seat'))} is out, place {event.get('place')}."
    if kind == "hand-scored":
        scores = event.get("scores", {})
        mine = scores.get(table.seat) if table.seat else None
        tail = f" You scored {mine}." if mine is not None else ""
        return f"Hand {event.get('hand_number')} scored.{tail} Press s for the score sheet."
    if kind == "match-over":
        totals = event.get("totals", {})
        text = ", ".join(f"{s} {v}" for s, v in totals.items())
        return f"The match is over: {text}. Press s for the score sheet."
    return ""

"""Game events in words, for the notice line and the log (``engine.barbu`` event kinds), in the client's one
notation: suit symbols and ``10`` for tens (``client.sheet.contract_label``, ``client.tui.cards.card_label``);
``you`` for this client's seat, with the verb to match, ``You`` when a line begins with it."""

from __future__ import annotations

from typing import Any

from client.sheet import contract_label
from client.tui.cards import card_label
from client.tui.model import TableModel


def is_mine(table: TableModel, seat: Any) -> bool:
    """Whether ``seat`` is this client's: the seat it plays, or one it watches that is still its player's (a
    stand-in plays it)."""
    return seat == table.seat or (bool(table.me) and table.players.get(seat) == table.me)


def duration(seconds: float) -> str:
    """A wait in words, as a clock counts down: ``42 s`` under a minute (seconds rounded up), ``59 min``
    under an hour (whole minutes), else ``2 h 5 min``."""
    whole = max(int(-(-seconds // 1)), 0)
    if whole < 60:
        return f"{whole} s"
    minutes = whole // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h" + (f" {minutes % 60} min" if minutes % 60 else "")


def who(table: TableModel, seat: Any) -> str:
    """``you`` for this client's seat (``is_mine``), else ``W carol``."""
    if not isinstance(seat, str):
        return "?"
    return "you" if is_mine(table, seat) else f"{seat} {table.player(seat)}"


def seats_text(table: TableModel, seats: Any) -> str:
    """``you``, ``W carol`` or ``E bob and you``: seats in words (a double's, those a table waits for)."""
    names = [who(table, s) for s in seats or []]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _is(table: TableModel, seat: Any) -> str:
    """``you are`` or ``E bob is``."""
    name = who(table, seat)
    return f"{name} are" if name == "you" else f"{name} is"


def sentence(text: str) -> str:
    """``text`` as a line of the log begins: ``you played 7♠.`` -> ``You played 7♠.`` (a seat letter or
    ``Trick`` already does)."""
    return text[:1].upper() + text[1:]


def full_sentence(text: str) -> str:
    """``text`` as a sentence, with a capital first and a full stop last: the server's refusals start lower
    case and end bare (``no open room '1'`` -> ``No open room '1'.``)."""
    text = sentence(text.strip())
    return text if not text or text[-1] in ".!?" else f"{text}."


def event_text(event: dict[str, Any], table: TableModel) -> str:
    """A one-line account of ``event`` at ``table`` (empty for events not worth a line). A ``hand-scored``
    event also becomes the table's end-of-hand summary (``TableModel.take_event`` keeps a trick won)."""
    kind = event.get("event")
    if kind == "trick-won":
        cards = " ".join(card_label(str(c)) for c in event.get("cards", []))
        return f"Trick {event.get('trick_number')} ({cards}) won by {who(table, event.get('winner'))}."
    if kind in ACTED:
        return sentence(_acted(event, table))
    if kind == "player-out":
        if event.get("place") == 4:  # still holding cards: the last one left, not "out"
            return sentence(f"{_is(table, event.get('seat'))} last (place 4).")
        return sentence(f"{_is(table, event.get('seat'))} out (place {event.get('place')}).")
    if kind == "hand-scored":
        scored = event.get("hand_number")
        view = table.view or {}
        # The event has no doubles: the view of the hand just scored holds them, final, until the snapshot
        # of the next hand brings its history row (without them the summary said "No doubles this hand").
        same = {k: view.get(k) for k in ("doubles", "redoubles", "trump", "start_rank")}
        table.summary = {**same, **event} if view.get("hand_number") == scored else dict(event)
        table.summary_seen = False
        table.summary_trick = table.last_trick if table.last_trick_hand == scored else None
        scores = event.get("scores", {})
        mine = scores.get(table.seat) if table.seat else None
        tail = ""
        if mine is not None:  # the hand's result: the contract's points and the doubles' settlements
            contract = (event.get("contract_scores") or {}).get(table.seat, mine)
            settled = (event.get("settlements") or {}).get(table.seat, 0)
            tail = f" You scored {mine} (contract {contract}, doubles {settled:+})."
        return f"Hand {event.get('hand_number')} scored.{tail} Press s for the score sheet."
    if kind == "match-over":
        return f"The match is over: {winner_text(event.get('ranking') or [], event.get('totals', {}), table)}"
    return ""


#: The events telling a seat's own action; they carry ``by`` when the server played it for a human's seat.
ACTED = ("contract-chosen", "doubled", "redoubled", "card-played", "passed")


def _acted(event: dict[str, Any], table: TableModel) -> str:
    """A seat's action in words: ``E bob doubled you.``; when the turn timer played it (``by: "timer"``)
    ``Time ran out: a bot played 7♠ for you.``, a stand-in ``A bot played 7♠ for W carol.``"""
    kind = event.get("event")
    seat = event.get("declarer", event.get("seat")) if kind == "contract-chosen" else event.get("seat")
    targets = event.get("targets") or []
    if kind in ("card-played", "passed"):
        table.summary_seen = True  # the next hand is under way: the summary goes
    if kind == "contract-chosen":
        what = f"chose {contract_label(event)}"
    elif kind == "doubled":
        what = f"doubled {seats_text(table, targets) if targets else 'nobody'}"
    elif kind == "redoubled":
        what = f"redoubled {seats_text(table, targets)}" if targets else "declined to redouble"
    elif kind == "card-played":
        what = f"played {card_label(str(event.get('card')))}"
    else:
        what = "passed (no card to play)"
    by = event.get("by")
    if by not in ("timer", "stand-in"):
        return f"{who(table, seat)} {what}."
    text = f"a bot {what} for {who(table, seat)}."
    return f"Time ran out: {text}" if by == "timer" else text


def winner_text(ranking: list[list[str]], totals: dict[str, int], table: TableModel) -> str:
    """The winner said plainly: ``you won with 45 points.``, ``W carol won with 60 points.``, or ``N ann and
    you share first place with 30 points.``"""
    if not ranking or not ranking[0]:
        return "no winner."
    first = ranking[0]
    points = totals.get(first[0], 0)
    if len(first) == 1:
        return f"{who(table, first[0])} won with {points} points."
    return f"{seats_text(table, first)} share first place with {points} points."


def missed_text(table: TableModel, rows: list[dict[str, Any]]) -> str:
    """What the log says of hands scored while this client was not at ``table`` (``rows``: their
    ``history`` rows): ``Hands 22–28 were played while you were away (a bot played S for you: you scored -12
    in them).``; for a watcher, ``since you last looked``. Empty for no rows."""
    if not rows:
        return ""
    first, last = rows[0].get("hand_number"), rows[-1].get("hand_number")
    hands = f"Hand {first} was" if first == last else f"Hands {first}–{last} were"
    mine = table.own_seat()
    if mine is None:
        return f"{hands} played since you last looked."
    scored = sum(int((r.get("scores") or {}).get(mine, 0)) for r in rows)
    return f"{hands} played while you were away (a bot played {mine} for you: you scored {scored:+})."

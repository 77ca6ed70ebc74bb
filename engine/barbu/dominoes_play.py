"""The heuristic's card play in Dominoes (``docs/rules/barbu.md``, Dominoes: rows grow one rank at a time
from the starting rank; the first out scores most, so every pass costs a place).

A card in hand holds back every card beyond it in its row (above it when above the starting rank, below it
when below; both ways for the starting card itself). Playing it brings the seat's own cards beyond it
nearer, and frees the others' cards beyond it (the ones still out: neither in this hand nor in the rows) up
to the seat's next card that way, which holds back the rest. So the seat plays the card that serves most of
its own cards, the others' cards freed weighing less (going out first matters most); among plays that serve
its own cards alike it keeps its **stoppers** (cards that hold back runs of the others' cards), and then
prefers a card whose next card it holds (it keeps the run to itself) and one that opens nothing for the
others now.
Everything comes from the seat's own view: its hand and the rows.
"""

from __future__ import annotations

from typing import Any

from engine.cards import FULL_DECK, RANKS, SUITS, mask_of, parse_card

#: What one of the others' cards freed weighs against one of the seat's own cards served. Measured
#: (benchmarks/arena.py against heuristic-2026, 200 matches on seeds 1 and 1001): 1 gains +9.7 a Dominoes
#: hand, 0.5 +11.7, 1/8 +16.1 and +18.1, 0 +16.6 and +17.8: going out early is worth more than blocking.
_FREED_WEIGHT = 0.125


def _beyond(c: int, start: int) -> list[int]:
    """The cards of ``c``'s row that can be played only after ``c``, nearest first (both ways for the
    starting card, alternating)."""
    base, rank = c - c % 13, c % 13
    up = [base + r for r in range(rank + 1, 13)]
    down = [base + r for r in range(rank - 1, -1, -1)]
    if rank > start:
        return up
    if rank < start:
        return down
    return [x for pair in zip(up, down, strict=False) for x in pair] + up[len(down) :] + down[len(up) :]


def _next(c: int, start: int) -> list[int]:
    """The cards that become playable when ``c`` is played."""
    rank = c % 13
    out = []
    if rank >= start and rank < 12:
        out.append(c + 1)
    if rank <= start and rank > 0:
        out.append(c - 1)
    return out


def _released(c: int, start: int, hand: int, out: int) -> int:
    """The others' cards that playing ``c`` frees: those beyond it up to the seat's next card that way."""
    base, rank = c - c % 13, c % 13
    total = 0
    ways = [w for w, ok in ((1, rank >= start), (-1, rank <= start)) if ok]
    for w in ways:
        r = rank + w
        while 0 <= r < 13 and not (hand >> (base + r)) & 1:
            total += (out >> (base + r)) & 1
            r += w
    return total


def dominoes_card(view: dict[str, Any], cards: list[int]) -> int:
    """The card to play among the playable ``cards`` (at least two), from the seat's ``view``."""
    start = RANKS.index(view["start_rank"])
    hand = mask_of(parse_card(c) for c in view["hand"])
    played = mask_of(parse_card(c) for s in SUITS for c in view["rows"][s])
    out = FULL_DECK & ~hand & ~played

    def value(c: int) -> tuple[float, int, int, int]:
        beyond = _beyond(c, start)
        mine = sum(1 for x in beyond if (hand >> x) & 1)
        theirs = sum(1 for x in beyond if (out >> x) & 1)
        released = _released(c, start, hand, out)
        nxt = _next(c, start)
        follow = sum(1 for x in nxt if (hand >> x) & 1)
        opens = sum(1 for x in nxt if (out >> x) & 1)
        return (mine - _FREED_WEIGHT * released, follow - opens, -theirs, -c)

    return max(cards, key=value)

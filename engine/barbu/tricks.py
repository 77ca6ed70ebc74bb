"""The card winning a trick so far, and whether a card beats it ("Trick play" in ``docs/rules/barbu.md``):
for the bots, which look at tricks still being played (``engine.barbu.hand.trick_winner`` scores whole ones).
Cards are the ints of :mod:`engine.cards`; ``trump`` is a suit 0..3, or ``None`` outside Trumps."""

from __future__ import annotations

from collections.abc import Sequence


def winning_card(trick: Sequence[int], trump: int | None) -> int:
    """The card winning ``trick`` (at least one card, in play order): the highest trump, else the highest
    card of the suit led."""
    best = trick[0]
    for c in trick[1:]:
        if (c // 13 == best // 13 and c > best) or (
            trump is not None and c // 13 == trump and best // 13 != trump
        ):
            best = c
    return best


def beats(c: int, best: int, trump: int | None) -> bool:
    """Whether ``c`` played now would win a trick that ``best`` is winning."""
    if c // 13 == best // 13:
        return c > best
    return trump is not None and c // 13 == trump

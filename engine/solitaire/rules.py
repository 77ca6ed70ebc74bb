"""The shared parts of the solitaire rules: card values, build rules and empty-column rules.

A card is an ``int`` 0..51 as in ``engine.cards`` (``suit * 13 + rank``, rank 0 = the 2 .. 12 = the Ace);
two-deck games simply hold each card twice. Solitaire counts Aces low: ``VALUE[card]`` is 1 for an Ace, 2..10
for the pips, 11 J, 12 Q, 13 K (``docs/rules/solitaire.md``, "Terms").
"""

from __future__ import annotations

from enum import StrEnum

from engine.cards import RED_SUITS

VALUE: tuple[int, ...] = tuple(1 if c % 13 == 12 else c % 13 + 2 for c in range(52))
"""The solitaire value of each card: Ace 1 .. King 13."""

SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
"""The suit index 0..3 (S H D C) of each card."""

KING = 13


def card_of(suit: int, value: int) -> int:
    """The card of ``suit`` (0..3) and solitaire ``value`` (1 = Ace .. 13 = King)."""
    return suit * 13 + (12 if value == 1 else value - 2)


class Build(StrEnum):
    """How a column is built down: each card one lower in value than the card it covers, and ..."""

    SAME_SUIT = "same-suit"
    OTHER_SUIT = "other-suit"
    ALTERNATE_COLOUR = "alternate-colour"
    ANY_SUIT = "any-suit"

    @property
    def words(self) -> str:
        """The rule in words, for rules cards and error messages."""
        return _BUILD_WORDS[self]


_BUILD_WORDS = {
    Build.SAME_SUIT: "down in the same suit",
    Build.OTHER_SUIT: "down on a card of a different suit",
    Build.ALTERNATE_COLOUR: "down in alternate colours",
    Build.ANY_SUIT: "down regardless of suit",
}


def _suits_match(rule: Build, below: int, above: int) -> bool:
    if rule is Build.SAME_SUIT:
        return below == above
    if rule is Build.OTHER_SUIT:
        return below != above
    if rule is Build.ALTERNATE_COLOUR:
        return (below in RED_SUITS) != (above in RED_SUITS)
    return True


def _table(rule: Build) -> bytes:
    return bytes(
        1 if VALUE[above] == VALUE[below] - 1 and _suits_match(rule, SUIT[below], SUIT[above]) else 0
        for below in range(52)
        for above in range(52)
    )


BUILDS_ON: dict[Build, bytes] = {rule: _table(rule) for rule in Build}
"""``BUILDS_ON[rule][below * 52 + above]`` is 1 when card ``above`` may be put on card ``below``."""

BUILDERS: dict[Build, tuple[tuple[int, ...], ...]] = {
    rule: tuple(tuple(a for a in range(52) if BUILDS_ON[rule][b * 52 + a]) for b in range(52))
    for rule in Build
}
"""``BUILDERS[rule][card]``: the cards (0..51) that may ever be put on ``card`` under ``rule``."""


BASES: dict[Build, tuple[tuple[int, ...], ...]] = {
    rule: tuple(tuple(b for b in range(52) if BUILDS_ON[rule][b * 52 + a]) for a in range(52))
    for rule in Build
}
"""``BASES[rule][card]``: the cards (0..51) that ``card`` may be put on under ``rule``."""

PREVIOUS: tuple[int, ...] = tuple(-1 if VALUE[c] == 1 else card_of(SUIT[c], VALUE[c] - 1) for c in range(52))
"""``PREVIOUS[card]``: the card of the same suit one lower in value (-1 for an Ace)."""


class Empty(StrEnum):
    """What an empty column accepts: any card (or valid run), nothing, or a King alone."""

    ANY = "any"
    NONE = "none"
    KING = "king"

    @property
    def words(self) -> str:
        """The rule in words, for rules cards and error messages."""
        return _EMPTY_WORDS[self]


_EMPTY_WORDS = {
    Empty.ANY: "an empty column takes any card",
    Empty.NONE: "an emptied column stays empty",
    Empty.KING: "an empty column takes a King only",
}


def number(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits without a leading zero (``"0"`` itself is 0), else
    None: ``"12"`` is 12; ``"012"``, ``"+1"``, ``" 1"``, ``"²"`` and ``"٣"`` are not numbers of the notation."""
    if not text or not (text.isascii() and text.isdigit()) or (len(text) > 1 and text[0] == "0"):
        return None
    return int(text)

"""Cards as the terminal client draws them: suit symbols, red and black styles, hands sorted by suit."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from engine.cards import RANKS

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
# Display order alternates colours: spades, hearts, clubs, diamonds.
SUIT_ORDER = "SHCD"
RED = frozenset("HD")


def rank_text(card: str) -> str:
    """The rank as shown: ``T`` becomes ``10``."""
    return "10" if card[0] == "T" else card[0]


def card_label(card: str) -> str:
    """``"Q♠"``, ``"10♥"``; ``"??"`` (a face-down card) stays as is."""
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return card
    return rank_text(card) + SUIT_SYMBOLS[card[1]]


def suit_style(card: str) -> str:
    """The style class of a card's colour: ``class:red`` or ``class:black`` (``class:back`` face down)."""
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return "class:back"
    return "class:red" if card[1] in RED else "class:black"


def card_fragment(card: str, extra: str = "", width: int = 0) -> tuple[str, str]:
    """One formatted-text fragment for ``card`` in its colour plus ``extra`` style, padded to ``width``."""
    text = card_label(card)
    return (f"{suit_style(card)} {extra}".strip(), text.ljust(width))


def sort_hand(cards: list[str]) -> list[str]:
    """Cards grouped by suit (♠ ♥ ♣ ♦, so colours alternate), each suit high to low."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c[1]), -RANKS.index(c[0])))


def cards_line(cards: list[str], sep: str = " ") -> StyleAndTextTuples:
    """Cards in their colours separated by ``sep``."""
    out: StyleAndTextTuples = []
    for i, card in enumerate(cards):
        if i:
            out.append(("", sep))
        out.append(card_fragment(card))
    return out

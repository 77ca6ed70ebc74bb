"""Helpers for the solitaire tests: decks built from a wanted layout (no tests here)."""

from __future__ import annotations

from engine.cards import parse_card
from engine.solitaire.catalogue import GAMES, full_deck


def cards(text: str) -> list[int]:
    """``"QS 5H KD"`` as card numbers."""
    return [parse_card(t) for t in text.split()]


def deck_for(game: str, columns: list[str], stock: str = "") -> list[int]:
    """A dealing order for ``game`` whose columns are ``columns`` (each bottom first, space-separated cards, as
    dealt: before Baker's Dozen's king move) and whose stock starts (top first) with ``stock``; the other cards
    of the game follow in a fixed order."""
    rules = GAMES[game].columns
    assert rules is not None
    cols = [cards(c) for c in columns]
    assert len(cols) == rules.columns and all(len(c) == rules.rows for c in cols)
    dealt = [cols[c][r] for r in range(rules.rows) for c in range(rules.columns)]
    head = cards(stock)
    rest = full_deck(game)
    for c in dealt + head:
        rest.remove(c)
    return dealt + head + rest

"""Helpers for the solitaire tests: decks built from a wanted layout, detours of a line (no tests here)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import parse_card
from engine.solitaire.base import Game
from engine.solitaire.catalogue import GAMES, full_deck
from engine.solitaire.column_moves import FOUNDATION
from engine.solitaire.columns import ColumnGame
from engine.solitaire.lines import wins
from engine.solitaire.rules import VALUE


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


def trivial_forty_deck(game: str = "forty-thieves") -> list[int]:
    """A Forty Thieves family deck that wins by turning the stock: the stock holds the lowest cards, Aces
    first, and the columns the highest, each column higher at the bottom."""
    rules = GAMES[game].columns
    assert rules is not None
    ranked = sorted(full_deck(game), key=lambda c: (VALUE[c], c))
    dealt = rules.columns * rules.rows
    stock, high = ranked[: len(ranked) - dealt], ranked[len(ranked) - dealt :]
    rows = [sorted(high[i : i + rules.columns]) for i in range(0, dealt, rules.columns)]
    return [c for row in reversed(rows) for c in row] + stock


def trivial_bakers_deck() -> list[int]:
    """A Baker's Dozen deck that wins at once: column j holds the four cards of one rank, Kings first."""
    return deck_for("bakers-dozen", [" ".join(f"{r}{s}" for s in "SHDC") for r in "KQJT98765432A"])


def trivial_pyramid_deck() -> list[int]:
    """A Pyramid deck won by pairing each pyramid card, bottom row first, with the next stock card."""
    pyramid: list[str] = ["KS", "KH", "KD", "KC"] + [""] * 24
    order = [*range(21, 28), *range(15, 21), *range(10, 15), *range(6, 10), 4, 5]
    low = [f"{r}{s}" for r in "A23456" for s in "SHDC"]
    high = {"A": "Q", "2": "J", "3": "T", "4": "9", "5": "8", "6": "7"}
    stock = []
    for pos, card in zip(order, low, strict=True):
        pyramid[pos] = card
        stock.append(high[card[0]] + card[1])
    return cards(" ".join(pyramid + stock))


UNSOLVABLE_BAKERS = [
    "KS 3H AS 2S",  # 2S may go only on 3H 3D 3C: all buried; not on 3S (same suit)
    "KC 2C AC QS",
    "KD 2D AD QH",
    "KH 2H AH QD",
    "3D 3C 4C 3S",
    "4S 5S 9S 6S",
    "4H 5H 9H 6H",
    "4D 5D 9D 6D",
    "5C 9C JC 6C",
    "7S TS JS 8S",
    "7H TH JH 8H",
    "7D TD JD 8D",
    "QC TC 8C 7C",
]
"""A Baker's Dozen deal with a few moves and no win: every Ace lies under a 2 that can never move."""


def reversals(game: Game, line: Sequence[str], limit: int | None = None) -> list[tuple[int, int]]:
    """The pairs (i, j) of ``line`` (moves from ``game``'s position): move i takes cards from column A to
    column B, move j takes the same cards from B back to A (whatever moves come between), and the line
    without both still replays to a win; the first ``limit`` of them (None: all). Found by brute force:
    every such pair is replayed."""
    if not isinstance(game, ColumnGame):
        return []
    replay = game.copy()
    steps: list[tuple[int, int, tuple[int, ...]] | None] = []
    for move in line:
        src, dst, n = replay._parse(move)
        column = 0 <= src < FOUNDATION and 0 <= dst < FOUNDATION
        steps.append((src, dst, tuple(replay.columns[src][-n:])) if column else None)
        replay.apply(move)
    found = []
    for i, step in enumerate(steps):
        if step is None:
            continue
        src, dst, moved = step
        for j in range(i + 1, len(steps)):
            if steps[j] == (dst, src, moved) and wins(game, [*line[:i], *line[i + 1 : j], *line[j + 1 :]]):
                found.append((i, j))
                if len(found) == limit:
                    return found
    return found

"""The registry of solitaire games (``GAMES``) and the factory ``new_game``.

Rules source: ``docs/rules/solitaire.md``. The Forty Thieves family is one table, ``FAMILY``, a row per
game over the shared ``ColumnRules``; Baker's Dozen is another ``ColumnRules`` and Pyramid its own game. Each
game's named options follow the rules text: the seed's rule is the default, the common rule an option.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import card_text
from engine.solitaire.base import Game
from engine.solitaire.columns import ColumnGame, ColumnRules
from engine.solitaire.errors import RecordError
from engine.solitaire.pyramid import PyramidGame
from engine.solitaire.rules import VALUE, Build, Empty

OptionValue = bool | int | str

#: The largest seed a record or a command may give: seeds are 0..2**53, the integers every JSON and msgpack
#: reader keeps exact (the server's protocol takes the same range, ``docs/protocol.md``), so a deal played
#: anywhere can be opened in a server room too. (``random.Random`` ignores a seed's sign: -1 would deal as 1.)
MAX_SEED = 2**53


@dataclass(frozen=True)
class Option:
    """A named switch of a game.

    Attributes:
        name: the key in a record's ``options``, e.g. ``"draw"``.
        choices: the allowed values, the first being the default (the seed's rule).
        help: what the switch does, one line.
    """

    name: str
    choices: tuple[OptionValue, ...]
    help: str

    @property
    def default(self) -> OptionValue:
        """The value used when the option is absent."""
        return self.choices[0]


@dataclass(frozen=True)
class GameInfo:
    """One game of the registry.

    Attributes:
        name: the registry and record name, e.g. ``"little-forty"``.
        title: the display name, e.g. ``"Little Forty"``.
        options: the game's named switches.
        rules: the rules card shown by the client, plain text, a few lines.
        columns: the game's ``ColumnRules`` (``None`` for Pyramid).
    """

    name: str
    title: str
    options: tuple[Option, ...]
    rules: str
    columns: ColumnRules | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """A JSON/msgpack-safe description for clients:
        ``{"name", "title", "rules", "options": [{"name", "choices", "default", "help"}]}``."""
        return {
            "name": self.name,
            "title": self.title,
            "rules": self.rules,
            "options": [
                {"name": o.name, "choices": list(o.choices), "default": o.default, "help": o.help}
                for o in self.options
            ],
        }


@dataclass(frozen=True)
class FamilyRow:
    """One row of the Forty Thieves family table (``docs/rules/solitaire.md``)."""

    name: str
    title: str
    columns: int
    rows: int
    face_down: int
    build: Build
    runs: bool
    turn: int = 1
    redeals: int = 0
    aces_out: bool = False


FAMILY: tuple[FamilyRow, ...] = (
    FamilyRow("forty-thieves", "Forty Thieves", 10, 4, 0, Build.SAME_SUIT, False),
    FamilyRow("indian", "Indian", 10, 3, 1, Build.OTHER_SUIT, False),
    FamilyRow("limited", "Limited", 12, 3, 0, Build.SAME_SUIT, False),
    FamilyRow("little-forty", "Little Forty", 10, 4, 0, Build.OTHER_SUIT, True, turn=3, redeals=3),
    FamilyRow("lucas", "Lucas", 13, 3, 0, Build.SAME_SUIT, False, aces_out=True),
    FamilyRow("maria", "Maria", 9, 4, 0, Build.ALTERNATE_COLOUR, False),
    FamilyRow("number-ten", "Number Ten", 10, 4, 2, Build.ALTERNATE_COLOUR, True),
    FamilyRow("rank-and-file", "Rank and File", 10, 4, 3, Build.ALTERNATE_COLOUR, True),
    FamilyRow("streets", "Streets", 10, 4, 0, Build.ALTERNATE_COLOUR, False),
)

_FOUNDATION_BACK = Option(
    "foundation-back", (False, True), "the top card of a foundation may go back to a column (PySolFC)"
)
_SUPERMOVE = Option(
    "supermove", (False, True), "several cards move at once when empty columns allow it (Aisleriot)"
)


def _family_rules(row: FamilyRow) -> ColumnRules:
    return ColumnRules(
        columns=row.columns,
        rows=row.rows,
        face_down=row.face_down,
        build=row.build,
        runs=row.runs,
        empty=Empty.ANY,
        turn=row.turn,
        redeals=row.redeals,
        decks=2,
        aces_out=row.aces_out,
    )


def _family_card(row: FamilyRow) -> str:
    rules = _family_rules(row)
    dealt = rules.columns * rules.rows
    down = f", the bottom {row.face_down} face down" if row.face_down else ", all face up"
    lines = [
        f"{row.title}: two decks (104 cards). Build 8 foundations up in suit from Ace to King.",
        f"Deal {rules.columns} columns of {rules.rows}{down}; {rules.deck_size - dealt} cards form the stock.",
    ]
    if row.aces_out:
        lines.append("The 8 aces start the foundations before the deal.")
    lines.append(
        f"Build columns {row.build.words}. "
        + ("Built runs move, partly or whole." if row.runs else "One card moves at a time.")
    )
    lines.append("An empty column takes any card" + (" or built run." if row.runs else "."))
    if row.turn == 3:
        lines.append(f"Turn the stock 3 cards at a time onto the waste; {row.redeals} redeals.")
    else:
        lines.append("Turn the stock one card at a time; its top card may play directly. No redeal.")
    lines.append("The top of the waste plays to a foundation or a column.")
    return "\n".join(lines)


def _family_info(row: FamilyRow) -> GameInfo:
    options = [_FOUNDATION_BACK]
    if not row.runs:
        options.append(_SUPERMOVE)
    if row.name == "little-forty":
        options.insert(
            0, Option("build", ("other-suit", "any-suit"), "any-suit: build down regardless of suit")
        )
    return GameInfo(row.name, row.title, tuple(options), _family_card(row), _family_rules(row))


_BAKERS = ColumnRules(
    columns=13,
    rows=4,
    build=Build.OTHER_SUIT,
    empty=Empty.NONE,
    turn=0,
    decks=1,
    kings_bottom=True,
)

_BAKERS_CARD = """Baker's Dozen: one deck. Build 4 foundations up in suit from Ace to King.
Deal 13 columns of 4, all face up; every King goes to the bottom of its column (Q 5 K 3 becomes K Q 5 3).
Move the top card of a column, one at a time, to a foundation or onto a column.
Build columns down on a card of a different suit (9♥ on 10♦, 10♣ or 10♠, not 10♥).
A card on a foundation stays there. An emptied column stays empty.
Option kings=stay (Portuguese Solitaire): Kings are not moved; an empty column takes a King only.
Option build=any-suit: build down regardless of suit."""

#: The places named as the clients show them: rows counted from the top (``K♠ (row 4)``), the waste, or
#: with draw=3 the wastes labelled w1 w2 w3, the stock; "covered" and "lies on" as a covered card is refused.
_PYRAMID_CARD = """Pyramid: one deck. Clear the pyramid of 28 cards, row 1 (the top) to row 7 (the bottom).
A card is covered while a card of the row below lies on it; uncovered cards and the waste's top are available.
Remove two available cards totalling 13 (A=1, J=11, Q=12): Q+A, J+2, 10+3, 9+4, 8+5, 7+6. A King goes alone.
Turn the stock one card at a time onto the waste; no redeal. Won when the pyramid is cleared.
Option draw=3: turn three at a time, one onto each waste w1 w2 w3; each top is available.
Option stock-top: the stock's top card is available too. Option redeals=2: the waste turns over into the stock twice."""

GAMES: dict[str, GameInfo] = {row.name: _family_info(row) for row in FAMILY}
"""Every game by name: the Forty Thieves family, ``pyramid``, ``bakers-dozen``."""
GAMES["pyramid"] = GameInfo(
    "pyramid",
    "Pyramid",
    (
        Option("draw", (1, 3), "3: turn three cards at a time, one onto each waste w1 w2 w3 (seed)"),
        Option("stock-top", (False, True), "the top card of the stock is available too (PySolFC)"),
        Option("redeals", (0, 2), "2: the waste may be turned back into the stock twice (Par Pyramid)"),
    ),
    _PYRAMID_CARD,
)
GAMES["bakers-dozen"] = GameInfo(
    "bakers-dozen",
    "Baker's Dozen",
    (
        Option("kings", ("bottom", "stay"), "stay: kings are not moved; an empty column takes a King only"),
        Option("build", ("other-suit", "any-suit"), "any-suit: build down regardless of suit"),
    ),
    _BAKERS_CARD,
    _BAKERS,
)


def game_info(game: str) -> GameInfo:
    """The registry entry of ``game``.

    Raises:
        RecordError: field ``game``, when no such game exists.
    """
    info = GAMES.get(game) if isinstance(game, str) else None
    if info is None:
        raise RecordError("game", f"unknown game {game!r} (games: {' '.join(GAMES)})")
    return info


def resolve_options(info: GameInfo, options: dict[str, Any] | None) -> dict[str, OptionValue]:
    """``options`` checked against the game's switches, every default filled in.

    Raises:
        RecordError: field ``options`` (not an object) or ``options.NAME`` (unknown switch, bad value).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError("options", "must be an object of named switches")
    known = {o.name: o for o in info.options}
    out: dict[str, OptionValue] = {}
    for key, value in options.items():
        option = known.get(key)
        if option is None:
            names = " ".join(known) or "none"
            raise RecordError(f"options.{key}", f"{info.name} has no such option (options: {names})")
        if not any(type(value) is type(c) and value == c for c in option.choices):
            choices = ", ".join(repr(c) for c in option.choices)
            raise RecordError(f"options.{key}", f"{value!r} is not one of {choices}")
        out[key] = value
    for option in info.options:
        out.setdefault(option.name, option.default)
    return out


def _column_rules(info: GameInfo, options: dict[str, OptionValue]) -> ColumnRules:
    assert info.columns is not None
    rules = info.columns
    if options.get("build") == "any-suit":
        rules = replace(rules, build=Build.ANY_SUIT)
    if options.get("kings") == "stay":
        rules = replace(rules, kings_bottom=False, empty=Empty.KING)
    return replace(
        rules,
        foundation_back=bool(options.get("foundation-back", False)),
        supermove=bool(options.get("supermove", False)),
    )


def full_deck(game: str) -> list[int]:
    """The game's cards in a fixed order (one or two decks; no aces for Lucas), before any shuffle.

    Raises:
        RecordError: field ``game``, when no such game exists.
    """
    info = game_info(game)
    rules = info.columns
    if rules is None or rules.decks == 1:
        return list(range(52))
    cards = [c for c in range(52) if not (rules.aces_out and VALUE[c] == 1)]
    return cards + cards


def seeded_deck(game: str, seed: int) -> list[int]:
    """The game's cards shuffled by ``random.Random(seed)`` (the same on every machine), in dealing order.

    Raises:
        RecordError: field ``game``, when no such game exists.
    """
    deck = full_deck(game)
    random.Random(seed).shuffle(deck)
    return deck


def check_deck(game: str, deck: list[int]) -> None:
    """Check that ``deck`` holds exactly the game's cards (any order).

    Raises:
        RecordError: field ``deck``, naming the wrong size or the card missing or extra.
    """
    expected = full_deck(game)
    if len(deck) != len(expected):
        raise RecordError("deck", f"{game} deals {len(expected)} cards, not {len(deck)}")
    counts = [0] * 52
    for c in expected:
        counts[c] += 1
    for c in deck:
        counts[c] -= 1
    copies = "once" if len(expected) == 52 else "twice"
    for c, n in enumerate(counts):
        if n:
            what = "missing" if n > 0 else "one too many"
            raise RecordError("deck", f"{card_text(c)} {what} (each card {copies}, in {game})")


def new_game(
    game: str,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    deck: list[int] | None = None,
) -> Game:
    """A new game of ``game`` dealt from ``deck`` (cards 0..51 in dealing order) or shuffled from ``seed``.

    Args:
        game: a name of ``GAMES``.
        options: named switches (``GAMES[game].options``); absent ones take the default (the seed's rule).
        seed: any int; the deck is ``seeded_deck(game, seed)``. Ignored when ``deck`` is given.
        deck: an explicit dealing order (``docs/formats.md``, ``solitaire/1``).

    Raises:
        RecordError: unknown game (field ``game``), bad option (``options.NAME``), bad deck (``deck``), or
            neither seed nor deck given (``seed``).
    """
    info = game_info(game)
    opts = resolve_options(info, options)
    if deck is None:
        if seed is None or isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError("seed", "give an integer seed or an explicit deck")
        cards = seeded_deck(game, seed)
    else:
        cards = list(deck)
        check_deck(game, cards)
        seed = None
    if info.columns is None:
        return PyramidGame(game, opts, cards, seed)
    return ColumnGame(game, info.title, _column_rules(info, opts), opts, cards, seed)

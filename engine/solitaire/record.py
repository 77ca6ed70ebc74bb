"""Reading ``solitaire/1`` records (``docs/formats.md``) back into games.

Writing is ``Game.to_record()``. Readers accept exactly the fields of the format and reject anything else
with a ``RecordError`` naming the field; a move the rules forbid raises ``IllegalMove`` with its index.
"""

from __future__ import annotations

from typing import Any

from engine.cards import NotationError, parse_card
from engine.jsontext import JsonTextError, loads
from engine.solitaire.base import Game
from engine.solitaire.catalogue import MAX_SEED, new_game
from engine.solitaire.errors import IllegalMove, RecordError

FORMAT = "solitaire/1"
_FIELDS = frozenset({"format", "game", "options", "deck", "seed", "moves"})


def parse_record(text: str) -> dict[str, Any]:
    """The JSON object in ``text`` (not yet checked against the format).

    Raises:
        RecordError: field ``record``, when the text is not JSON or not an object.
    """
    try:
        obj = loads(text)
    except JsonTextError as exc:
        raise RecordError("record", str(exc)) from None
    if not isinstance(obj, dict):
        raise RecordError("record", "must be a JSON object")
    return obj


def from_record(record: dict[str, Any]) -> Game:
    """The game a ``solitaire/1`` record describes, with all its moves made.

    Raises:
        RecordError: a missing, unknown or malformed field (``format``, ``game``, ``options.NAME``,
            ``deck``, ``deck[i]``, ``seed`` (an integer from 0 to ``MAX_SEED``, 2**53), ``moves``, ``moves[i]``).
        IllegalMove: a move breaks a rule; its ``index`` is the 0-based position in ``moves``.
    """
    if not isinstance(record, dict):
        raise RecordError("record", "must be an object")
    for key in record:
        if key not in _FIELDS:
            raise RecordError(str(key), "unknown field")
    if record.get("format") != FORMAT:
        raise RecordError("format", f"must be {FORMAT!r}, not {record.get('format')!r}")
    if "game" not in record:
        raise RecordError("game", "missing")
    has_deck, has_seed = "deck" in record, "seed" in record
    if has_deck == has_seed:
        raise RecordError("deck", "give exactly one of deck and seed")
    deck: list[int] | None = None
    seed: int | None = None
    if has_deck:
        raw = record["deck"]
        if not isinstance(raw, list):
            raise RecordError("deck", "must be a list of cards")
        deck = []
        for i, text in enumerate(raw):
            try:
                deck.append(parse_card(text))
            except NotationError as exc:
                raise RecordError(f"deck[{i}]", str(exc)) from None
    else:
        seed = record["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise RecordError("seed", "must be an integer from 0 to 2**53")
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("moves", "must be a list of moves")
    for i, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(f"moves[{i}]", "a move is a string such as 't3>t5'")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options", "must be a map of option names to values")
    game = new_game(record["game"], options, seed=seed, deck=deck)
    for i, move in enumerate(moves):
        try:
            game.apply(move)
        except IllegalMove as exc:
            raise IllegalMove(exc.move, exc.rule, index=i, code=exc.code) from None
    return game

"""Solitaire games, sans I/O: the Forty Thieves family, Pyramid and Baker's Dozen.

Rules: ``docs/rules/solitaire.md``; record and notation: ``docs/formats.md`` (``solitaire/1``).

Use ``new_game(game, options, seed, deck)`` for a game object (``Game``), ``GAMES`` for what can be played,
``from_record`` to read a record back, ``solve`` to search for a win and ``render_state`` to draw a state.
"""

from engine.solitaire.base import Game
from engine.solitaire.catalogue import GAMES, MAX_SEED, GameInfo, Option, new_game
from engine.solitaire.errors import IllegalMove, RecordError
from engine.solitaire.record import from_record, parse_record
from engine.solitaire.render import render_state
from engine.solitaire.solver import Outcome, Solution, solve

__all__ = [
    "GAMES",
    "MAX_SEED",
    "Game",
    "GameInfo",
    "IllegalMove",
    "Option",
    "Outcome",
    "RecordError",
    "Solution",
    "from_record",
    "new_game",
    "parse_record",
    "render_state",
    "solve",
]

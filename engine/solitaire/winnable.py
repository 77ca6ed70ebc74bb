"""Deals the solver proved winnable: the seed lists the server deals "winnable" games from.

The lists live in ``engine.solitaire.winnable_seeds`` (``SEEDS``), written by ``scripts/winnable_seeds.py``
from ``benchmarks.winnability`` runs: every seed there is one ``solve`` answered ``solvable`` for, with a
solution that replays to a win. A list is named by the game and the options set away from their defaults,
e.g. ``"pyramid"`` or ``"pyramid draw=3"`` (``list_key``).
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from engine.solitaire.base import Game
from engine.solitaire.catalogue import new_game
from engine.solitaire.winnable_seeds import SEEDS


def list_key(game: Game) -> str:
    """The name of ``game``'s seed list: its name, then ``K=V`` for each option away from its default."""
    options = game.to_record()["options"]
    return " ".join([game.name] + [f"{k}={json.dumps(v)}" for k, v in sorted(options.items())]).replace(
        '"', ""
    )


@cache
def _seeds(key: str) -> tuple[int, ...]:
    return tuple(int(seed) for seed in SEEDS.get(key, "").split())


@cache
def _listed(key: str) -> frozenset[int]:
    return frozenset(_seeds(key))


def winnable_seeds(game: str, options: dict[str, Any] | None = None) -> tuple[int, ...]:
    """The seeds of ``game`` with ``options`` proved winnable (empty when there is no list for them).

    Raises:
        RecordError: an unknown game or a bad option (as ``new_game``).
    """
    return _seeds(list_key(new_game(game, options, seed=0)))


def is_winnable(game: Game) -> bool:
    """True when ``game`` was dealt from a seed proved winnable (the position now may be lost)."""
    return game.seed is not None and game.seed in _listed(list_key(game))


def pick_winnable(game: str, options: dict[str, Any] | None, rng: random.Random) -> int | None:
    """A seed of ``game`` with ``options`` proved winnable, chosen by ``rng``; None when there is no list.

    Raises:
        RecordError: an unknown game or a bad option (as ``new_game``).
    """
    seeds = winnable_seeds(game, options)
    return rng.choice(seeds) if seeds else None

"""Deals the solver proved winnable: the seed lists the server deals "winnable" games from.

The lists live in ``engine.solitaire.winnable_seeds`` (``SEEDS``), written by ``scripts/winnable_seeds.py``
from ``benchmarks.winnability`` runs: every seed there is one ``solve`` answered ``solvable`` for, with a
solution that replays to a win. A list is named by the game and the options set away from their defaults,
e.g. ``"pyramid"`` or ``"pyramid draw=3"`` (``list_key``). The lists shipped are those of ``option_sets``:
each game with its default options, and with each option changed alone; a server finds deals for other
option sets itself (``server.winnable_finder``).
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from engine.solitaire.base import Game
from engine.solitaire.catalogue import GAMES, new_game
from engine.solitaire.hints import WALL_SLACK, HintStatus, advise_within
from engine.solitaire.winnable_seeds import SEEDS


def list_key(game: Game) -> str:
    """The name of ``game``'s seed list: its name, then ``K=V`` for each option away from its default."""
    options = game.to_record()["options"]
    return " ".join([game.name] + [f"{k}={json.dumps(v)}" for k, v in sorted(options.items())]).replace(
        '"', ""
    )


def option_sets() -> list[tuple[str, dict[str, Any]]]:
    """The option sets ``scripts/winnable_seeds.py`` writes a list for, as ``(game, options)``: every game
    with its default options (``{}``), then, game by game, each option set alone to each of its other values
    (``("pyramid", {"draw": 3})``, ``("pyramid", {"stock-top": True})``, ...), in the registry's order."""
    sets: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in GAMES]
    for name, info in GAMES.items():
        sets += [(name, {o.name: value}) for o in info.options for value in o.choices[1:]]
    return sets


#: The hint budget divided by this is the CPU time a listed deal's first hint is proved in: a hint within
#: the server's budget (``ServerConfig.hint_budget``) finds the win with room to spare on a busy machine.
MARGIN = 2.0


def proves_winnable(
    game: str, options: dict[str, Any], seed: int, *, budget: float, wall: bool = True
) -> bool:
    """True when the first hint of deal ``seed`` of ``game`` with ``options`` is ``sure`` (a winning line
    that replays to a win, ``engine.solitaire.hints``) within ``budget`` seconds of CPU time
    (``advise_within``; ``wall``: stopped anyway a little past ``budget`` of wall time, as in a server
    worker, ``server.workers``, which calls it with ``budget``). The test every seed of a list passed, with
    ``budget`` the hint budget over ``MARGIN``.

    Raises:
        RecordError: an unknown game or a bad option (as ``new_game``).
    """
    deal = new_game(game, options, seed=seed)
    return advise_within(deal, budget, slack=None if not wall else WALL_SLACK).status is HintStatus.SURE


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

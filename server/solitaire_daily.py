"""The day's deal of each solitaire game and its results table (``docs/protocol.md`` "The day's deals").

The day's deal of ``game`` is the seed ``daily_seed(game, day)``: the first six bytes of
``sha256("barbu-daily/1:<day>:<game>")`` as an integer (below 2^48, so it fits the wire's 2^53), where
``day`` is the UTC date ``YYYY-MM-DD``. Everyone playing a game with its default options on that seed that
day plays the same deal; their finished games make the day's results table (store table ``results``).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from engine.solitaire import GAMES
from server.store import Store

#: Most rows of one game's results table sent in the lobby.
RESULTS_SHOWN = 20


def today() -> str:
    """Today's UTC date as ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.gmtime())


def daily_seed(game: str, day: str) -> int:
    """The seed of ``game``'s deal on ``day`` (``YYYY-MM-DD``, UTC): an int in 0 .. 2^48-1."""
    digest = hashlib.sha256(f"barbu-daily/1:{day}:{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def daily_table(store: Store, day: str | None = None) -> list[dict[str, Any]]:
    """The lobby's ``daily`` list: for every game of ``GAMES``, ``{"game", "title", "day", "seed",
    "results"}`` where ``results`` are the day's finished games on that deal, best first (won, then more
    cards home, then fewer moves; ``{"player", "room", "won", "score", "moves"}``, at most
    ``RESULTS_SHOWN``)."""
    day = day or today()
    return [
        {
            "game": name,
            "title": info.title,
            "day": day,
            "seed": daily_seed(name, day),
            "results": store.results(day, name)[:RESULTS_SHOWN],
        }
        for name, info in GAMES.items()
    ]

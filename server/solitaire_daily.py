"""The day's deal of each solitaire game and its results table (``docs/protocol.md`` "The day's deals").

The day's deal of ``game`` is the seed ``daily_seed(secret, game, day)``: a deal the solver proved winnable,
picked from the game's list (``engine.solitaire.winnable``) by the first six bytes of
``HMAC-SHA256(secret, "barbu-daily/2:<day>:<game>")`` as an integer, where ``day`` is the UTC date
``YYYY-MM-DD`` and ``secret`` the server's own random secret (``daily_secret``, kept in the store's ``meta``
table). Only the server can work out which listed deal it is, and it never sends the seed of a current day's
deal. (The lists ship with the package: someone who solved every listed deal beforehand could recognise the
layout; the price of a day's deal that is always winnable.) Everyone playing a game with its default options
on that deal that day plays the same cards; the first game each player finishes on it makes their row of
the day's results table (store table ``results``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any

from engine.solitaire import GAMES
from engine.solitaire.winnable import winnable_seeds
from server.store import Store

#: Most rows of one game's results table sent in the lobby.
RESULTS_SHOWN = 20
#: The ``meta`` key of the secret the day's deals are derived from.
SECRET_KEY = "daily-secret"


def today() -> str:
    """Today's UTC date as ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.gmtime())


def daily_secret(store: Store) -> bytes:
    """The server's secret for the day's deals: 32 random bytes made the first time and kept in ``store``."""
    return bytes.fromhex(store.meta_once(SECRET_KEY, secrets.token_hex(32)))


def daily_seed(secret: bytes, game: str, day: str) -> int:
    """The seed of ``game``'s deal on ``day`` (``YYYY-MM-DD``, UTC) under ``secret``: always a deal the solver
    proved winnable, the one at index ``number % len(list)`` of the game's list
    (``engine.solitaire.winnable``), where ``number`` is the HMAC's first six bytes (below 2^48; the seed
    itself when a game has no list)."""
    digest = hmac.new(secret, f"barbu-daily/2:{day}:{game}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:6], "big")
    seeds = winnable_seeds(game)
    return seeds[number % len(seeds)] if seeds else number


def daily_table(store: Store, day: str | None = None) -> list[dict[str, Any]]:
    """The lobby's ``daily`` list: for every game of ``GAMES``, ``{"game", "title", "day", "seed",
    "results"}`` where ``seed`` is None (the day's seed is never sent while that day is current) and
    ``results`` are the day's finished games on that deal, one per player, best first (won, then more cards
    home, then fewer moves; ``{"player", "room", "won", "score", "moves"}``, ``room`` the room id as a string
    as everywhere in the protocol, at most ``RESULTS_SHOWN``)."""
    day = day or today()
    return [
        {
            "game": name,
            "title": info.title,
            "day": day,
            "seed": None,
            "results": [
                {**row, "room": str(row["room"])} for row in store.results(day, name)[:RESULTS_SHOWN]
            ],
        }
        for name, info in GAMES.items()
    ]

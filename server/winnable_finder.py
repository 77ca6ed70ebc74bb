"""Winnable deals for option sets no shipped list covers, found by the server in the background.

The package ships lists of seeds the solver proved winnable for every game with its default options and with
each option changed alone (``engine.solitaire.winnable``). A ``winnable`` deal asked for another option set
(``pyramid`` with ``draw=3`` and ``stock-top``, say) starts a search here: random seeds are tried one at a
time in the server's worker pool (``server.workers``, owner ``FINDER``; never in the event loop), each by the
test the shipped lists passed (``proves_winnable``: the deal's first hint is ``sure`` within half the hint
budget of CPU time), and each seed proved is kept in the store (``Store.add_winnable``), so it is dealt from
once found and after a restart too. The search takes a worker only while no player's job is running or
waiting (players' hints and bots come first), and stops once ``FOUND_PER_LIST`` seeds are kept or after
``MAX_TRIES`` deals tried. Until a seed is found the request is refused (``no-winnable-deals``) with words
saying the search is on and what to do meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from engine.solitaire import GAMES, Game, new_game
from engine.solitaire.winnable import MARGIN, is_winnable, list_key, pick_winnable, proves_winnable
from protocol import ProtocolError
from server.config import ServerConfig
from server.store import Store, StoreUnavailable
from server.workers import WorkerBusy, WorkerClosed, WorkerError, WorkerPool

log = logging.getLogger(__name__)

#: The worker pool's owner of the search's jobs (one job at a time, whatever the option sets searched).
FINDER = "server:winnable"
#: Seeds kept per option set before its search stops.
FOUND_PER_LIST = 12
#: Deals tried per option set (per run of the server) before its search gives up.
MAX_TRIES = 400
#: Seconds between two looks at a pool busy with players' jobs.
IDLE_WAIT = 0.2
#: Seeds tried are drawn from 1..2**48, as the server's random deals.
SEED_BITS = 48


def known_winnable(store: Store, game: Game) -> bool:
    """True when ``game`` was dealt from a seed proved winnable: on a shipped list, or found by this server
    (kept in ``store``)."""
    if is_winnable(game):
        return True
    return game.seed is not None and game.seed in store.winnable(list_key(game))


class WinnableFinder:
    """Picks winnable seeds, from the shipped lists or the store, and searches for more where none are
    shipped.

    Args:
        store: where found seeds are kept (table ``winnable``).
        workers: the server's pool; the search's jobs are ``proves_winnable`` of one seed each.
        config: its ``hint_budget`` over ``MARGIN`` is the CPU time each deal's proof may take.
        rng: where the seeds tried come from (None: the operating system's randomness).
    """

    def __init__(
        self, store: Store, workers: WorkerPool, config: ServerConfig, rng: random.Random | None = None
    ):
        self.store = store
        self.workers = workers
        self.budget = config.hint_budget / MARGIN
        self.rng = random.SystemRandom() if rng is None else rng
        self._searches: dict[str, asyncio.Task[None]] = {}
        self._tried: dict[str, int] = {}

    def pick(self, game: str, options: dict[str, Any]) -> int:
        """A seed of ``game`` with ``options`` proved winnable: from the shipped list, else from those this
        server found; when fewer than ``FOUND_PER_LIST`` are found, the search for more starts (or goes on).

        Raises:
            RecordError: an unknown game or a bad option (as ``new_game``).
            ProtocolError: ``no-winnable-deals`` (field ``options``): none found yet (the message says the
                server is looking and what to do meanwhile), or none found in ``MAX_TRIES`` deals.
        """
        shipped = pick_winnable(game, options, self.rng)
        if shipped is not None:
            return shipped
        key = list_key(new_game(game, options, seed=0))
        found = self.store.winnable(key)
        if len(found) < FOUND_PER_LIST:
            self._search(key, game, options)
        if found:
            return self.rng.choice(found)
        title = GAMES[game].title
        if self.searching(key):
            why = (
                f"no deal of {title} with these options is known winnable yet: the server is looking for "
                "some now; ask again in a minute, or ask without winnable"
            )
        else:
            why = (
                f"the server tried {self.tried(key)} deals of {title} with these options and proved "
                "none winnable; ask without winnable"
            )
        raise ProtocolError("no-winnable-deals", why, field="options")

    def searching(self, key: str) -> bool:
        """Whether the search for list ``key`` (``list_key``) is going on."""
        task = self._searches.get(key)
        return task is not None and not task.done()

    def tried(self, key: str) -> int:
        """How many deals the search for list ``key`` has tried since the server started."""
        return self._tried.get(key, 0)

    def stop(self) -> None:
        """Cancel every search (server shutdown); the seeds found stay in the store."""
        for task in self._searches.values():
            task.cancel()
        self._searches.clear()

    def _search(self, key: str, game: str, options: dict[str, Any]) -> None:
        """Start the search for list ``key`` unless it is going on or has used up its ``MAX_TRIES``."""
        if self.searching(key) or self._tried.get(key, 0) >= MAX_TRIES:
            return
        self._searches[key] = asyncio.get_running_loop().create_task(self._find(key, game, options))

    async def _find(self, key: str, game: str, options: dict[str, Any]) -> None:
        """Try random deals until ``FOUND_PER_LIST`` are kept for ``key`` or ``MAX_TRIES`` are tried; a job
        that fails (its worker died or overran) counts as a deal tried, a seed the store cannot keep is
        lost (the next one found may be kept)."""
        while len(self.store.winnable(key)) < FOUND_PER_LIST and self._tried.get(key, 0) < MAX_TRIES:
            while self.workers.running or self.workers.queued:
                await asyncio.sleep(IDLE_WAIT)  # players' jobs first: the search takes only an idle pool
            # No await between that look and ``run`` queueing the job: searches of several option sets see
            # each other's job and take turns, one deal in the pool at a time.
            seed = self.rng.randrange(1, 2**SEED_BITS)
            try:
                proved = await self.workers.run(
                    FINDER, proves_winnable, game, options, seed, budget=self.budget
                )
            except WorkerBusy:
                await asyncio.sleep(IDLE_WAIT)
                continue
            except WorkerClosed:
                return
            except WorkerError as exc:
                log.warning("winnable deals of %s: seed %d failed (%s)", key, seed, exc)
                proved = False
            self._tried[key] = self._tried.get(key, 0) + 1
            if proved:
                try:
                    self.store.add_winnable(key, seed)
                except StoreUnavailable as exc:
                    log.warning("winnable deals of %s: seed %d not kept (%s)", key, seed, exc)
                    continue
                log.info("winnable deals of %s: found seed %d (%d tried)", key, seed, self._tried[key])

"""Standings across the server's finished Barbu matches: for each player, matches played, firsts, average
place and a rating (``standings`` request, ``barbu standings``; ``docs/protocol.md`` "standings").

Only finished matches count (rooms of kind ``barbu`` whose status is ``over`` with a record). A match's
places come from its ``totals``, highest first; seats with equal totals share the better place (totals
10, 10, -5, -5 are places 1, 1, 3, 3), and a shared first place is a first for each of them.

Bots are not listed: a seat owned by ``bot:<policy>`` (or by nobody) still takes its place in the match, so
a player behind three bots is fourth, but it is no player of the standings. For the rating each such seat
is a fresh opponent at the model's starting rating, every match: a bot's strength is its policy and the
server's settings, not a person's form carried from evening to evening.

The rating is openskill's full-pairing Bradley-Terry model (``BradleyTerryFull``) for a four-way
free-for-all with ties (each seat a team of one, ranked by place: every pair of seats compared, a tie a
draw), replayed over the matches in the order they finished (the time their record was
stored, then the room id): the same store always gives the same table. It is shown as the ordinal
``mu - 3 sigma`` (0 before a first match), rounded to one decimal.

Not openskill's default Plackett-Luce model: in openskill 6.2 it mishandles ties (after tied winners the
third place gains as much as they do, and ends rated above them: openskill.py issues 155 and 201; the fix,
pull request 176, is not released). The Bradley-Terry model, the same as Plackett-Luce for two seats,
rates tied winners above the seats behind them (``tests/test_standings.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from engine.cards import SEATS
from protocol import Standings, prepacked
from server.barbu_table import BOT_PREFIX, BarbuTable
from server.store import Store


@dataclass(frozen=True)
class MatchResult:
    """One finished match: ``players`` (seat letter -> owner: a player name or ``bot:<policy>``; a seat
    missing had no owner) and ``totals`` (seat letter -> points, all four seats)."""

    players: dict[str, str]
    totals: dict[str, int]


@dataclass(frozen=True)
class Standing:
    """One player's line: ``matches`` finished, ``firsts`` (places 1, shared ones included),
    ``average_place`` (1.0 to 4.0, a shared place counted as that place) and ``rating`` (the ordinal
    ``mu - 3 sigma`` of openskill's full-pairing Bradley-Terry model, rounded to one decimal)."""

    name: str
    matches: int
    firsts: int
    average_place: float
    rating: float

    def to_wire(self) -> dict[str, Any]:
        """The ``standings`` reply's entry: ``name``, ``matches``, ``firsts``, ``average_place`` (two
        decimals), ``rating``."""
        return {
            "name": self.name,
            "matches": self.matches,
            "firsts": self.firsts,
            "average_place": round(self.average_place, 2),
            "rating": self.rating,
        }


def places(totals: dict[str, int]) -> dict[str, int]:
    """Seat letter -> place (1 to 4) by ``totals``, highest first; equal totals share the better place.

    Raises:
        KeyError: a seat of ``N E S W`` has no total.
    """
    return {seat: 1 + sum(totals[other] > totals[seat] for other in SEATS) for seat in SEATS}


def is_player(owner: str | None) -> bool:
    """Whether a seat's ``owner`` is a person the standings list (not a bot, not an empty seat)."""
    return owner is not None and not owner.startswith(BOT_PREFIX)


class Ratings:
    """The standings built up match by match, in the order the matches finished (``add``); ``table`` reads
    them out. One instance per replay: ``add`` the same results in the same order and the table is the
    same."""

    def __init__(self) -> None:
        self.model = BradleyTerryFull()
        self._ratings: dict[str, BradleyTerryFullRating] = {}
        self._matches: dict[str, int] = {}
        self._firsts: dict[str, int] = {}
        self._place_sum: dict[str, int] = {}

    def add(self, result: MatchResult) -> None:
        """Count finished match ``result``: each listed player's match, first and place, and one
        Bradley-Terry update over the four seats (a bot or empty seat a fresh opponent). A name at two
        seats of one match counts once, at its better place; its other seat is rated as an opponent.

        Raises:
            KeyError: ``result.totals`` lacks a seat.
        """
        by_seat = places(result.totals)
        counted: dict[str, str] = {}  # player -> the seat they are counted at
        for seat in sorted(SEATS, key=lambda s: (by_seat[s], SEATS.index(s))):
            owner = result.players.get(seat)
            if owner is not None and is_player(owner) and owner not in counted:
                counted[owner] = seat
        seat_of = {seat: name for name, seat in counted.items()}
        teams = [[self._rating(seat_of.get(s))] for s in SEATS]
        rated = self.model.rate(teams, ranks=[float(by_seat[s]) for s in SEATS])
        for index, seat in enumerate(SEATS):
            name = seat_of.get(seat)
            if name is None:
                continue
            self._ratings[name] = rated[index][0]
            self._matches[name] = self._matches.get(name, 0) + 1
            self._firsts[name] = self._firsts.get(name, 0) + (by_seat[seat] == 1)
            self._place_sum[name] = self._place_sum.get(name, 0) + by_seat[seat]

    def _rating(self, name: str | None) -> BradleyTerryFullRating:
        """``name``'s rating so far; a newcomer's, or a bot's or empty seat's, is the model's start."""
        found = None if name is None else self._ratings.get(name)
        return found if found is not None else self.model.rating()

    def table(self) -> list[Standing]:
        """Every player counted so far, best rating first (then more matches, then name)."""
        rows = [
            Standing(
                name=name,
                matches=count,
                firsts=self._firsts[name],
                average_place=self._place_sum[name] / count,
                rating=round(self._ratings[name].ordinal(), 1),
            )
            for name, count in self._matches.items()
        ]
        return sorted(rows, key=lambda r: (-r.rating, -r.matches, r.name))


def standings(results: Iterable[MatchResult]) -> list[Standing]:
    """The standings of finished matches ``results``, given in the order they finished (see the module
    docstring for places, bots and the rating).

    Raises:
        KeyError: a result's ``totals`` lacks a seat.
    """
    ratings = Ratings()
    for result in results:
        ratings.add(result)
    return ratings.table()


def stored_results(store: Store, after: int = 0) -> list[tuple[tuple[float, int], MatchResult]]:
    """The finished Barbu matches of ``store`` in the order they finished, each with its key ``(finished,
    room id)``, skipping the first ``after`` of them (already counted): one query, only each record's
    ``players`` and ``totals`` read. A record without four integer totals is left out."""
    found = []
    for key, players, totals in store.match_results(BarbuTable.kind, after):
        if isinstance(totals, dict) and all(isinstance(totals.get(s), int) for s in SEATS):
            names = {s: v for s, v in (players or {}).items() if isinstance(v, str)}
            found.append((key, MatchResult(players=names, totals={s: totals[s] for s in SEATS})))
    return found


def store_standings(store: Store) -> list[Standing]:
    """The standings of every finished Barbu match in ``store`` (``stored_results``, ``standings``)."""
    return standings(result for _, result in stored_results(store))


class StandingsKeeper:
    """The server's standings, kept between matches finishing: the encoded ``standings`` reply until a
    match may have finished (``changed``); then only the matches finished since are read and rated, on top
    of the kept ratings (a match stored out of order replays all of them)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._ratings = Ratings()
        self._keys: list[tuple[float, int]] = []
        self._reply: Callable[[int], bytes] | None = None

    def changed(self) -> None:
        """A match may have finished: the next ``reply`` reads the store again."""
        self._reply = None

    def reply(self) -> Callable[[int], bytes]:
        """The encoded ``standings`` reply (msgpack) as a function of the request id."""
        if self._reply is not None:
            return self._reply
        news = stored_results(self.store, len(self._keys))
        if news and self._keys and news[0][0] <= self._keys[-1]:  # finished before one already counted
            self._ratings, self._keys = Ratings(), []
            news = stored_results(self.store)
        for key, result in news:
            self._ratings.add(result)
            self._keys.append(key)
        players = [row.to_wire() for row in self._ratings.table()]
        self._reply = prepacked(Standings(id=0, players=players).to_wire(), "id")
        return self._reply

"""How many tables waiting for players (not started) each player and each IP address sits at, as running
counts, so that one person cannot hold a seat at every waiting table (``ServerConfig.max_waiting_seats``,
``max_waiting_seats_per_address``).

Each Barbu table reports who sits at it while it waits (``update``, after every change of its seats or its
state); the counts follow from the difference with what it reported before, so checking a new seat costs
the same however many tables the server holds. The players connected to their seat count, and those whose
connection dropped while the table holds their seat (the grace period, from the address they last played
from); a seat kept for a player who has not come (a ``rematch`` table) holds nobody's place, and a waiting
table loses its human players when the grace runs out or the server restarts. Taking a seat back is checked
too (``check_take_back``): a player who dropped at one address and comes back from another moves their seat
to the other address's count, which must have room for it, so one address never holds more than its cap.
"""

from __future__ import annotations

from collections import Counter

from protocol import ProtocolError

#: Who sits at a waiting table: (player name, IP address) of each human connected to a seat there, or
#: dropped from it within the grace period (the address they last played from).
Holders = frozenset[tuple[str, str]]


class WaitingSeats:
    """The seats humans hold at waiting tables, counted by player and by address.

    Args:
        per_player: tables waiting for players one player may sit at.
        per_address: seats at waiting tables the players of one IP address may hold together.
    """

    def __init__(self, per_player: int, per_address: int):
        self.per_player = per_player
        self.per_address = per_address
        self._players: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()
        self._tables: dict[str, Holders] = {}

    def check(self, player: str, address: str) -> None:
        """Refuse one more seat at a waiting table for ``player`` connected from ``address``.

        Raises:
            ProtocolError: ``too-many-seats`` (field ``room``).
        """
        if self._players[player] >= self.per_player:
            raise ProtocolError(
                "too-many-seats",
                f"you sit at {self._players[player]} tables waiting for players already (at most "
                f"{self.per_player}); leave one first",
                field="room",
            )
        self._check_address(address)

    def check_take_back(self, table: str, player: str, address: str) -> None:
        """Refuse ``player`` taking back, from ``address``, the seat they own at waiting table ``table``
        when that would put them or that address over its cap: a seat counted for the same address is
        never refused; one held for the address it was played from (the player dropped there and came back
        from here) moves to this address's count, so it needs room there; one counted for nobody (kept for
        the player by a ``rematch``) needs room as a new seat does.

        Raises:
            ProtocolError: ``too-many-seats`` (field ``room``).
        """
        holders = self._tables.get(table, frozenset())
        if (player, address) in holders:
            return
        if any(holder == player for holder, _ in holders):
            self._check_address(address)
        else:
            self.check(player, address)

    def _check_address(self, address: str) -> None:
        if self._addresses[address] >= self.per_address:
            raise ProtocolError(
                "too-many-seats",
                f"the players of your address sit at {self._addresses[address]} tables waiting for players "
                "already, as many as one address may; leave one first",
                field="room",
            )

    def update(self, table: str, holders: Holders) -> None:
        """Table ``table`` is now waiting with ``holders`` seated (empty: it started, or is gone)."""
        before = self._tables.get(table, frozenset())
        if holders == before:
            return
        for player, address in before - holders:
            self._forget(self._players, player)
            self._forget(self._addresses, address)
        for player, address in holders - before:
            self._players[player] += 1
            self._addresses[address] += 1
        if holders:
            self._tables[table] = holders
        else:
            self._tables.pop(table, None)

    def seats_of(self, player: str) -> int:
        """How many waiting tables ``player`` sits at."""
        return self._players[player]

    @staticmethod
    def _forget(counts: Counter[str], key: str) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]

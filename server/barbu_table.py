"""A Barbu table: four seats, one match (28 hands) through the engine, spectators, bots and stand-ins.

Rules come from ``engine.barbu`` (``docs/rules/barbu.md``); this module only routes. Each seat is played by
a controller: its human's connection, a server bot (owner ``bot:<policy spec>``), or a stand-in bot (the table's
``bot_policy``) while its human is away longer than the table's grace period (before the start, a dropped
human's seat is held as long, then freed). An action is checked by the engine (nothing changes), appended to
the store, and only then applied; then the reply and the events go out. When the store cannot write
(``StoreUnavailable``), the table is left exactly as it was: a player's request is refused
(``store-unavailable``) and a bot's, stand-in's or turn timer's move is tried again after a growing pause, so
play goes on by itself once the store writes again. A match none of whose humans is connected (to the server:
a player who left their seat to a stand-in but is still in the lobby counts) is paused: nothing plays by
itself until one of them comes back (a table of bots alone plays on). Events go out as follows: each seat
receives the events addressed to everyone or to it (``Event.to``), spectators the public ones; to a version 1
connection as ``event`` pushes, and the seat to move receives a ``turn`` message holding its own ``view``; to a
version 2 connection as one ``update`` per action holding them and what the action changed of the member's view
(``ViewCache``; the spectators' update encoded once). Nothing here builds a view: snapshots, turns and updates carry ``Match.view(seat)``.
Each event that tells a seat's action says who played it (``by``: ``player``, ``bot``, ``stand-in``,
``timer``; version 1 only the last two), and the last ``MISSED_UPDATES_MAX`` actions' events are kept
(``RecentActions``), rebuilt from the log on a restart (which logs ``by`` for a stand-in's or the timer's
action), for a version 2 member coming back with ``since``. Seat changes (sit, leave, a stand-in or a bot
taking over) are no actions: they are told by ``players`` pushes in both versions.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.barbu import (
    Action,
    Double,
    Event,
    IllegalAction,
    Match,
    Policy,
    PolicySpecError,
    Redouble,
    Variants,
    action_from_wire,
    action_to_wire,
    make_policy,
    parse_policy_spec,
)
from engine.cards import parse_seat, seat_text
from protocol import (
    Act,
    AddBot,
    Chat,
    ChatPush,
    EventPush,
    GetSnapshot,
    Message,
    Ok,
    Players,
    ProtocolError,
    RemoveBot,
    Removed,
    RemovePlayer,
    Snapshot,
    Turn,
    Update,
    encode_frame,
)
from server.bot_moves import (
    ANSWER_MARGIN,
    FALLBACK_POLICY,
    check_bot_time,
    runs_in_worker,
    search_action,
    worker_budget,
)
from server.config import ServerConfig
from server.peer import Peer
from server.ratelimit import Backoff, Throttle
from server.room import Room
from server.store import BadLog, ChatLine, RoomRow, Store, StoreUnavailable
from server.updates import RecentActions, ViewCache, visible
from server.waiting_seats import WaitingSeats

log = logging.getLogger(__name__)

#: The chat lines a table keeps and sends in its snapshots (a player joining or coming back reads them).
CHAT_HISTORY = 20

#: Seconds the seat to move has at least when a paused match goes on (``docs/protocol.md`` "A table nobody
#: is at waits"): the few it had left would run out before the player coming back saw the table.
RESUME_TURN_MIN = 15.0
#: What plays for a human whose turn timer ran out: quick, whatever the table's bot policy.
TIMER_POLICY = "heuristic"
#: The events that tell a seat's own action (they carry ``by`` when the turn timer or a stand-in played it).
ACTED = frozenset({"contract-chosen", "doubled", "redoubled", "card-played", "passed"})
BOT_PREFIX = "bot:"
#: What a player watching their own seat while a stand-in plays it has to act on: nothing.
NOTHING_TO_ACT: dict[str, Any] = {
    "legal": None,
    "double_targets": None,
    "must_double": None,
    "unplayable": None,
}
#: Seconds a change of spectators waits for others before the ``players`` push that tells it.
SPECTATOR_PUSH_DELAY = 0.25
#: Automatic moves and writes put off because the store cannot write are logged once a second at most.
_store_waits = Throttle(1.0)
#: Bot decisions the worker pool failed (a policy that always runs past its time) are logged once a second
#: at most: they come at every decision of every such table.
_bot_failures = Throttle(1.0)


def _store_wait(what: str, room: str, delay: float, exc: StoreUnavailable) -> None:
    held = _store_waits.ready()
    if held is not None:
        log.warning(
            "table %s: %s put off %.2f s (%d more since the last line): %s", room, what, delay, held, exc
        )


def timer_bet(legal: list[Action]) -> Action | None:
    """What the turn timer plays on a doubling or redoubling turn whose ``legal`` actions are given: the one
    with the fewest targets, none when the must-double rule (``docs/rules/barbu.md``) allows it, else the
    declarer alone; None on any other turn (a contract, a card: the timer's policy chooses). A player whose
    time ran out is not committed to a bet they did not make."""
    bets = [a for a in legal if isinstance(a, Double | Redouble)]
    if not bets:
        return None
    return min(bets, key=lambda a: (len(a.targets), sorted(a.targets)))


@dataclass
class Seat:
    """One seat: its ``owner`` (player name or ``bot:<policy>``, None when empty), the ``peer`` playing it
    while its human is connected, whether a ``standin`` bot plays it, and the pending grace timer."""

    owner: str | None = None
    peer: Peer | None = None
    #: The IP address (``Peer.address``) of the connection that last played the seat: a dropped human's
    #: seat held at a waiting table still counts against that address's cap (``WaitingSeats``).
    address: str | None = None
    standin: bool = False
    #: The human handed the seat to its stand-in (``leave``, or the idle hand-over) rather than dropped:
    #: only ``sit`` takes it back, not a ``resume`` or ``login`` (which a reload at another table sends).
    left: bool = False
    grace_timer: asyncio.TimerHandle | None = None
    #: When (``loop.time()``) the pending grace timer ends: a stand-in plays the seat (the match started),
    #: or the seat is freed (the table waits).
    grace_deadline: float | None = None
    #: Counts the grace periods started, so that a timer that fired for an earlier one (its player came
    #: back, then dropped again, before it ran) ends nothing.
    grace_round: int = 0

    @property
    def is_bot(self) -> bool:
        """Whether a server bot owns the seat."""
        return self.owner is not None and self.owner.startswith(BOT_PREFIX)

    @property
    def away(self) -> bool:
        """Whether the seat's human is disconnected or has handed the seat to a stand-in."""
        return self.owner is not None and not self.is_bot and self.peer is None

    @property
    def held(self) -> bool:
        """Whether the seat's human dropped and its grace period runs."""
        return self.peer is None and self.grace_deadline is not None

    def connect(self, peer: Peer) -> None:
        """``peer`` plays the seat from now on."""
        self.peer = peer
        self.address = peer.address

    def cancel_grace(self) -> None:
        """Forget the pending grace timer, if any."""
        if self.grace_timer is not None:
            self.grace_timer.cancel()
            self.grace_timer = None
        self.grace_deadline = None


class BarbuTable(Room):
    """A Barbu table (room kind ``barbu``); its store id is also its match id.

    Args:
        seed: the match seed (deals are derived from it by the engine).
        variants: the table's rule variants.
        first_declarer: seat 0..3 of the first declarer.
        turn_time: seconds a seat has to act before the table plays a legal action for it (None: no limit).
        grace: seconds a dropped human's seat is held before a stand-in bot plays it.
        bot_policy: the policy spec (canonical text) of the table's ``add-bot`` bots that name none and of
            its stand-ins.
        host: the player who opened the table (None: not known, a table stored before hosts were kept); only
            the host may add and remove its bots and ask for another match with the same players
            (``rematch``); with no host known, anyone may add and remove bots.
    """

    kind: ClassVar[str] = "barbu"

    def __init__(
        self,
        store_id: int,
        name: str,
        store: Store,
        config: ServerConfig,
        *,
        seed: int,
        variants: Variants,
        first_declarer: int,
        turn_time: float | None,
        grace: float,
        bot_policy: str,
        host: str | None = None,
    ):
        super().__init__(store_id, name, store, config)
        self.bot_policy = bot_policy
        self.host = host
        #: The table of the match its host opened after this one (``rematch``), for the lobby to point to;
        #: one per finished table (asked again, the lobby answers with this one while it is open).
        self.rematch: str | None = None
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_HISTORY)
        self.seed = seed
        self.variants = variants
        self.first_declarer = first_declarer
        self.turn_time = turn_time
        self.grace = grace
        self.seats = [Seat() for _ in range(4)]
        self.match: Match | None = None
        self.seq = 0
        #: The events of the last actions, for a version 2 member coming back with ``since``.
        self.recent = RecentActions()
        #: The views last told, by kind of version 2 member: (seat or None for the spectators, whether it is
        #: a player watching their own seat while a stand-in plays it).
        self._views: ViewCache[tuple[int | None, bool]] = ViewCache(self._member_view)
        self.state = "waiting"
        self._timer: asyncio.TimerHandle | None = None
        #: The turn timer's deadline: (action number, seat, ``loop.time()`` when the table plays for it).
        self._deadline: tuple[int, int, float] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._policies: dict[tuple[int, str], Policy] = {}
        self.created = time.monotonic()
        self._backoff = Backoff()
        #: The match's start, or its record once finished, is not in the store yet (the write is retried).
        self._unsaved_start: asyncio.TimerHandle | None = None
        #: The ``players`` push that will tell of spectators who came or went (``_spectators_changed``).
        self._spectator_push: asyncio.TimerHandle | None = None
        self._unsaved_finish: asyncio.TimerHandle | None = None
        #: The seats humans hold at waiting tables, counted for their caps: the lobby's, shared by every
        #: table it holds (set by ``Lobby.add_room``); until then the table's own.
        self.waiting_seats = WaitingSeats(config.max_waiting_seats, config.max_waiting_seats_per_address)
        #: Players the host removed before the start (``remove-player``): they may not sit here again.
        self.barred: set[str] = set()
        #: Whether a player is connected to the server (at this table or not): the lobby's (set by
        #: ``Lobby.add_room``); until then nobody is, but at a seat.
        self.online: Callable[[str], bool] = _nobody_online
        #: The match waits for its humans (``paused``): set by ``_presence_changed``.
        self._paused = False
        #: The turn clock kept while the table is paused: (action number, seat, seconds that were left).
        self._frozen: tuple[int, int, float] | None = None

    # Creation and restoration ---------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        config: ServerConfig,
        name: str,
        variants: dict[str, Any],
        turn_time: float | None,
        grace: float | None,
        bot_policy: str | None = None,
        host: str | None = None,
        origin: str | None = None,
    ) -> BarbuTable:
        """Open a new table: draw its seed and first declarer, store its config, return it. ``bot_policy``
        None takes the server's default (``config.bot_policy``); ``host`` is the player opening it, ``origin``
        where from (``Room.origin``).

        Raises:
            ProtocolError: ``bad-message`` (field ``variants``) when the engine refuses the variants, (field
                ``bot_policy``) when the engine reads no policy spec in ``bot_policy`` or it asks more time a
                decision than ``config.max_bot_time``.
        """
        try:
            rules = Variants.from_dict(variants)
        except ValueError as exc:
            raise ProtocolError("bad-message", f"variants: {exc}", field="variants") from None
        if bot_policy is None:
            policy = _spec(config.bot_policy, "bot_policy")
        else:
            policy = check_bot_time(_spec(bot_policy, "bot_policy"), "bot_policy", config.max_bot_time)
        seed = secrets.randbits(63)
        first = secrets.randbelow(4)
        held = config.grace if grace is None else grace
        stored = {
            "seed": seed,
            "variants": rules.to_dict(),
            "first_declarer": seat_text(first),
            "turn_time": turn_time,
            "grace": held,
            "bot_policy": policy,
            "host": host,
            "origin": origin,
        }
        store_id = store.create_room(cls.kind, name, stored)
        table = cls(
            store_id,
            name,
            store,
            config,
            seed=seed,
            variants=rules,
            first_declarer=first,
            turn_time=turn_time,
            grace=held,
            bot_policy=policy,
            host=host,
        )
        table.origin = origin
        return table

    @classmethod
    def restore(cls, row: RoomRow, store: Store, config: ServerConfig) -> BarbuTable:
        """Rebuild a table from its store row: a waiting table keeps its bots; a playing one replays its log
        and holds its humans' seats for the grace period (stand-ins play after it); a finished one (``over``:
        the lobby brings one back while its rematch waits) replays its log and stays over, writing nothing.

        Raises:
            ValueError: the config or the log does not replay (``IllegalAction``, ``RecordError``).
        """
        table = cls.replayed(row, store, config)
        if row.status == "waiting":
            store.set_players(row.id, table._players_record())
            return table
        assert table.match is not None
        if table.state == "over":
            return table
        if table.match.over:
            table._finish()
            return table
        for index, seat in enumerate(table.seats):
            if seat.away:
                table._start_grace(index)
        table._presence_changed()  # nobody is connected yet: a table with a human seat waits for one
        table._drive()
        return table

    @classmethod
    def replayed(cls, row: RoomRow, store: Store, config: ServerConfig) -> BarbuTable:
        """The table of ``row`` with its config read and (but waiting) its log replayed, writing nothing and
        starting no timer: ``restore`` goes on from here, ``barbu store check`` stops here.

        Raises:
            ValueError, KeyError, TypeError: the config or the log does not replay (``BadLog`` names the
                action).
        """
        c = row.config
        table = cls(
            row.id,
            row.name,
            store,
            config,
            seed=int(c["seed"]),
            variants=Variants.from_dict(c["variants"]),
            first_declarer=parse_seat(c["first_declarer"]),
            turn_time=c.get("turn_time"),
            grace=float(c.get("grace", config.grace)),
            bot_policy=str(c.get("bot_policy", config.bot_policy)),
            host=c.get("host"),
        )
        table.origin = c.get("origin")
        table.chat.extend(store.chat(row.id, CHAT_HISTORY))
        for letter, owner in row.players.items():
            seat = table.seats[parse_seat(letter)]
            if row.status != "waiting" or owner.startswith(BOT_PREFIX):
                seat.owner = owner
        if row.status == "waiting":
            return table
        match, table.seq = replay_log(row, store, table.recent)
        table.match = match
        table.state = "playing"
        if match.over and row.status == "over":  # its record is stored already
            table.state = "over"
        return table

    # Room interface --------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The lobby entry: room, kind, name, state, players, away, spectators, variants, turn_time, grace,
        bot_policy, host (who opened it; None when not known), hand_number (0 before the start), to_move (the
        seat letter to act, None when no match is playing), rematch (the table of the match opened after this
        one, None until then), paused (the match waits for one of its players to come back: ``paused``)."""
        to_move = None if self.match is None else self.match.to_move
        return {
            "room": self.room_id,
            "kind": self.kind,
            "name": self.name,
            "state": self.state,
            "players": self._players(),
            "away": self._away(),
            "spectators": len(self.spectators),
            "variants": self.variants.to_dict(),
            "turn_time": self.turn_time,
            "grace": self.grace,
            "bot_policy": self.bot_policy,
            "host": self.host,
            "hand_number": 0 if self.match is None else self.match.hand_number,
            "to_move": None if to_move is None else seat_text(to_move),
            "rematch": self.rematch,
            "paused": self.paused,
        }

    def snapshot(self, peer: Peer | None, request_id: int | None, since: int | None = None) -> Snapshot:
        """The snapshot for ``peer``: its seat's view if it plays a seat here; the view of its player's own
        seat, which a stand-in plays (``_standin_view``), if it watches that; else the spectator view. For a
        version 2 ``peer`` asking ``since`` an action number, with the updates it missed since, as that view's
        seat may see them (``RecentActions.missed``)."""
        seat = None if peer is None else self._seat_of_peer(peer)
        view = None if self.match is None else self.match.view(seat)
        if seat is None and peer is not None:
            view = self._standin_view(peer) or view
        updates = None
        if peer is not None and peer.version >= 2 and since is not None:
            updates = self.recent.missed(self.room_id, since, self.seq, self._view_seat(peer))
        return Snapshot(
            updates=updates,
            id=request_id,
            room=self.room_id,
            kind=self.kind,
            name=self.name,
            seat=None if seat is None else seat_text(seat),
            state=self.state,
            seq=self.seq,
            players=self._players(),
            away=self._away(),
            variants=self.variants.to_dict(),
            view=view,
            chat=[{**line} for line in self.chat],
            turn_left_ms=self.turn_left_ms(),
            idle_left_ms=self.idle_left_ms(),
            paused=self.paused,
        )

    def _standin_view(self, peer: Peer) -> dict[str, Any] | None:
        """The view of the seat ``peer``'s player owns here while a stand-in plays it during the match (they
        left it, or it was handed over idle, and they watch), or played it to the end of the match: their
        own cards and the table, as from the seat, but nothing to act on (``legal``, ``double_targets``,
        ``must_double`` nil: ``sit`` takes the seat back first, while the match goes on). None when they
        own no such seat."""
        index = None if peer.player is None else self._seat_of_player(peer.player)
        if self.match is None or self.state == "waiting" or index is None or not self.seats[index].standin:
            return None
        return self.match.view(index) | NOTHING_TO_ACT

    def _view_seat(self, peer: Peer) -> int | None:
        """The seat whose view ``peer`` is sent: its own, or its player's that a stand-in plays while they
        watch (``_standin_view``); None for a spectator."""
        return self._view_key(peer)[0]

    def _view_key(self, peer: Peer) -> tuple[int | None, bool]:
        """Which view ``peer`` is sent (``_member_view``): its seat's; its player's seat's that a stand-in
        plays, while they watch; the spectators'."""
        seat = self._seat_of_peer(peer)
        if seat is not None:
            return seat, False
        if self._standin_view(peer) is not None and peer.player is not None:
            return self._seat_of_player(peer.player), True
        return None, False

    def _member_view(self, key: tuple[int | None, bool]) -> dict[str, Any]:
        """The view of kind of member ``key`` (``_view_key``) now, as the engine makes it."""
        assert self.match is not None
        seat, watching = key
        view = self.match.view(seat)
        return view | NOTHING_TO_ACT if watching else view

    def holds_seat(self, player: str) -> bool:
        """Whether ``player`` owns a seat here and the match is not over (a seat they left to a stand-in
        too: nobody else may log in by that name meanwhile)."""
        return self.state != "over" and self._seat_of_player(player) is not None

    def gives_back(self, player: str) -> bool:
        """Whether ``player`` holds a seat here that a ``resume`` or ``login`` takes back: not one they left
        to a stand-in (``leave``, the idle hand-over), which only ``sit`` at this table takes back."""
        index = self._seat_of_player(player) if self.state != "over" else None
        return index is not None and not self.seats[index].left

    def plays_here(self, player: str) -> bool:
        """Whether ``player`` owns a seat here (the match over too): they may always watch the table."""
        return self._seat_of_player(player) is not None

    @property
    def idle(self) -> bool:
        """Over, or waiting past ``empty_table_ttl`` with no human at it; and nobody connected. A seat
        kept for a player who has not come (``reserve``) does not keep a waiting table: only a human seated
        there now (connected, as checked below, or dropped within the grace period) does."""
        young = time.monotonic() - self.created < self.config.empty_table_ttl
        finished = self.state == "over" or (self.state == "waiting" and not young)
        unsaved = self._unsaved_finish is not None
        nobody = all(s.peer is None and not s.held for s in self.seats)
        return finished and not unsaved and not self.spectators and nobody

    def stop(self) -> None:
        """Cancel timers, pending bot moves and a pending write of the record (the log holds the last action:
        a restart finishes the match again)."""
        self._cancel_timer()
        for unsaved in (self._unsaved_start, self._unsaved_finish, self._spectator_push):
            if unsaved is not None:
                unsaved.cancel()
        self._unsaved_start = self._unsaved_finish = self._spectator_push = None
        for seat in self.seats:
            seat.cancel_grace()
        for task in list(self._tasks):
            task.cancel()

    def discard(self) -> None:
        """The lobby drops this table: stop it, and mark it closed in the store if it never started (when the
        store cannot write, it stays ``waiting`` there: a restart brings it back with its bots only, and the
        lobby drops it again)."""
        self.stop()
        self.waiting_seats.update(self.room_id, frozenset())
        if self.state == "waiting":
            try:
                self.store.set_status(self.store_id, "closed")
            except StoreUnavailable as exc:
                log.warning("table %s: not marked closed in the store: %s", self.room_id, exc)

    async def join(self, peer: Peer, seat: str | None, request_id: int, since: int | None = None) -> None:
        """Seat ``peer``'s player at ``seat`` (None: the first free seat) or give back the seat they hold;
        replies with the snapshot (with the updates missed ``since``, version 2); the match starts when the
        fourth seat is filled.

        Raises:
            ProtocolError: ``seat-taken`` (the seat is held, or the match started without this player),
                ``already-seated`` (another seat than the one the player holds here), ``removed`` (the host
                removed this player before the start), ``too-many-seats`` (``WaitingSeats.check``: the player
                or their address sits at as many waiting tables as allowed; also when taking back a seat
                held since a drop at another address, or kept by a ``rematch``: ``check_take_back``; the
                seat stays as it was), ``room-over``.
            StoreUnavailable: the seat could not be stored; nobody was seated.
        """
        player = _player(peer)
        async with self.lock:
            held = self._seat_of_player(player)
            if held is not None:
                if seat is not None and parse_seat(seat) != held and self.state != "over":
                    raise ProtocolError(
                        "already-seated",
                        f"you already sit at {seat_text(held)} here; leave it first to change seats",
                        field="seat",
                    )
                if self.state != "over":
                    if self.state == "waiting":  # from another address, or a seat kept by a rematch
                        self.waiting_seats.check_take_back(self.room_id, player, peer.address)
                    self._take_back(held, peer, request_id, since)
                    return
            if self.state == "over":
                raise ProtocolError("room-over", f"the match at table {self.name!r} is over")
            if self.state == "playing":
                raise ProtocolError(
                    "seat-taken", "the match has started and every seat is held", field="seat"
                )
            if player in self.barred:
                raise ProtocolError(
                    "removed",
                    f"the host removed you from table {self.name!r}; you may watch it",
                    field="room",
                )
            index = self._free_seat(seat)
            self.waiting_seats.check(player, peer.address)
            self._save_players(index, player)
            self.seats[index].owner = player
            self.seats[index].connect(peer)
            self.spectators.discard(peer)
            peer.rooms.add(self)
            peer.send(self.snapshot(peer, request_id))
            self._push_players()
            self._start_if_full()

    async def watch(self, peer: Peer, request_id: int | None, since: int | None = None) -> None:
        """Add ``peer`` as a spectator and reply with the public snapshot (everyone hears of the new
        spectator in a ``players`` push); a peer playing a seat here just gets its seat's snapshot (it
        already receives everything a spectator would); with the updates missed ``since`` (version 2)."""
        if self._seat_of_peer(peer) is not None:
            peer.send(self.snapshot(peer, request_id, since))
            return
        await super().watch(peer, request_id, since)
        self._spectators_changed()

    async def leave(self, peer: Peer) -> None:
        """Stop watching; give up the seat before the start; hand it to a stand-in at once during the match
        (``sit`` takes it back)."""
        await self._vacate(peer, dropped=False)

    async def detach(self, peer: Peer) -> None:
        """The connection dropped: hold the seat for the grace period (coming back takes it back), after
        which it is freed before the start, or a stand-in bot plays it during the match."""
        await self._vacate(peer, dropped=True)

    async def _vacate(self, peer: Peer, *, dropped: bool) -> None:
        """``peer`` is no longer here: a dropped player's seat is held for the grace period; a player who
        left gives up their seat before the start, or is replaced by a stand-in at once during the match."""
        async with self.lock:
            watched = peer in self.spectators
            self.spectators.discard(peer)
            peer.rooms.discard(self)
            index = self._seat_of_peer(peer)
            if index is None:
                if watched:
                    self._spectators_changed()
                return
            seat = self.seats[index]
            seat.peer = None
            if self.state != "over" and dropped:
                # Before the start too: a host who switches app to send the invite link keeps the table.
                self._start_grace(index)
            elif self.state == "waiting":
                self._free(index)
            elif self.state == "playing":
                seat.cancel_grace()
                seat.standin = seat.left = True
                self._drive()
            self._presence_changed()  # the last of its humans gone: the match waits
            self._push_players()

    async def presence_changed(self, player: str) -> None:
        """``player``'s connection to the server came or went, though not at a seat here (they had left it, or
        a stand-in took it while idle): the match pauses if they were the last of its humans connected, or
        goes on if it waited for them."""
        async with self.lock:
            if self._seat_of_player(player) is not None and self._presence_changed():
                self._push_players()
                self._drive()

    async def attach(self, peer: Peer, since: int | None = None) -> bool:
        """The player is back on ``peer`` (a ``resume`` or ``login``): give their seat back with a snapshot
        (True), or False. At a waiting table, a seat the player cannot take back from ``peer``'s address
        (``WaitingSeats.check_take_back``: its players sit at as many waiting tables as one address may) is
        not given back: a seat held since a drop elsewhere is freed, the player told so (``removed``,
        reason ``too-many-seats``) and the table too (``players``); a seat kept by a ``rematch`` stays kept
        for a later ``sit``."""
        player = _player(peer)
        async with self.lock:
            index = self._seat_of_player(player)
            if index is None or self.state == "over" or self.seats[index].left:
                return False
            if self.state == "waiting":
                try:
                    self.waiting_seats.check_take_back(self.room_id, player, peer.address)
                except ProtocolError:
                    if self.seats[index].held:
                        self._free(index)
                        peer.send(Removed(room=self.room_id, seat=seat_text(index), reason="too-many-seats"))
                        self._push_players()
                        self.listing_changed()
                    return False
            self._take_back(index, peer, None, since)
        return True

    def keep_chat(self, lines: list[ChatLine]) -> None:
        """Add chat ``lines`` (oldest first) to the table's last ``CHAT_HISTORY``, in
        the store (they come back after a restart) and then here: all of them or none.

        Raises:
            StoreUnavailable: the store cannot write: nothing was kept (a line said meanwhile, kept in memory
                only, would be acknowledged and then lost to a restart).
        """
        with self.store.transaction():
            for line in lines:
                self.store.add_chat(self.store_id, line["name"], line["text"], CHAT_HISTORY, line["watching"])
        self.chat.extend(lines)

    async def handle(self, peer: Peer, request: Message) -> None:
        """``act``, ``chat``, ``add-bot``, ``remove-bot``, ``remove-player`` and ``snapshot`` requests.

        Raises:
            ProtocolError: ``not-started``, ``room-over``, ``not-seated``, ``not-your-seat``, ``illegal``
                (with the engine's rule), ``seat-taken``, ``not-host``, ``bad-message``; the table is
                unchanged.
            StoreUnavailable: the store cannot write the action, the seat or the chat line; the table is
                unchanged and nobody was told anything.
        """
        if isinstance(request, Act):
            await self._act(peer, request)
        elif isinstance(request, Chat):
            if peer not in self.spectators and self._seat_of_peer(peer) is None:
                raise ProtocolError("not-seated", "sit or watch at this table to chat", field="room")
            line = ChatLine(name=_player(peer), text=request.text, watching=self._seat_of_peer(peer) is None)
            self.keep_chat([line])  # before anyone hears it
            frame = encode_frame(ChatPush(room=self.room_id, **line).to_wire())
            peer.send(Ok(id=request.id))
            for member in self._members():
                member.send_frame(frame)
        elif isinstance(request, AddBot):
            await self._add_bot(peer, request)
        elif isinstance(request, RemoveBot):
            await self._remove_bot(peer, request)
        elif isinstance(request, RemovePlayer):
            await self._remove_player(peer, request)
        elif isinstance(request, GetSnapshot):
            peer.send(self.snapshot(peer, request.id, request.since))
        else:
            raise ProtocolError(
                "wrong-room",
                f"a table does not take {request.TYPE}: it is for a solitaire room",
                field="type",
            )

    # Requests -------------------------------------------------------------------------------------

    async def _act(self, peer: Peer, request: Act) -> None:
        async with self.lock:
            match = self._playing()
            index = parse_seat(request.seat)
            mine = self._seat_of_peer(peer)
            if mine is None:
                raise ProtocolError("not-seated", "you play no seat at this table", field="seat")
            if mine != index:
                raise ProtocolError(
                    "not-your-seat", f"you play {seat_text(mine)}, not {request.seat}", field="seat"
                )
            try:
                action = action_from_wire(request.action)
            except IllegalAction as exc:
                raise _refusal(exc) from None
            self._commit(match, index, action, peer, request.id)

    async def _add_bot(self, peer: Peer, request: AddBot) -> None:
        if request.policy is None:
            policy = self.bot_policy
        else:
            policy = check_bot_time(_spec(request.policy, "policy"), "policy", self.config.max_bot_time)
        async with self.lock:
            if self.state == "over":
                raise ProtocolError("room-over", f"the match at table {self.name!r} is over")
            self._check_host(peer, "add bots")
            index = parse_seat(request.seat)
            if self.state == "playing" or self.seats[index].owner is not None:
                raise ProtocolError("seat-taken", f"seat {request.seat} is not empty", field="seat")
            self._save_players(index, BOT_PREFIX + policy)
            self.seats[index].owner = BOT_PREFIX + policy
            peer.send(Ok(id=request.id))
            self._push_players()
            self._start_if_full()

    async def _remove_bot(self, peer: Peer, request: RemoveBot) -> None:
        async with self.lock:
            if self.state == "over":
                raise ProtocolError("room-over", f"the match at table {self.name!r} is over")
            self._check_host(peer, "remove bots")
            if self.state == "playing":
                raise ProtocolError("seat-taken", "the match has started: its bots play it out", field="seat")
            seat = self.seats[parse_seat(request.seat)]
            if not seat.is_bot:
                raise ProtocolError("bad-message", f"no bot sits in seat {request.seat}", field="seat")
            # Stored first: a store that cannot write leaves the bot in its seat (``StoreUnavailable``).
            self.store.set_players(self.store_id, self._players_record(without=seat))
            seat.owner = None
            peer.send(Ok(id=request.id))
            self._push_players()

    async def _remove_player(self, peer: Peer, request: RemovePlayer) -> None:
        """The host frees a seat before the start, whoever holds it but the host (stored first: a store that
        cannot write changes nothing); a removed human is told (``removed``), may not sit here again, and
        may watch."""
        async with self.lock:
            if self.state == "over":
                raise ProtocolError("room-over", f"the match at table {self.name!r} is over")
            self._check_host(peer, "remove players")
            if self.state == "playing":
                raise ProtocolError(
                    "seat-taken", "the match has started: nobody can be removed from it", field="seat"
                )
            index = parse_seat(request.seat)
            seat = self.seats[index]
            if seat.owner is None:
                raise ProtocolError("bad-message", f"nobody sits in seat {request.seat}", field="seat")
            if seat.owner == _player(peer):
                raise ProtocolError("bad-message", "that is your own seat: leave it instead", field="seat")
            self.store.set_players(self.store_id, self._players_record(without=seat))
            owner, removed = seat.owner, seat.peer
            if not seat.is_bot:
                self.barred.add(owner)
            seat.owner = seat.peer = None
            seat.cancel_grace()  # a player removed while away
            if removed is not None:
                removed.rooms.discard(self)
                removed.send(Removed(room=self.room_id, seat=request.seat, reason="host", by=_player(peer)))
            peer.send(Ok(id=request.id))
            self._push_players()

    def _check_host(self, peer: Peer, what: str) -> None:
        """Only the table's host may ``what`` (add or remove bots).

        Raises:
            ProtocolError: ``not-host``.
        """
        if self.host is not None and _player(peer) != self.host:
            raise ProtocolError("not-host", f"only {self.host}, who opened table {self.name!r}, may {what}")

    # Play -----------------------------------------------------------------------------------------

    def _playing(self) -> Match:
        if self.state == "over":
            raise ProtocolError("room-over", f"the match at table {self.name!r} is over")
        if self.match is None:
            raise ProtocolError("not-started", "the match starts when all four seats are filled")
        return self.match

    def _commit(
        self,
        match: Match,
        seat: int,
        action: Action,
        peer: Peer | None,
        request_id: int | None,
        by: str | None = None,
    ) -> None:
        """Check, log, apply, reply, broadcast, then hand the turn on (called under the lock): the action takes
        effect only once it is in the store. ``by`` (``timer``, ``stand-in``) marks an action played for a
        human's seat in the events that tell it (``docs/protocol.md``, ``event``).

        Raises:
            ProtocolError: ``illegal`` (the engine's rule); nothing changed.
            StoreUnavailable: the action could not be logged; nothing changed.
        """
        hand = match.hand_number
        try:
            match.check(seat, action)
        except IllegalAction as exc:
            raise _refusal(exc) from None
        # Who played for the seat is logged when it was not its own controller: a member coming back after a
        # restart is told the same as one that stayed (``RecentActions``).
        self.store.append_action(self.store_id, self.seq + 1, seat, _logged(action, by))
        self._backoff.reset()
        told_to = {m: self._view_key(m) for m in self._members() if m.version >= 2}
        self._views.before(told_to.values())
        events = match.apply(seat, action)  # checked above: it cannot be refused now
        self.seq += 1
        if peer is not None and request_id is not None:
            peer.send(Ok(id=request_id))
        actor, clock = seat_text(seat), (self.turn_left_ms(), self.idle_left_ms())
        controller = by or ("bot" if self.seats[seat].is_bot else "player")
        told = stamped(events, actor, controller, *clock)
        self.recent.add(self.seq, told)
        self._broadcast(stamped(events, actor, by, *clock))
        self._push_update(told, told_to, self._views.after(told_to.values()))
        if match.over or match.hand_number != hand:
            self.listing_changed()
        if match.over:
            self._finish()
            return
        if match.to_move is not None:
            self._send_turn(match.to_move)
        self._drive()

    def _broadcast(self, events: list[Event]) -> None:
        """Tell the version 1 members ``events`` (``stamped``: ``by`` only on an action played for a human's
        seat by a stand-in or the timer) as ``event`` pushes."""
        members = [member for member in self._members() if member.version < 2]
        for event in events:
            push = EventPush(room=self.room_id, seq=self.seq, event=event.to_wire())
            if event.to is None:
                frame = encode_frame(push.to_wire())
                for member in members:
                    member.send_frame(frame)
            else:
                target = self.seats[event.to].peer
                if target is not None and target.version < 2:
                    target.send(push)

    def _push_update(
        self,
        told: list[Event],
        members: dict[Peer, tuple[int | None, bool]],
        views: dict[tuple[int | None, bool], dict[str, Any]],
    ) -> None:
        """Tell each version 2 member (``members``: with the key of the view it is sent) the action just
        applied: one ``update`` with the events ``told`` it may see (those of its view's seat) and what the
        action changed of its view (``views``, by key); the spectators' update is encoded once for all."""
        public: bytes | None = None
        for member, key in members.items():
            seat = key[0]
            if seat is None:
                if public is None:
                    public = encode_frame(
                        Update(self.room_id, self.seq, visible(told, None), views[key]).to_wire()
                    )
                member.send_frame(public)
            else:
                member.send(Update(self.room_id, self.seq, visible(told, seat), views[key]))

    def _send_turn(self, index: int) -> None:
        """Push ``turn`` to seat ``index``'s connection, when it speaks version 1 (version 2 reads
        ``view.legal`` in its updates and snapshots)."""
        peer = self.seats[index].peer
        if peer is not None and peer.version < 2 and self.match is not None:
            peer.send(
                Turn(
                    room=self.room_id,
                    seat=seat_text(index),
                    seq=self.seq,
                    view=self.match.view(index),
                    turn_left_ms=self.turn_left_ms(),
                    idle_left_ms=self.idle_left_ms(),
                )
            )

    def _drive(self) -> None:
        """Schedule the next automatic move: a bot's or stand-in's after ``bot_delay``, or the turn timer;
        without a turn timer, the hand-over of a connected human's seat to a stand-in after
        ``config.idle_turn`` seconds of their turn (``_idle``). Nothing while the table is paused."""
        self._cancel_timer()
        if self._paused or self.match is None or self.match.over or self.match.to_move is None:
            return
        index = self.match.to_move
        seat = self.seats[index]
        loop = asyncio.get_running_loop()
        if seat.is_bot or seat.standin:
            # A worker policy starts thinking at once and keeps the pace itself (_auto_move).
            delay = 0.0 if runs_in_worker(self._auto_policy(index)) else self.config.bot_delay
        elif self.turn_time is not None:
            delay = max(self._turn_deadline(index) - loop.time(), 0.0)
        elif self.config.idle_turn is not None and seat.peer is not None:
            # Kept per turn: a seat that keeps coming back (``sit``) without playing is not given more time.
            idle = max(self._turn_deadline(index, self.config.idle_turn) - loop.time(), 0.0)
            self._timer = loop.call_later(idle, self._spawn, self._idle, index, self.seq)
            return
        else:
            return
        self._timer = loop.call_later(delay, self._spawn, self._auto_move, index, self.seq)

    async def _idle(self, index: int, seq: int) -> None:
        """Seat ``index``'s human, connected, left their turn at action ``seq`` unplayed for
        ``config.idle_turn`` seconds at a table without a turn timer: a stand-in takes the seat as if they had
        left (``leave``), so three players are not held up for ever, and the player is told (``removed``,
        reason ``idle``); ``sit`` takes the seat back."""
        async with self.lock:
            seat = self.seats[index]
            peer = seat.peer
            if not self._awaits_auto_move(index, seq) or peer is None or seat.standin or seat.is_bot:
                return
            log.info(
                "table %s: seat %s idle for %g s, a stand-in plays it",
                self.room_id,
                index,
                self.config.idle_turn,
            )
            seat.peer = None
            seat.left = True
            peer.rooms.discard(self)
            seat.cancel_grace()
            peer.send(Removed(room=self.room_id, seat=seat_text(index), reason="idle"))
            self._standin_plays(index)

    def _timed(self, index: int) -> bool:
        """Whether the turn timer runs for seat ``index``: a turn time is set and a human plays it (a bot or a
        stand-in keeps the bots' own pace)."""
        seat = self.seats[index]
        return self.turn_time is not None and not seat.is_bot and not seat.standin

    def _turn_deadline(self, index: int, span: float | None = None) -> float:
        """When (``loop.time()``) the turn timer plays for seat ``index`` at this action number (``span``
        seconds, by default ``turn_time``, after the turn was first asked about; a table without a turn
        timer uses it for ``config.idle_turn``): then kept, so coming back (a reload, a resume, a ``sit``
        sent again and again) does not restart the turn; a restarted server gives the seat a whole turn
        again."""
        span = self.turn_time if span is None else span
        assert span is not None
        if self._deadline is None or self._deadline[:2] != (self.seq, index):
            self._deadline = (self.seq, index, asyncio.get_running_loop().time() + span)
        return self._deadline[2]

    def turn_left_ms(self) -> int | None:
        """Milliseconds left before the turn timer plays for the seat to move (0 once it is due), or None when
        no turn timer runs (no ``turn_time``, a bot or stand-in to move, the match not in play or paused)."""
        match = self.match
        if (
            self.state != "playing"
            or self._paused
            or match is None
            or match.to_move is None
            or not self._timed(match.to_move)
        ):
            return None
        left = self._turn_deadline(match.to_move) - asyncio.get_running_loop().time()
        return max(round(left * 1000), 0)

    def idle_left_ms(self) -> int | None:
        """Milliseconds left before the idle hand-over gives the seat to move to a stand-in (``_idle``: a
        table without a turn timer, a connected human to move, ``config.idle_turn`` after the turn began; 0
        once it is due), so that the player and the table are warned; None when no hand-over is coming (a
        turn timer, a bot or stand-in or a dropped player to move, no ``idle_turn``, the match not in play or
        paused)."""
        match = self.match
        idle_turn = self.config.idle_turn
        if (
            self.state != "playing"
            or self._paused
            or self.turn_time is not None
            or idle_turn is None
            or match is None
            or match.to_move is None
        ):
            return None
        seat = self.seats[match.to_move]
        if seat.is_bot or seat.standin or seat.peer is None:
            return None
        left = self._turn_deadline(match.to_move, idle_turn) - asyncio.get_running_loop().time()
        return max(round(left * 1000), 0)

    def _spawn(self, make: Callable[..., Coroutine[Any, Any, None]], *args: int) -> None:
        task = asyncio.get_running_loop().create_task(make(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _auto_move(self, index: int, seq: int) -> None:
        """A bot, stand-in or expired turn timer plays for seat ``index`` if nothing moved since ``seq``.

        A ``search`` bot or stand-in thinks in the worker pool, without the table's lock; its answer is played
        only if the position has not moved on and the seat is still the bot's (a human back from a drop takes
        it). When the pool cannot answer (busy, over the time budget, stopping), or has not answered within
        the budget (at most ``config.max_bot_time``) plus ``ANSWER_MARGIN`` seconds of asking, queue time
        included, ``FALLBACK_POLICY`` decides.
        When the store cannot write, the move is tried again after a growing pause (``Backoff``).
        """
        async with self.lock:
            if not self._awaits_auto_move(index, seq):
                return
            assert self.match is not None
            name = self._auto_policy(index)
            if not runs_in_worker(name):
                self._auto_commit(index, name, None)
                return
            forced = len(self.match.legal_actions(index)) == 1
            view = self.match.view(index)
        loop = asyncio.get_running_loop()
        started = loop.time()
        wire = None
        if not forced:
            budget = worker_budget(name, self.config.max_bot_time)
            try:
                # The wait is bounded from now, time queued behind other tables' jobs included: a busy pool
                # costs the table one heuristic decision, never a stalled match.
                wire = await asyncio.wait_for(
                    self.workers.run(
                        f"table:{self.room_id}",
                        search_action,
                        name,
                        self.seed + index,
                        view,
                        budget=budget,
                    ),
                    budget + ANSWER_MARGIN,
                )
            except Exception as exc:  # the pool's WorkerError, or the job's own failure: play on without it
                held = _bot_failures.ready()
                if held is not None:
                    log.warning(
                        "table %s: %s for seat %d failed (%r); %s decides (%d more since the last line)",
                        self.room_id,
                        name,
                        index,
                        exc,
                        FALLBACK_POLICY,
                        held,
                    )
        # It thought from the start of its turn (see _drive); the move still comes bot_delay after it.
        rest = self.config.bot_delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with self.lock:
            if self._awaits_auto_move(index, seq) and self._auto_policy(index) == name:
                self._auto_commit(index, name, wire)

    def _awaits_auto_move(self, index: int, seq: int) -> bool:
        """Whether seat ``index`` is still to move at action ``seq`` of a match in play, not paused (a bot's
        answer that comes once the table paused is dropped: the table asks again when it resumes)."""
        match = self.match
        return (
            match is not None
            and self.state == "playing"
            and not self._paused
            and self.seq == seq
            and match.to_move == index
        )

    # Pausing --------------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the match waits for one of its players: it is in play, a human owns a seat, and none of
        them is connected (``_presence_changed``)."""
        return self._paused and self.state == "playing"

    def _nobody_here(self) -> bool:
        """Whether the match in play has human seats and none of their players is connected: at the seat, or
        to the server after leaving it (in the lobby, watching, at another room). A table of bots alone never
        waits."""
        if self.state != "playing":
            return False
        humans = [seat for seat in self.seats if seat.owner is not None and not seat.is_bot]
        for seat in humans:
            if seat.peer is not None or (seat.owner is not None and self.online(seat.owner)):
                return False
        return bool(humans)

    def _presence_changed(self) -> bool:
        """Pause the match when none of its humans is connected any more, or resume it when one is back
        (call under the lock, after any change of who is connected); returns whether it paused or resumed.

        Paused, nothing plays by itself (bots, stand-ins, the turn timer, the idle hand-over): the timer is
        cancelled and the seat to move keeps the time it had left, which it has again on resuming. The grace
        periods of dropped seats still run out (a stand-in then plays the seat once the table resumes). The
        caller tells the table (``_push_players``) and, resuming, drives it on (``_drive``)."""
        paused = self._nobody_here()
        if paused == self._paused:
            return False
        self._paused = paused
        now = asyncio.get_running_loop().time()
        if paused:
            self._cancel_timer()
            deadline, self._deadline = self._deadline, None
            if deadline is not None:
                self._frozen = (deadline[0], deadline[1], max(deadline[2] - now, 0.0))
            log.info("table %s: paused, none of its players is connected", self.room_id)
        else:
            frozen, self._frozen = self._frozen, None
            if frozen is not None:
                self._deadline = (frozen[0], frozen[1], now + self._time_on_resuming(frozen[2]))
            log.info("table %s: resumed", self.room_id)
        self.listing_changed()
        return True

    def _time_on_resuming(self, left: float) -> float:
        """The seconds the seat to move has when a paused match goes on: what it had left, but at least
        ``RESUME_TURN_MIN`` (a player coming back needs the time to see the table again), never more than the
        whole turn (``turn_time``, or ``config.idle_turn`` at a table without a timer)."""
        span = self.turn_time if self.turn_time is not None else self.config.idle_turn
        return left if span is None else min(max(left, RESUME_TURN_MIN), span)

    def _auto_policy(self, index: int) -> str:
        """The policy spec that plays for seat ``index`` now: its bot's, the table's stand-in, or the turn
        timer's."""
        seat = self.seats[index]
        if seat.is_bot and seat.owner:
            return seat.owner[len(BOT_PREFIX) :]
        return self.bot_policy if seat.standin else TIMER_POLICY

    def _auto_commit(self, index: int, name: str, wire: dict[str, Any] | None) -> None:
        """Play for seat ``index`` (under the lock): the worker's answer ``wire`` when it is legal, else what
        policy ``name`` (or, for a worker policy, ``FALLBACK_POLICY``) chooses in the loop; the turn timer
        bets nothing on a doubling or redoubling turn (``timer_bet``)."""
        match = self.match
        assert match is not None
        legal = match.legal_actions(index)
        seat = self.seats[index]
        by = None if seat.is_bot else "stand-in" if seat.standin else "timer"
        action: Action | None = timer_bet(legal) if by == "timer" else None
        if action is None and wire is not None:
            try:
                action = action_from_wire(wire)
            except IllegalAction:
                action = None
        if action is None or action not in legal:
            local = FALLBACK_POLICY if runs_in_worker(name) else name
            action = self._policy(index, local).choose(match.view(index), legal)
        try:
            match.check(index, action)
        except IllegalAction:
            log.exception(
                "table %s: policy %s chose an illegal action; playing the first legal one", self.room_id, name
            )
            action = legal[0]
        try:
            self._commit(match, index, action, None, None, by)
        except StoreUnavailable as exc:
            delay = self._backoff.next()
            _store_wait(f"the move of {seat_text(index)}", self.room_id, delay, exc)
            self._cancel_timer()
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(delay, self._spawn, self._auto_move, index, self.seq)

    def _policy(self, index: int, name: str) -> Policy:
        key = (index, name)
        if key not in self._policies:
            self._policies[key] = make_policy(name, self.seed + index)
        return self._policies[key]

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def reserve(self, owners: dict[str, str]) -> None:
        """Keep the seats for ``owners`` (seat letter -> player name or ``bot:<policy>``) before the start:
        another match with the same players (``rematch``). A reserved human takes the seat with ``sit``
        (as a held seat); the match starts when every seat is owned and every human is back at it."""
        self.store.set_players(self.store_id, self._players_record() | owners)
        for letter, owner in owners.items():
            self.seats[parse_seat(letter)].owner = owner

    def start_reserved(self) -> None:
        """Start the match of a table ``reserve`` filled with bots alone (another match of four bots): no
        ``sit`` comes to start it. Call once the table's creation is stored, before anything awaits (nobody
        else can hold its lock yet); with a human seat kept, nothing happens until they sit."""
        self._start_if_full()

    def _start_if_full(self) -> None:
        """Start the match when every seat is owned and every human is here (call under the lock); when the
        store cannot write the start, try again after a growing pause."""
        if self._unsaved_start is not None:
            self._unsaved_start.cancel()
            self._unsaved_start = None
        if self.state != "waiting" or any(s.owner is None or s.away for s in self.seats):
            return
        try:
            self.store.set_status(self.store_id, "playing")
        except StoreUnavailable as exc:
            delay = self._backoff.next()
            _store_wait("the start of the match", self.room_id, delay, exc)
            self._unsaved_start = asyncio.get_running_loop().call_later(delay, self._spawn, self._start_later)
            return
        self._backoff.reset()
        self.match = Match.new(self.seed, self.variants, self.first_declarer)
        self._views.clear()
        self.state = "playing"
        self._count_seats()
        for index, seat in enumerate(self.seats):
            if seat.peer is not None:
                seat.peer.send(self.snapshot(seat.peer, None))
            elif seat.away:
                self._start_grace(index)
        public = encode_frame(self.snapshot(None, None).to_wire())
        for spectator in self.spectators:
            spectator.send_frame(public)
        if self.match.to_move is not None:
            self._send_turn(self.match.to_move)
        self._drive()

    def _finish(self) -> None:
        self.state = "over"
        self._paused = False
        self.stop()
        self._save_finish()
        self._push_players()

    def _save_finish(self) -> None:
        """Store the finished match's record; when the store cannot write, try again after a growing pause
        (the table stays in the lobby until it is written; its last action is logged already)."""
        assert self.match is not None
        self._unsaved_finish = None
        try:
            self.store.set_status(self.store_id, "over", self.match.to_record(self._players_record()))
        except StoreUnavailable as exc:
            delay = self._backoff.next()
            _store_wait("the match record", self.room_id, delay, exc)
            self._unsaved_finish = asyncio.get_running_loop().call_later(delay, self._save_finish)
            return
        self._backoff.reset()
        self.listing_changed()  # now a finished match to list (``list-matches``)

    async def _start_later(self) -> None:
        async with self.lock:
            self._start_if_full()

    def _save_players(self, index: int, owner: str) -> None:
        """Store the seats as they will be once ``owner`` holds seat ``index``, before anything changes here.

        Raises:
            StoreUnavailable: the store cannot write; nothing changed.
        """
        self.store.set_players(self.store_id, self._players_record() | {seat_text(index): owner})

    # Seats ----------------------------------------------------------------------------------------

    def _take_back(self, index: int, peer: Peer, request_id: int | None, since: int | None = None) -> None:
        seat = self.seats[index]
        seat.cancel_grace()
        seat.connect(peer)
        seat.standin = seat.left = False
        self.spectators.discard(peer)
        peer.rooms.add(self)
        resumed = self._presence_changed()  # before the snapshot: it tells the turn clock running again
        peer.send(self.snapshot(peer, request_id, since))
        self._push_players()
        if self.match is not None and self.match.to_move == index:
            self._send_turn(index)
            self._drive()
        elif resumed:
            self._drive()
        self._start_if_full()  # a reserved seat of another match with the same players (``reserve``)

    def _start_grace(self, index: int) -> None:
        """Hold dropped seat ``index`` for the table's ``grace`` seconds (``_grace_ends`` after them)."""
        seat = self.seats[index]
        seat.cancel_grace()
        seat.grace_round += 1
        loop = asyncio.get_running_loop()
        seat.grace_timer = loop.call_later(self.grace, self._spawn, self._grace_ends, index, seat.grace_round)
        seat.grace_deadline = loop.time() + self.grace

    async def _grace_ends(self, index: int, grace_round: int) -> None:
        """Grace period ``grace_round`` of seat ``index`` ran out with its human still away: a stand-in plays
        the seat during the match; a waiting table frees it."""
        async with self.lock:
            seat = self.seats[index]
            if seat.grace_round != grace_round or not seat.held:
                return  # taken back (and maybe dropped again: a later timer ends that grace)
            seat.grace_timer = seat.grace_deadline = None
            if self.state == "waiting":
                self._free(index)
                self._push_players()
                self.listing_changed()
            elif self.state == "playing" and not seat.standin:
                self._standin_plays(index)

    def _free(self, index: int) -> None:
        """Give up seat ``index`` of a waiting table (call under the lock): nobody owns it any more, in the
        store as here. A store that cannot write does not keep the seat: it is freed here all the same."""
        seat = self.seats[index]
        seat.cancel_grace()
        seat.owner = seat.peer = seat.address = None
        try:
            self.store.set_players(self.store_id, self._players_record())
        except StoreUnavailable as exc:
            # Only a started table's players matter to a restart (a waiting one keeps its bots only).
            log.warning("table %s: a freed seat is not in the store: %s", self.room_id, exc)

    def _standin_plays(self, index: int) -> None:
        """A stand-in bot plays seat ``index`` from now on, by a timer's decision (the grace ran out, the turn
        was left idle), not a request: everyone at the table and the lobby's listing hear of it."""
        self.seats[index].standin = True
        self._push_players()
        self.listing_changed()
        self._drive()

    def _free_seat(self, seat: str | None) -> int:
        if seat is not None:
            index = parse_seat(seat)
            if self.seats[index].owner is not None:
                raise ProtocolError("seat-taken", f"seat {seat} is taken", field="seat")
            return index
        for index, candidate in enumerate(self.seats):
            if candidate.owner is None:
                return index
        raise ProtocolError("seat-taken", "every seat is taken", field="seat")

    def _seat_of_player(self, player: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.owner == player:
                return index
        return None

    def _seat_of_peer(self, peer: Peer) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.peer is peer:
                return index
        return None

    def _members(self) -> list[Peer]:
        return [s.peer for s in self.seats if s.peer is not None] + list(self.spectators)

    def _players(self) -> dict[str, str | None]:
        return {seat_text(i): s.owner for i, s in enumerate(self.seats)}

    def _players_record(self, without: Seat | None = None) -> dict[str, str]:
        """Seat letter -> owner of every owned seat (but ``without``), as the store keeps them."""
        return {
            seat_text(i): s.owner
            for i, s in enumerate(self.seats)
            if s.owner is not None and s is not without
        }

    def _away(self) -> list[str]:
        return [seat_text(i) for i, s in enumerate(self.seats) if s.away]

    def push(self, message: Message) -> None:
        """Send ``message`` to everyone at the table: its seated players and its spectators."""
        frame = encode_frame(message.to_wire())
        for member in self._members():
            member.send_frame(frame)

    def _count_seats(self) -> None:
        """Report who sits here to the waiting-seat counts (``WaitingSeats``): while the table waits, the
        humans connected to a seat and those dropped within the grace period (from the address they last
        played from: dropping and coming back must not make room for more seats); nobody once it started or
        is dropped."""
        holders = frozenset(
            (seat.owner, seat.address)
            for seat in self.seats
            if self.state == "waiting"
            and seat.owner is not None
            and seat.address is not None
            and (seat.peer is not None or seat.held)
        )
        self.waiting_seats.update(self.room_id, holders)

    def _spectators_changed(self) -> None:
        """A spectator came or went: the table hears of it in one ``players`` push ``SPECTATOR_PUSH_DELAY``
        seconds later for every such change meanwhile, so that spectators coming and going in a burst (each
        within its own request budget) cost the seated players one push, not one each."""
        if self._spectator_push is None:
            loop = asyncio.get_running_loop()
            self._spectator_push = loop.call_later(SPECTATOR_PUSH_DELAY, self._push_players)

    def _push_players(self) -> None:
        """Tell everyone at the table who sits, who is away, who watches, which seats a stand-in plays and,
        for each seat whose human dropped, how long until a stand-in plays it (``standin_in``) or, before the
        start, until it is freed (``freed_in``) (``docs/protocol.md``, ``players``), and whether the match waits
        for its players (``paused``); the waiting-seat counts follow (``_count_seats``)."""
        if self._spectator_push is not None:  # this push tells the spectators' news too
            self._spectator_push.cancel()
            self._spectator_push = None
        self._count_seats()
        now = asyncio.get_running_loop().time()
        grace_left = {
            seat_text(i): max(round(s.grace_deadline - now, 1), 0.0)
            for i, s in enumerate(self.seats)
            if s.grace_deadline is not None
        }
        waiting = self.state == "waiting"
        players = Players(
            room=self.room_id,
            state=self.state,
            players=self._players(),
            away=self._away(),
            spectators=sorted(p.player for p in self.spectators if p.player is not None),
            standins=[seat_text(i) for i, s in enumerate(self.seats) if s.standin and s.away],
            standin_in={} if waiting else grace_left,
            freed_in=grace_left if waiting else {},
            paused=self.paused,
        )
        frame = encode_frame(players.to_wire())
        for member in self._members():
            member.send_frame(frame)


def replay_log(row: RoomRow, store: Store, recent: RecentActions | None = None) -> tuple[Match, int]:
    """Rebuild the match of Barbu table ``row`` from its config and action log; returns it and the number
    of actions applied. ``recent`` is given the events of the last actions, as the table told them
    (``stamped``: who played for each seat from the log's ``by``, else the seat's owner in ``row``; no turn
    clock, which a restart starts again).

    Raises:
        ValueError: the config or the log does not replay (``IllegalAction``, ``RecordError``), naming the
            action number.
    """
    c = row.config
    match = Match.new(int(c["seed"]), Variants.from_dict(c["variants"]), parse_seat(c["first_declarer"]))
    bots = {parse_seat(s) for s, owner in row.players.items() if owner.startswith(BOT_PREFIX)}
    seq = 0
    for logged in store.actions(row.id):
        if logged.seat is None or logged.seq != seq + 1:
            raise BadLog(row.id, logged.seq, "has no seat or breaks the sequence")
        wire = dict(logged.action)
        by = wire.pop("by", None)
        try:
            events = match.apply(logged.seat, action_from_wire(wire))
        except IllegalAction as exc:
            raise BadLog(row.id, logged.seq, f"{logged.action}: {exc}") from None
        seq = logged.seq
        if recent is not None:
            controller = str(by) if by is not None else "bot" if logged.seat in bots else "player"
            recent.add(seq, stamped(events, seat_text(logged.seat), controller, None, None))
    return match, seq


def stamped(
    events: list[Event],
    actor: str,
    controller: str | None,
    turn_left_ms: int | None,
    idle_left_ms: int | None,
) -> list[Event]:
    """``events`` of an action of seat ``actor`` (a letter) as the table tells them: the events that tell the
    seat's own action (``ACTED``) say who played it (``by``: ``controller``, one of ``player``, ``bot``,
    ``stand-in``, ``timer``; version 2 always, version 1 only the last two; None: no ``by``), and ``turn``
    says the time left to the seat to move (``turn_left_ms``, ``idle_left_ms``: ``BarbuTable.turn_left_ms``)."""
    out = []
    for event in events:
        data = event.data
        if event.kind == "turn":
            data = data | {"turn_left_ms": turn_left_ms, "idle_left_ms": idle_left_ms}
        elif (
            controller is not None
            and event.kind in ACTED
            and actor in (data.get("seat"), data.get("declarer"))
        ):
            data = data | {"by": controller}
        out.append(Event(event.kind, data, event.to))
    return out


def _logged(action: Action, by: str | None) -> dict[str, Any]:
    """The action log's entry of ``action``: its wire map, with ``by`` (``timer``, ``stand-in``) when it was
    played for a human's seat."""
    wire = action_to_wire(action)
    return wire if by is None else wire | {"by": by}


def _refusal(exc: IllegalAction) -> ProtocolError:
    """The ``illegal`` refusal of an action the engine refused: its rule code and arguments."""
    return ProtocolError("illegal", str(exc), field="action", rule=exc.code, rule_args=exc.rule_args)


def _spec(text: str, field: str) -> str:
    """The canonical text of the policy spec ``text`` (``engine.barbu.spec``).

    Raises:
        ProtocolError: ``bad-message`` naming ``field``, with the engine's reason.
    """
    try:
        return str(parse_policy_spec(text))
    except PolicySpecError as exc:
        raise ProtocolError("bad-message", f"{field}: {exc}", field=field) from None


def default_policy(config: ServerConfig) -> str:
    """The canonical text of the server's default bot policy (``config.bot_policy``), as ``welcome`` tells it;
    the text as given when the engine reads no spec in it (``create-table`` then names the fault)."""
    try:
        return str(parse_policy_spec(config.bot_policy))
    except PolicySpecError:
        return config.bot_policy


def _nobody_online(player: str) -> bool:
    """The default ``BarbuTable.online``: no lobby tells who is connected (only a seat's own connection)."""
    return False


def _player(peer: Peer) -> str:
    if peer.player is None:
        raise ProtocolError("login-first", "log in first")
    return peer.player

"""A solitaire room: one player plays one deal through ``engine.solitaire``; others may watch.

Rules come from the engine (``docs/rules/solitaire.md``); this module routes. The player who opened the
room is its only player (``not-your-room`` for anyone else); watchers see the same state, which never shows a
face-down or stock card (``Game.state()``). Requests are applied one at a time under the room's lock: a
request is checked without changing the game (moves on a copy), its actions are appended to the store's
action log (with, when they end the game, its record and day's result, in the same transaction), and only
then applied; then the reply and a ``solitaire-state`` push (version 1) or ``update`` (version 2: one per request,
an event per logged action, ``{"event": "move", "move": M}`` and the like; the last ``MISSED_UPDATES_MAX``
kept for ``since``, rebuilt from the log on a restart) go out. A store that cannot write
(``StoreUnavailable``) leaves the room exactly as it was. Logged actions (``seat`` NULL) are
``{"action": "move", "move": M}``, ``{"action": "undo"}``, ``{"action": "redo"}`` and
``{"action": "resign"}``; the safe moves of ``auto`` are logged as single moves, all or none of them.
After a restart ``restore`` replays the log. A room left without a move is deleted from the store when its
player opens another or it expires (``ServerConfig.solitaire_idle``). A game ends won (at once), lost (resigned when no move is left)
or resigned; its ``solitaire/1`` record goes into the room's store row and, for the day's deal, a row into
the day's results table. The day's deal (``server.solitaire_daily``) is guarded: its seed is never sent while
its day is current, ``hint`` is refused on it (``no-hint``), and a player who finished it that day (or is
playing it in another room) may not open it again (``daily-played``); the results table keeps their first
finished game; and nobody but its player may ``watch`` it (or ask its ``snapshot``) until it is finished
(``daily-private``): a watcher would see the layout, then play the same deal knowing it.

Hints (``engine.solitaire.hints``) are worked out in the server's worker pool (``server.workers``, owner
``player:NAME``, budget ``config.hint_budget``), never in the event loop, by a task of the room: the request
returns at once and the ``hint`` reply comes when the answer does. One hint at a time per room (``busy``
while one is worked out); the task is cancelled when the player leaves or drops. The room keeps the winning
line of its last ``sure`` hint (``HintLine``), so the next hints along it are answered at once, and the
positions hints called lost, by key: one reached again by any order of moves is ``lost`` at once, and the
worker is given their keys so that its guess never moves into one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

from engine.barbu.events import Event
from engine.solitaire import GAMES, Game, IllegalMove, RecordError, new_game
from engine.solitaire.hints import Hint as Advice
from engine.solitaire.hints import HintLine, advise_record, position_key
from protocol import (
    AutoMoves,
    Error,
    GetHint,
    GetSnapshot,
    Hint,
    Message,
    Move,
    Ok,
    Players,
    ProtocolError,
    Redo,
    Resign,
    Snapshot,
    SolitaireState,
    Undo,
    Update,
    encode_frame,
)
from server.config import ServerConfig
from server.peer import Peer
from server.room import Room
from server.solitaire_daily import daily_secret, daily_seed, today
from server.store import BadLog, RoomRow, Store
from server.updates import RecentActions, ViewCache, visible
from server.winnable_finder import WinnableFinder, known_winnable
from server.workers import WorkerBusy, WorkerClosed, WorkerError, WorkerExpired

log = logging.getLogger(__name__)

#: The pseudo-seat of a solitaire room's player in snapshots and ``players`` pushes.
PLAYER = "player"


class SolitaireRoom(Room):
    """A solitaire room (room kind ``solitaire``).

    Args:
        player: the name of the player who opened it (the only one who may act).
        game: the engine game, dealt (and, when restored, replayed).
        daily: the UTC day (``YYYY-MM-DD``) whose deal this is, None for any other deal.
    """

    kind: ClassVar[str] = "solitaire"

    def __init__(
        self,
        store_id: int,
        name: str,
        store: Store,
        config: ServerConfig,
        *,
        player: str,
        game: Game,
        daily: str | None,
    ):
        super().__init__(store_id, name, store, config)
        self.player = player
        self.game = game
        self.daily = daily
        #: Dealt from a seed the solver proved winnable (a shipped list, ``engine.solitaire.winnable``, or
        #: one this server found, ``server.winnable_finder``).
        self.winnable = known_winnable(store, game)
        #: Dealt from a seed its player gave (``open-solitaire`` or ``new-deal`` with ``seed``): the player
        #: knows it, so watchers are told it too while the game is played (``_public_seed``).
        self.chosen = False
        self.peer: Peer | None = None
        self.seq = 0
        #: The events of the last actions, for a version 2 member coming back with ``since``.
        self.recent = RecentActions()
        #: The view last told (the same for the player and the watchers), for the next update's changes.
        self._views: ViewCache[None] = ViewCache(lambda _: self.view())
        self.result: str | None = None
        self._redoable = 0
        #: When the room was opened or last took an action (Unix seconds): unfinished rooms idle for
        #: ``config.solitaire_idle`` seconds are closed by the lobby.
        self.active = time.time()
        #: The winning line of the last ``sure`` hint.
        self.hints = HintLine()
        self._hint_task: asyncio.Task[None] | None = None

    # Creation and restoration ---------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        store: Store,
        config: ServerConfig,
        player: str,
        game: str,
        options: dict[str, Any],
        seed: int | None,
        winnable: bool = False,
        origin: str | None = None,
        chosen: bool = False,
        *,
        finder: WinnableFinder,
        random_deal: bool = False,
    ) -> SolitaireRoom:
        """Deal ``game`` with ``options`` from ``seed`` for ``player``; store the room (with ``origin``, where
        it was opened from: ``Room.origin``). ``seed`` None deals
        a random deal the solver proved winnable with ``winnable`` (``finder.pick``: a shipped list, or the
        seeds the server found), else the day's deal when ``options`` are all defaults and not ``random_deal``, else a random deal; a
        deal with a seed is never the day's deal. ``chosen``: the player gave ``seed``, so it is shown while
        the game is played.

        Raises:
            ProtocolError: ``unknown-game`` (field ``game``), ``unknown-option`` (field ``options``: a name
                the game does not have or a value it does not take), ``daily-played`` (field ``seed``: the
                player finished the day's deal of ``game`` today, or is playing it in another room),
                ``no-winnable-deals`` (field ``options``: ``winnable`` asked for options for which no deal
                is known winnable yet; the words say whether the server is looking), ``not-winnable`` (field
                ``seed``: ``winnable`` with a seed not proved winnable).
            StoreUnavailable: the store cannot write; no room was stored.
        """
        day = today()
        daily: str | None = None
        if winnable:
            new_room_game(game, options, 0)  # a bad game or option is refused as without winnable
            if seed is None:
                seed = finder.pick(game, options)
            elif not known_winnable(store, new_room_game(game, options, seed)):
                raise ProtocolError(
                    "not-winnable", f"deal {seed} is not one the solver proved winnable", field="seed"
                )
        if seed is None:
            if random_deal or new_room_game(game, options, 0).to_record()["options"]:
                seed = secrets.randbits(48)  # chosen here: hidden from watchers until the game is over
            else:
                check_daily_unplayed(store, player, game, day)
                seed, daily = daily_seed(daily_secret(store), game, day), day
        dealt = new_room_game(game, options, seed)
        stored = {
            "game": game,
            "options": dealt.options,
            "seed": dealt.seed,
            "daily": daily,
            "origin": origin,
            "chosen": chosen,
        }
        name = f"{GAMES[game].title} ({player})"
        store_id = store.create_room(cls.kind, name, stored, {PLAYER: player}, "playing")
        room = cls(store_id, name, store, config, player=player, game=dealt, daily=daily)
        room.origin = origin
        room.chosen = chosen
        return room

    @classmethod
    def restore(cls, row: RoomRow, store: Store, config: ServerConfig) -> SolitaireRoom:
        """Rebuild a room from its store row by replaying its action log (the player is away until back); a
        game whose log ends it (stopped before it was marked over) is finished now.

        Raises:
            ValueError: the config or a logged action does not replay (naming the action number).
        """
        room = cls.replayed(row, store, config)
        if room.result is not None:
            room._finish(room.result)
        return room

    @classmethod
    def replayed(cls, row: RoomRow, store: Store, config: ServerConfig) -> SolitaireRoom:
        """The room of store ``row`` with its whole action log replayed, writing nothing to the store
        (``barbu export`` reads a game in progress this way).

        Raises:
            ValueError: the config or a logged action does not replay (naming the action number).
        """
        c = row.config
        try:
            game = new_game(str(c["game"]), dict(c["options"]), seed=int(c["seed"]))
            player = row.players[PLAYER]
        except (RecordError, KeyError, TypeError) as exc:
            raise ValueError(f"room {row.id}: bad solitaire config {c}: {exc}") from None
        room = cls(row.id, row.name, store, config, player=player, game=game, daily=c.get("daily"))
        room.origin = c.get("origin")
        room.chosen = c.get("chosen") is True
        room.active = row.created
        for logged in store.actions(row.id):
            if logged.seq != room.seq + 1 or room.result is not None:
                raise BadLog(row.id, logged.seq, "breaks the sequence")
            try:
                room.result = room._perform(logged.action)
            except (IllegalMove, KeyError, TypeError) as exc:
                raise BadLog(row.id, logged.seq, f"{logged.action}: {exc}") from None
            room.seq = logged.seq
            room.recent.add(room.seq, [action_event(logged.action)])
            room.active = logged.at
        return room

    # Room interface --------------------------------------------------------------------------------

    @property
    def state(self) -> str:
        """``playing`` until the game is finished (won, lost or resigned), then ``over``."""
        return "playing" if self.result is None else "over"

    def summary(self) -> dict[str, Any]:
        """The lobby entry: room, kind, name, state, players, away, spectators, game, options, daily, winnable
        (dealt from a seed the solver proved winnable), seed (a seed the player gave at once; else nil
        until the game is over, and for the day's deal until its day is past), moves, result, watchable
        (false while the current day's deal is played: ``check_watchable``)."""
        return {
            "room": self.room_id,
            "kind": self.kind,
            "name": self.name,
            "state": self.state,
            "players": {PLAYER: self.player},
            "away": self._away(),
            "spectators": len(self.spectators),
            "game": self.game.name,
            "options": self.game.options,
            "daily": self.daily,
            "winnable": self.winnable,
            "seed": self._public_seed(),
            "moves": self.game.moves,
            "result": self.result,
            "watchable": self.watchable,
        }

    def view(self) -> dict[str, Any]:
        """The solitaire view (``docs/protocol.md`` "The solitaire view"): the same for player and watchers."""
        return {
            "game": self.game.name,
            "title": GAMES[self.game.name].title,
            "options": self.game.options,
            "player": self.player,
            "daily": self.daily,
            "winnable": self.winnable,
            "seed": self._public_seed(),
            "result": self.result,
            "moves": self.game.moves,
            "layout": self.game.state(),
            "legal": [] if self.result is not None else self.game.legal_moves(),
            "can_undo": self.result is None and self.game.moves > 0,
            "can_redo": self.result is None and self._redoable > 0,
        }

    def snapshot(self, peer: Peer | None, request_id: int | None, since: int | None = None) -> Snapshot:
        """The full state; ``seat`` is ``player`` for the player's connection, nil for a watcher; for a
        version 2 ``peer`` asking ``since`` an action number, with the updates missed since."""
        updates = None
        if peer is not None and peer.version >= 2 and since is not None:
            updates = self.recent.missed(self.room_id, since, self.seq, None)
        return Snapshot(
            updates=updates,
            id=request_id,
            room=self.room_id,
            kind=self.kind,
            name=self.name,
            seat=PLAYER if peer is not None and peer is self.peer else None,
            state=self.state,
            seq=self.seq,
            players={PLAYER: self.player},
            away=self._away(),
            variants=self.game.options,
            view=self.view(),
        )

    @property
    def watchable(self) -> bool:
        """Whether others may watch: not while the current day's deal is being played (a watcher would see
        its layout, then play the same deal knowing it); once finished, or once its day is past, they may."""
        return self.result is not None or self.daily is None or self.daily < today()

    def check_watchable(self, peer: Peer) -> None:
        """Refuse ``peer`` a look at the room while it is not ``watchable``, unless it is the player's.

        Raises:
            ProtocolError: ``daily-private`` (field ``room``).
        """
        if peer.player != self.player and not self.watchable:
            raise ProtocolError(
                "daily-private", "the day's deal cannot be watched until it is finished", field="room"
            )

    def holds_seat(self, player: str) -> bool:
        """Whether ``player`` opened this room and its game is not finished."""
        return player == self.player and self.result is None

    def plays_here(self, player: str) -> bool:
        """Whether ``player`` opened this room (finished or not)."""
        return player == self.player

    @property
    def idle(self) -> bool:
        """Finished, and neither the player nor a watcher is here."""
        return self.result is not None and self.peer is None and not self.spectators

    def stop(self) -> None:
        """Cancel the hint being worked out, if any (its worker job is dropped)."""
        self._cancel_hint()

    def discard(self) -> None:
        """The lobby drops the finished room; its store row is already ``over`` or ``closed``."""
        self.stop()

    async def join(self, peer: Peer, seat: str | None, request_id: int, since: int | None = None) -> None:
        """``sit``: the player comes back to their room (replies with the snapshot, with the updates missed
        ``since``, version 2).

        Raises:
            ProtocolError: ``not-your-room`` (someone else's room: watch it), ``room-over``.
        """
        async with self.lock:
            self.take_seat(peer, request_id, since)

    def take_seat(self, peer: Peer, request_id: int | None, since: int | None = None) -> None:
        """Make ``peer`` the player's connection and send it the snapshot (call under the lock).

        Raises:
            ProtocolError: ``not-your-room``, ``room-over``.
        """
        if peer.player != self.player:
            raise ProtocolError("not-your-room", f"room {self.room_id} is {self.player}'s: watch it instead")
        if self.result is not None:
            raise ProtocolError("room-over", f"the game in room {self.room_id} is over")
        self.peer = peer
        self.spectators.discard(peer)
        peer.rooms.add(self)
        peer.send(self.snapshot(peer, request_id, since))
        self._push_players()

    async def watch(self, peer: Peer, request_id: int | None, since: int | None = None) -> None:
        """Watch the room (the player's own connection just gets its snapshot); with the updates missed
        ``since`` (version 2).

        Raises:
            ProtocolError: ``daily-private`` (``check_watchable``), ``too-many-spectators``.
        """
        self.check_watchable(peer)
        if peer is self.peer:
            peer.send(self.snapshot(peer, request_id, since))
            return
        await super().watch(peer, request_id, since)

    async def leave(self, peer: Peer) -> None:
        """Stop watching, or stop playing for now (the game waits; ``sit`` or logging in again returns)."""
        async with self.lock:
            self._drop(peer)

    async def detach(self, peer: Peer) -> None:
        """The connection dropped: the game waits for the player."""
        async with self.lock:
            self._drop(peer)

    async def attach(self, peer: Peer, since: int | None = None) -> bool:
        """The player is back on ``peer`` (login or resume): give the room back with a snapshot push (with
        the updates missed ``since``, version 2)."""
        if not self.holds_seat(peer.player or ""):
            return False
        async with self.lock:
            self.take_seat(peer, None, since)
        return True

    async def handle(self, peer: Peer, request: Message) -> None:
        """``move``, ``undo``, ``redo``, ``auto``, ``resign``, ``hint`` and ``snapshot``.

        Raises:
            ProtocolError: ``not-your-room`` (not the player's connection), ``room-over``, ``illegal`` (the rule's
                short id in ``rule``, one of ``engine.solitaire.errors.RULE_CODES``: ``nothing-to-undo``,
                ``nothing-to-redo``, ``no-safe-move``, or the rule of ``docs/rules/solitaire.md`` a move
                breaks, e.g. ``column-build``; the words are in ``message``),
                ``no-hint`` (``hint`` on the day's deal), ``wrong-room`` (a table's request: ``chat``, ``sit``,
                ``add-bot``, ``act``, ...); the room is unchanged.
        """
        if isinstance(request, GetSnapshot):
            self.check_watchable(peer)
            peer.send(self.snapshot(peer, request.id, request.since))
        elif isinstance(request, GetHint):
            await self._hint(peer, request)
        elif isinstance(request, Move | Undo | Redo | Resign | AutoMoves):
            await self._act(peer, request)
        else:
            raise ProtocolError(
                "wrong-room",
                f"a solitaire room does not take {request.TYPE}: it is for a Barbu table",
                field="type",
            )

    def abandon(self) -> Callable[[], None]:
        """The player opens another room, or the game has waited too long: write this game's end as
        resigned (lost when no move is left), its record kept; a game without a move is deleted from the
        store instead, except the day's deal: leaving it resigns it even before the first move (one game a
        day counts, and an untouched deal left would otherwise be opened again fresh). Call under the room's lock, inside the caller's ``store.transaction()``; returns what
        finishes the game here, to call once that transaction is committed (watchers then get the final
        state, and the player's connection lets go of the room).

        Raises:
            StoreUnavailable: the store cannot write; nothing changed.
        """
        if self.result is not None:
            return lambda: None
        if self.seq == 0 and self.daily is None:
            self.store.delete_room(self.store_id)
            actions: list[dict[str, Any]] = []
            ending: _Ending | None = ("resigned", {}, 0, 0)
        else:
            actions = [{"action": "resign"}]
            ending = self._ending(actions, None)
            self._log(actions, ending)

        def finished() -> None:
            self._apply(actions, ending)
            if self.peer is not None:
                self.peer.rooms.discard(self)
                self.peer = None
            self._cancel_hint()
            self._push_state(actions)

        return finished

    # Play -----------------------------------------------------------------------------------------

    async def _act(self, peer: Peer, request: Move | Undo | Redo | Resign | AutoMoves) -> None:
        async with self.lock:
            self._check_player(peer)
            actions, probe = self._plan(request)
            ending = self._ending(actions, probe)
            with self.store.transaction():
                self._log(actions, ending)
            self._apply(actions, ending)
            peer.send(Ok(id=request.id))
            self._push_state(actions)

    def _plan(
        self, request: Move | Undo | Redo | Resign | AutoMoves
    ) -> tuple[list[dict[str, Any]], Game | None]:
        """The log entries ``request`` makes and, for moves, the position after them (on a copy of the game:
        nothing here changes).

        Raises:
            ProtocolError: ``illegal`` with the engine's rule (``no-safe-move``, ``nothing-to-undo``, ...).
        """
        if isinstance(request, AutoMoves | Move):
            probe = self.game.copy()
            if isinstance(request, Move):
                try:
                    probe.apply(request.move)
                except IllegalMove as exc:
                    raise ProtocolError(
                        "illegal", str(exc), field="move", rule=exc.code, rule_args=move_piles(exc.move)
                    ) from None
                return [{"action": "move", "move": request.move}], probe
            made = probe.auto_moves()
            if not made:
                raise ProtocolError(
                    "illegal", "no safe move to the foundations", rule="no-safe-move", rule_args={}
                )
            return [{"action": "move", "move": move} for move in made], probe
        if (isinstance(request, Undo) and self.game.moves == 0) or (
            isinstance(request, Redo) and self._redoable == 0
        ):
            refused = _nothing_to(request.TYPE)
            raise ProtocolError("illegal", str(refused), rule=refused.code, rule_args={})
        return [{"action": request.TYPE}], None

    def _ending(self, actions: list[dict[str, Any]], probe: Game | None) -> _Ending | None:
        """How ``actions`` (checked; ``probe`` the position after their moves) end the game, if they do: the
        result, the record, the cards home and the game's move counter, all as they will be once applied."""
        if actions[-1]["action"] == "resign":
            result = "lost" if self.game.over else "resigned"
            return result, self.game.to_record(), cards_home(self.game.state()), self.game.moves
        if probe is None or not probe.won:
            return None
        record = self.game.to_record()
        record["moves"] = record["moves"] + probe.history  # the copy's history holds only the new moves
        return "won", record, cards_home(probe.state()), self.game.moves + probe.moves

    def _log(self, actions: list[dict[str, Any]], ending: _Ending | None) -> None:
        """Append ``actions`` to the store and, when they end the game, its record and day's result: call
        inside a ``store.transaction()`` so that all or none are written.

        Raises:
            StoreUnavailable: the store cannot write.
        """
        for seq, action in enumerate(actions, self.seq + 1):
            self.store.append_action(self.store_id, seq, None, action)
        if ending is not None:
            self._store_finish(*ending)

    def _apply(self, actions: list[dict[str, Any]], ending: _Ending | None) -> None:
        """Apply ``actions``, logged already (they were checked: the engine cannot refuse them now)."""
        self._views.before([None])
        for action in actions:
            self._perform(action)
            self.seq += 1
            self.recent.add(self.seq, [action_event(action)])
        self.active = time.time()
        if ending is not None:
            self.result = ending[0]

    def _perform(self, action: dict[str, Any]) -> str | None:
        """Apply one logged ``action`` to the game; returns the result when it ends the game, else None.

        Raises:
            IllegalMove: the engine refuses the move, or there is nothing to undo or redo.
            KeyError: not an action of the log's format.
        """
        kind = action["action"]
        if kind == "move":
            self.game.apply(str(action["move"]))
            self._redoable = 0
        elif kind == "undo":
            if self.game.undo() is None:
                raise _nothing_to("undo")
            self._redoable += 1
        elif kind == "redo":
            if self.game.redo() is None:
                raise _nothing_to("redo")
            self._redoable -= 1
        elif kind == "resign":
            return "lost" if self.game.over else "resigned"
        else:
            raise KeyError(f"unknown solitaire action {kind!r}")
        return "won" if self.game.won else None

    def _finish(self, result: str) -> None:
        """A restored game whose log ends it: store its end now (``_store_finish``) and mark it finished.

        Raises:
            StoreUnavailable: the store cannot write (the server does not start).
        """
        with self.store.transaction():
            self._store_finish(result, self.game.to_record(), cards_home(self.game.state()), self.game.moves)
        self.result = result

    def _store_finish(self, result: str, record: dict[str, Any], home: int, moves: int) -> None:
        """Store the finished game's ``record`` and, for the day's deal, its row in the results table
        (``home`` cards on the foundations; ``moves`` the game's own counter, the one the player saw:
        ``moves`` of the view; only the player's first finished game of the day's deal stays).

        Raises:
            StoreUnavailable: the store cannot write.
        """
        self.store.set_status(self.store_id, "over", record)
        if self.daily is not None:
            self.store.add_result(
                self.store_id, self.game.name, self.player, result == "won", home, moves, day=self.daily
            )

    async def _hint(self, peer: Peer, request: GetHint) -> None:
        """Answer from the kept winning line at once, or start the task that asks a worker.

        Raises:
            ProtocolError: ``not-your-room``, ``room-over``, ``no-hint`` (the day's deal), ``busy`` (a hint
                is being worked out for this room already).
        """
        async with self.lock:
            self._check_player(peer)
            if self.daily is not None:
                # The solver sees the face-down cards: on the day's deal that would be help nobody else had.
                raise ProtocolError("no-hint", "no hints on the day's deal: everyone plays it unaided")
            history, key = self.game.history, position_key(self.game)
            known = self.hints.known(history, key)
            if known is not None:
                peer.send(self._hint_reply(request.id, known, self.seq))
                return
            if self._hint_task is not None and not self._hint_task.done():
                raise ProtocolError("busy", "a hint for this game is being worked out: wait for it")
            record, seq = self.game.to_record(), self.seq
            self._hint_task = asyncio.get_running_loop().create_task(
                self._work_out_hint(peer, request.id, record, history, key, seq)
            )

    async def _work_out_hint(
        self,
        peer: Peer,
        request_id: int,
        record: dict[str, Any],
        history: list[str],
        key: Hashable,
        seq: int,
    ) -> None:
        """Ask a worker for the hint of position ``seq`` (``record``, key ``key``), keep its line (or its
        ``lost``) and reply; any failure is
        an ``error`` reply to the request. When the player has moved on along the line meanwhile, the reply
        is the line's move for the position now."""
        try:
            advice = await self.workers.run(
                f"player:{self.player}",
                advise_record,
                record,
                self.hints.lost_keys(),
                budget=self.config.hint_budget,
                group=f"address:{peer.address}",  # throwaway names from one place share one turn
            )
        except asyncio.CancelledError:
            peer.send(Error(id=request_id, code="not-your-room", message="you left the room before the hint"))
            raise
        except WorkerExpired as exc:  # queued past its longest wait: said at once, with a fair pause
            message = f"no hint now: {exc}; ask again in a moment"
            peer.send(Error(id=request_id, code="busy", message=message, retry_after=exc.waited))
            return
        except (WorkerBusy, WorkerClosed) as exc:
            peer.send(Error(id=request_id, code="busy", message=f"no hint now: {exc}; ask again shortly"))
            return
        except WorkerError as exc:
            peer.send(Error(id=request_id, code="busy", message=f"no hint this time: {exc}"))
            return
        except Exception:
            log.exception("room %s: the hint failed", self.room_id)
            peer.send(Error(id=request_id, code="internal", message="the server failed on this hint"))
            return
        self.hints.keep(history, key, advice)
        if self.seq != seq:
            now = self.hints.known(self.game.history, position_key(self.game))
            if now is not None:
                advice, seq = now, self.seq
        peer.send(self._hint_reply(request_id, advice, seq))

    def _hint_reply(self, request_id: int, advice: Advice, seq: int) -> Hint:
        return Hint(
            id=request_id,
            room=self.room_id,
            move=advice.move,
            status=advice.status.value,
            seq=seq,
            undo=advice.undo,
            from_start=advice.from_start,
        )

    def _cancel_hint(self) -> None:
        if self._hint_task is not None and not self._hint_task.done():
            self._hint_task.cancel()
        self._hint_task = None

    def _check_player(self, peer: Peer) -> None:
        if peer is not self.peer:
            raise ProtocolError(
                "not-your-room", f"room {self.room_id} is {self.player}'s game: you may watch"
            )
        if self.result is not None:
            raise ProtocolError("room-over", f"the game in room {self.room_id} is over ({self.result})")

    # Members --------------------------------------------------------------------------------------

    def _drop(self, peer: Peer) -> None:
        self.spectators.discard(peer)
        peer.rooms.discard(self)
        if peer is self.peer:
            self.peer = None
            self._cancel_hint()
            self._push_players()

    def _members(self) -> list[Peer]:
        return ([] if self.peer is None else [self.peer]) + list(self.spectators)

    def _away(self) -> list[str]:
        return [PLAYER] if self.peer is None and self.result is None else []

    def _public_seed(self) -> int | None:
        """The seed when it gives nothing away: a seed its player gave (``chosen``: they know it, so a
        watcher learns nothing the player does not have), or a finished game, except the day's deal while
        its day is current (others are still playing it). A seed the server chose (a random or winnable
        deal, the day's) stays secret while the game is played: it would give the hidden cards away."""
        if self.chosen:
            return self.game.seed
        if self.result is None or (self.daily is not None and self.daily >= today()):
            return None
        return self.game.seed

    def _push_state(self, actions: list[dict[str, Any]]) -> None:
        """Tell every member the state after ``actions`` (logged and applied): a ``solitaire-state`` to a
        version 1 connection, an ``update`` with an event per action to a version 2 one (each encoded once)."""
        view = self.view()
        changes = self._views.after([None])[None]  # always: the next action's changes are from this view
        frames: dict[int, bytes] = {}
        for member in self._members():
            version = min(member.version, 2)
            if version not in frames:
                if version < 2:
                    message: Message = SolitaireState(room=self.room_id, seq=self.seq, view=view)
                else:
                    events = visible([action_event(action) for action in actions], None)
                    message = Update(room=self.room_id, seq=self.seq, events=events, view=changes)
                frames[version] = encode_frame(message.to_wire())
            member.send_frame(frames[version])

    def _push_players(self) -> None:
        push = Players(room=self.room_id, state=self.state, players={PLAYER: self.player}, away=self._away())
        frame = encode_frame(push.to_wire())
        for member in self._members():
            member.send_frame(frame)


#: How logged actions end a game: its result, record, cards home and move counter (``_store_finish``).
_Ending = tuple[str, dict[str, Any], int, int]


def action_event(action: dict[str, Any]) -> Event:
    """The public event that tells logged solitaire ``action`` (``{"action": "move", "move": M}`` ->
    ``{"event": "move", "move": M}``; ``undo``, ``redo``, ``resign`` likewise)."""
    return Event(str(action["action"]), {k: v for k, v in action.items() if k != "action"})


def move_piles(move: str) -> dict[str, Any]:
    """The piles a refused move names, from its notation (``docs/formats.md``), for the refusal's ``args``:
    ``{"move": "t3>t5*2", "from": "t3", "to": "t5", "count": 2}``; a pyramid pair ``p7.1+w`` gives
    ``{"move", "piles": ["p7.1", "w"]}``; any other text (``s``, a typo) just ``{"move"}``. The rule itself is
    the refusal's ``rule`` code."""
    args: dict[str, Any] = {"move": move}
    if ">" in move:
        source, _, target = move.partition(">")
        target, _, count = target.partition("*")
        args["from"], args["to"] = source, target
        if count.isdigit():
            args["count"] = int(count)
    elif "+" in move:
        args["piles"] = move.split("+")
    return args


def _nothing_to(kind: str) -> IllegalMove:
    """The engine's refusal of an ``undo`` or ``redo`` with nothing to take back or make again."""
    return IllegalMove(kind, f"nothing to {kind}", code=f"nothing-to-{kind}")


def check_daily_unplayed(store: Store, player: str, game: str, day: str) -> None:
    """Refuse ``player`` a new game of ``game``'s deal of ``day``: they finished it already (only the first
    finished game counts), or play it in a room still open.

    Raises:
        ProtocolError: ``daily-played`` (field ``seed``).
    """
    title = GAMES[game].title if game in GAMES else game
    if store.has_result(day, game, player):
        raise ProtocolError(
            "daily-played",
            f"{player} has played the {day} deal of {title}: one game a day counts; give a seed for another deal",
            field="seed",
        )
    for row in store.rooms(SolitaireRoom.kind, ("playing",)):
        c = row.config
        if c.get("daily") == day and c.get("game") == game and row.players.get(PLAYER) == player:
            raise ProtocolError(
                "daily-played",
                f"{player} is playing the {day} deal of {title} in room {row.id}: sit there to go on",
                field="seed",
            )


def new_room_game(game: str, options: dict[str, Any], seed: int) -> Game:
    """``engine.solitaire.new_game`` with its refusals as protocol errors.

    Raises:
        ProtocolError: ``unknown-game`` (field ``game``), ``unknown-option`` (field ``options``),
            ``bad-message`` (field ``seed``).
    """
    try:
        return new_game(game, options, seed=seed)
    except RecordError as exc:
        if exc.field == "game":
            raise ProtocolError("unknown-game", str(exc), field="game") from None
        if exc.field.startswith("options"):
            raise ProtocolError("unknown-option", str(exc), field="options") from None
        raise ProtocolError("bad-message", str(exc), field="seed") from None


def cards_home(layout: dict[str, Any]) -> int:
    """The score of a position: cards on the foundations (Pyramid: cards removed)."""
    if "foundations" in layout:
        return sum(len(pile) for pile in layout["foundations"])
    return int(layout["removed"])

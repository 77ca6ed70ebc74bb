"""The lobby: sessions (hello, login, resume), the list of open rooms, and routing of room requests.

``ROOM_KINDS`` maps a store ``kind`` to its ``Room`` class, used to rebuild rooms after a restart; a new room
kind adds its class there and its creation request to ``Lobby.handle`` (``open-solitaire`` and ``new-deal``
create solitaire rooms; ``list-rooms`` also sends the day's deals with their results).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import math
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from engine.solitaire.catalogue import GAMES
from protocol import (
    FEATURES,
    REQUEST_LIMITS,
    SUPPORTED_VERSIONS,
    Act,
    Chat,
    CreateTable,
    Games,
    GetHint,
    GetReplay,
    GetSnapshot,
    GetStandings,
    Hello,
    Leave,
    ListGames,
    ListMatches,
    ListRooms,
    LoggedIn,
    Login,
    Message,
    NewDeal,
    Ok,
    OpenSolitaire,
    ProtocolError,
    Rematch,
    RematchOpened,
    Resume,
    RoomCreated,
    Rooms,
    Sit,
    Watch,
    Welcome,
    prepacked,
)
from protocol.schema import BLANKS
from server.barbu_table import BOT_PREFIX, BarbuTable, default_policy
from server.config import ServerConfig
from server.durability import GroupCommit
from server.identity import Hasher
from server.lookalike import skeleton
from server.peer import Peer
from server.ratelimit import AddressBudgets, EventWindow, Throttle
from server.replays import FinishedMatches, finished_row
from server.room import Room
from server.solitaire_daily import daily_table, today
from server.solitaire_room import SolitaireRoom
from server.standings import StandingsKeeper
from server.store import RoomRow, Store, StoreUnavailable
from server.tokens import revoke_if_password_changed
from server.unrestorable import RESTORE_ERRORS, RESTORED, Unrestorable
from server.waiting_seats import WaitingSeats
from server.winnable_finder import WinnableFinder
from server.workers import WorkerPool, unavailable

log = logging.getLogger(__name__)
#: Store refusals of ``Lobby.touch_tokens``, logged once a second at most.
_untouched = Throttle(1.0)

SERVER_NAME = "barbu"
#: Addresses whose wrong passwords are remembered at most (the forgotten ones are those with none lately).
MAX_GUARDED_ADDRESSES = 10_000
ROOM_KINDS: dict[str, type[Room]] = {BarbuTable.kind: BarbuTable, SolitaireRoom.kind: SolitaireRoom}
#: Seconds between two deletions of the players whose tokens expired (``Lobby.forget_players``), and how
#: many one statement deletes at most (a store with a backlog of them does not stall everyone at once).
FORGET_EVERY = 3600.0
FORGET_BATCH = 500
#: Seconds between two notes in the store that the players connected still use their tokens
#: (``Lobby.touch_tokens``): a server killed mid-connection leaves their tokens at most this stale.
TOUCH_EVERY = 3600.0
#: Seconds a cached lobby listing is used at most, changed or not: it also holds what time alone changes
#: (an empty table expiring, a finished day's deal showing its seed, the day's results tables).
LISTING_MAX_AGE = 5.0
#: Requests that leave the cached lobby listing as it is: they change no room's summary, or (``act``) the
#: table says so itself when they do (a new hand, the match over: ``Room.listing_changed``).
READ_ONLY = (
    *(Hello, ListRooms, GetSnapshot, GetHint, Chat, Act),
    *(ListGames, ListMatches, GetReplay, GetStandings),
)


@dataclass(frozen=True)
class Listing:
    """The lobby listing as of ``made`` (``time.monotonic()``) on ``day``: every open room's summary,
    newest first, the rooms (by index) where each player holds a seat, the ``daily`` tables, and
    ``reply(id)``: the encoded ``rooms`` reply for a player who holds no seat."""

    made: float
    day: str
    summaries: list[dict[str, Any]]
    seated: dict[str, list[int]]
    daily: list[dict[str, Any]]
    reply: Callable[[int], bytes]


#: How a bot's name begins, as the clients show it (``bot_like``).
BOT_LOOK = "bot"
#: The longest table name (``create-table.name``), which a rematch's ``(2)`` must fit within too.
NAME_LIMIT: int = next(f for f in fields(CreateTable) if f.name == "name").metadata["max_len"]
#: A rematch's name: the first match's name and the match's number (``friday (2)``).
_NUMBERED = re.compile(r"(.+) \((\d+)\)")
#: What may not stand at either end of a name: spaces, and the letters that draw nothing (``BLANKS``).
_EDGES = " \t" + "".join(BLANKS)


def padded(name: str) -> bool:
    """Whether ``name`` has spaces or blank letters (``BLANKS``) at either end (player and table names)."""
    return name != name.strip(_EDGES)


def fold(name: str) -> str:
    """``name`` as compared with other names: NFKC (full-width and other compatibility forms folded) and
    case-folded, so ``ＦＲＩＤＡＹ``, ``Friday`` and ``friday`` are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


@functools.lru_cache(maxsize=1 << 14)
def likeness(name: str) -> frozenset[str]:
    """What ``name`` looks like: its UTS #39 skeleton as written and case-folded (``fold``); two names
    sharing one would be taken for one another."""
    return frozenset((skeleton(name), skeleton(fold(name))))


@functools.cache
def _small_capital(char: str) -> str:
    """A small capital (``ʙ``, ``ᴛ``: drawn as a lower-case letter, and not in Unicode's confusables) as its
    lower-case letter; any other character as it is."""
    letter = unicodedata.name(char, "").removeprefix("LATIN LETTER SMALL CAPITAL ")
    return letter.lower() if len(letter) == 1 else char


def bot_like(name: str) -> bool:
    """Whether ``name`` would pass for a bot as the clients show one (``bot:random`` in the protocol,
    ``bot (random)`` in the browser, ``bot`` and ``a bot`` in the terminal): the way it looks (case-folded,
    by its confusable skeleton ``likeness``, small capitals as their letters, spaces ignored) is ``bot`` or
    ``abot``, or begins with ``bot`` followed by anything but a letter (``bot:``, ``bot(``, ``bot2``;
    ``botany`` passes)."""
    looks = {fold(name), *likeness(name)}
    looks |= {fold(look) for look in looks}  # a skeleton may map to capitals (``0`` -> ``O``)
    for look in looks:
        plain = "".join(_small_capital(c) for c in look.replace(" ", ""))
        if plain in (BOT_LOOK, "a" + BOT_LOOK):
            return True
        if plain.startswith(BOT_LOOK) and not plain[len(BOT_LOOK)].isalpha():
            return True
    return False


def _player(peer: Peer) -> str:
    """The player of a logged-in ``peer`` (the lobby checks the login before any room request)."""
    assert peer.player is not None
    return peer.player


def check_player_name(name: str) -> str:
    """The player name to use for ``name``: its NFC form (an accent typed as a separate mark, as macOS
    input gives it, is one letter). Refuses outer spaces or blank letters, unprintable characters,
    compatibility look-alikes (full-width letters), and the reserved ``bot:`` prefix.

    Raises:
        ProtocolError: ``bad-message`` on field ``name``.
    """
    name = unicodedata.normalize("NFC", name)
    if padded(name) or not name.isprintable():
        raise ProtocolError("bad-message", "name: no spaces or blank letters at either end", field="name")
    if unicodedata.normalize("NFKC", name) != name:  # full-width and other look-alike forms
        raise ProtocolError(
            "bad-message", "name: full-width or other compatibility letters are not allowed", field="name"
        )
    if bot_like(name):
        raise ProtocolError(
            "bad-message",
            "name: must not look like a bot's (bot, a bot, bot (random), bot:...; the clients show bots so)",
            field="name",
        )
    return name


class NameLooks:
    """Names indexed by what they look like (``likeness``), so that a login finds a look-alike without going
    through every name: a login storm would otherwise cost the square of the names."""

    def __init__(self) -> None:
        self._looks: dict[str, set[str]] = {}

    def add(self, name: str) -> None:
        """Index ``name``."""
        for look in likeness(name):
            self._looks.setdefault(look, set()).add(name)

    def discard(self, name: str) -> None:
        """Drop ``name`` from the index (nothing when it is not there)."""
        for look in likeness(name):
            names = self._looks.get(look)
            if names is not None:
                names.discard(name)
                if not names:
                    del self._looks[look]

    def looking_like(self, look: str) -> set[str]:
        """The names one of whose ``likeness`` is ``look``."""
        return self._looks.get(look, set())


class OnlinePlayers(dict[str, Peer]):
    """The connected players (name to connection), indexed by what their names look like (``NameLooks``)."""

    def __init__(self) -> None:
        super().__init__()
        self.looks = NameLooks()

    def __setitem__(self, name: str, peer: Peer) -> None:
        super().__setitem__(name, peer)
        self.looks.add(name)

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self.looks.discard(name)

    def looking_like(self, look: str) -> set[str]:
        """The connected players one of whose ``likeness`` is ``look``."""
        return self.looks.looking_like(look)


def _address_window(windows: dict[Any, EventWindow], key: Any, count: int, span: float) -> EventWindow:
    """The ``EventWindow`` (``count`` events in ``span`` seconds) of ``key`` (an address, or a kind of event
    and an address) in ``windows``, made when missing; past ``MAX_GUARDED_ADDRESSES`` keys the empty
    windows are forgotten first."""
    window = windows.get(key)
    if window is None:
        if len(windows) >= MAX_GUARDED_ADDRESSES:
            for old in [k for k, w in windows.items() if w.empty()]:
                del windows[old]
        window = windows[key] = EventWindow(count, span)
    return window


def _people(row: RoomRow) -> tuple[set[str], str | None]:
    """The humans holding a seat at the stored table of ``row`` (seat letter -> name; bots left out) and its
    host (None: not known)."""
    owners = {name for name in row.players.values() if name and not name.startswith(BOT_PREFIX)}
    host = row.config.get("host")
    return owners, host if isinstance(host, str) else None


class Lobby:
    """All rooms and logged-in players of one server.

    Args:
        store: the server's store.
        config: the server's settings.
        workers: the server's pool for CPU-heavy work, handed to every room (None: a pool refusing all jobs).
        durable: the store's group commit, which every connection's frames wait for (None: the store
            fsyncs each write itself).
    """

    def __init__(
        self,
        store: Store,
        config: ServerConfig,
        workers: WorkerPool | None = None,
        durable: GroupCommit | None = None,
    ):
        self.store = store
        self.durable = durable
        #: The request budgets of IP addresses, each shared by all the address's connections.
        self.budgets = AddressBudgets(config.address_rate, config.address_burst)
        self.config = config
        self.workers = unavailable() if workers is None else workers
        #: Winnable seeds for ``open-solitaire`` and ``new-deal``, searched for where no list is shipped.
        self.finder = WinnableFinder(store, self.workers, config)
        self.rooms: dict[str, Room] = {}
        self.online = OnlinePlayers()
        # ("password", "secret" or "token", address) -> its recent wrong passwords, secrets or resume tokens
        self._wrong_guesses: dict[tuple[str, str], EventWindow] = {}
        # Personal secrets are hashed in threads, a few at once, a bounded queue waiting.
        self.hasher = Hasher(max_waiting=config.max_hashes_waiting)
        self._hashes: dict[str, EventWindow] = {}  # address -> the secrets its logins had hashed lately
        #: The names that claimed a personal secret (read at ``restore``), for the look-alike check: a name
        #: forgotten since (``forget_players``) is dropped when a look-alike finds it gone from the store.
        self.claimed = NameLooks()
        self.finished = FinishedMatches(store)  # finished matches' summaries and replays, kept
        self.standings = StandingsKeeper(store)  # the standings across finished matches, kept
        #: The seats humans hold at waiting tables, by player and by address (their caps).
        self.waiting_seats = WaitingSeats(config.max_waiting_seats, config.max_waiting_seats_per_address)
        self._origin_secret: bytes | None = None  # the key of ``address_key``, kept in the store
        self._deals: dict[str, EventWindow] = {}  # address -> its solitaire rooms opened lately
        self.closing = False
        self._listing: Listing | None = None
        #: Rooms of the store that did not restore at start-up (room id -> why), kept out of the lobby.
        self.unrestorable: dict[str, Unrestorable] = {}
        #: The stored rows of the Barbu tables among them (room id -> row): their players' seats, their hosts
        #: and their names stay taken as a loaded table's do (``_check_unclaimed``, ``_name_twin``,
        #: ``create-table``), or a login could claim a seat of a table that comes back at the next start.
        self.kept_out: dict[str, RoomRow] = {}

    def restore(self) -> None:
        """Rebuild every waiting or playing room of the store (after a restart); a room whose log does not
        replay is logged and kept out of the lobby as it is in the store (``unrestorable``). A finished
        table whose rematch (``rematch_of`` in the new table's config) still waits for its players comes back
        too, pointing there (``rematch``). Resume tokens handed out under another server password are revoked
        first."""
        revoke_if_password_changed(self.store, self.config.password)
        for name in self.store.claimed_players():
            self.claimed.add(name)
        rematches: dict[int, str] = {}  # finished table's id -> the waiting table of its rematch
        for row in self.store.rooms(statuses=RESTORED):
            room = self._restore_row(row)
            if room is not None and row.status == "waiting" and row.config.get("rematch_of"):
                rematches[int(row.config["rematch_of"])] = room.room_id
        for old, new in rematches.items():
            row = self.store.room(old)
            before = self._restore_row(row) if row.status == "over" else None
            if isinstance(before, BarbuTable):
                before.rematch = new
        if self.rooms:  # a fresh store says nothing
            log.info("restored %d rooms", len(self.rooms))

    def address_key(self, peer: Peer) -> str:
        """What the store keeps of ``peer``'s IP address as a room's ``origin``: a keyed hash (HMAC-SHA256,
        its key drawn once and kept in the store's ``meta``), so per-address caps hold after a restart while
        the store holds no address.

        Raises:
            StoreUnavailable: the key is not drawn yet and the store cannot write it.
        """
        if self._origin_secret is None:
            self._origin_secret = bytes.fromhex(self.store.meta_once("origin-secret", secrets.token_hex(32)))
        return hmac.new(self._origin_secret, peer.address.encode(), "sha256").hexdigest()[:32]

    def _restore_row(self, row: RoomRow) -> Room | None:
        """Rebuild the room of ``row`` and list it; None (the room kept out: ``_rebuild``) when its log does
        not replay."""
        room = self._rebuild(row)
        if room is not None:
            self.add_room(room)
        return room

    def _rebuild(self, row: RoomRow) -> Room | None:
        """The room of ``row`` rebuilt from the store, not listed; None when its config or log does not
        replay: one WARNING says which room and why, the store is left as it is, and (but a finished table)
        the room is kept in ``unrestorable``, for a request naming it to be told so."""
        kind = ROOM_KINDS.get(row.kind)
        try:
            if kind is not None:
                return kind.restore(row, self.store, self.config)
            problem = Unrestorable.no_kind(row)
        except RESTORE_ERRORS as exc:
            problem = Unrestorable.of(row, exc)
        log.warning(
            "room %d (%s, %s) cannot be restored now, %s: %s; it is kept as it is in the store, out of the "
            "lobby, and restored at a start where it replays (barbu store check lists such rooms)",
            row.id,
            row.kind,
            row.status,
            problem.where(),
            problem.error,
        )
        if row.status in RESTORED:
            self.unrestorable[str(row.id)] = problem
            if row.kind != SolitaireRoom.kind:  # a solitaire room is its player's alone: not guarded
                self.kept_out[str(row.id)] = row
        return None

    def add_room(self, room: Room) -> None:
        """List ``room`` and give it the server's worker pool (before any of its tasks runs: no ``await``
        between a room's creation and this), the hook that keeps the cached lobby listing fresh, and (a
        table) the counts of seats at waiting tables and who is connected (a match waits for its players)."""
        room.workers = self.workers
        room.listing_changed = self.listing_changed
        if isinstance(room, BarbuTable):
            room.waiting_seats = self.waiting_seats
            room.online = self.online.__contains__
        self.rooms[room.room_id] = room
        self.listing_changed()

    def stop(self) -> None:
        """Server shutdown: note that the players connected used their tokens until now, stop every room's
        timers; later disconnects change nothing."""
        self.touch_tokens(list(self.online))
        self.closing = True
        self.finder.stop()
        for room in self.rooms.values():
            room.stop()

    async def handle(self, peer: Peer, request: Message) -> None:
        """Carry out one request from ``peer``, sending its reply (and any pushes) to it.

        Raises:
            ProtocolError: the request is refused; nothing changed.
        """
        if not isinstance(request, READ_ONLY):
            self.listing_changed()
        if isinstance(request, Hello):
            self._hello(peer, request)
            return
        if not peer.greeted:
            raise ProtocolError("hello-first", "send hello first")
        if isinstance(request, Login | Resume):
            await self._login(peer, request)
            return
        if peer.player is None:
            raise ProtocolError("login-first", "log in (or resume) first")
        if peer.unconfirmed_token is not None:
            self._confirm_token(peer)
        if isinstance(request, Chat) and not peer.may_chat(self.config.chat_burst, self.config.chat_window):
            raise ProtocolError(
                "slow-down",
                f"Too many chat messages: at most {self.config.chat_burst} in {self.config.chat_window:g} seconds;"
                " wait a moment, then send again",
            )
        if isinstance(request, ListRooms):
            listing = self._current_listing()
            if peer.player in listing.seated:
                peer.send(Rooms(id=request.id, rooms=self._listed(listing, peer.player), daily=listing.daily))
            else:  # the common case, and a flood's: the reply is encoded once per listing
                peer.send_frame(listing.reply(request.id))
        elif isinstance(request, CreateTable):
            self._create_table(peer, request)
        elif isinstance(request, OpenSolitaire):
            await self._open_solitaire(
                peer,
                request.id,
                request.game,
                request.options,
                request.seed,
                request.winnable,
                chosen=request.seed is not None,
                random=request.random,
            )
        elif isinstance(request, ListGames):
            peer.send(Games(id=request.id, games=[info.to_dict() for info in GAMES.values()]))
        elif isinstance(request, ListMatches):
            peer.send_frame(self.finished.listing_reply(self.config.max_listed)(request.id))
        elif isinstance(request, GetStandings):
            peer.send_frame(self.standings.reply()(request.id))
        elif isinstance(request, GetReplay):
            owner, group = f"player:{peer.player}", f"address:{peer.address}"
            reply = await self.finished.reply(request.match, self.workers, owner, group)
            peer.send_frame(reply(request.id))
        else:
            room_id = getattr(request, "room", None)
            room = self.rooms.get(room_id) if isinstance(room_id, str) else None
            if room is None and isinstance(request, Rematch):
                finished = self._finished_table(peer, request.room)
                if finished is not None:
                    self._rematch(peer, finished, request)
                    self.add_room(finished)  # listed again while its rematch waits: old links find it
                    return
            if room is None and isinstance(room_id, str) and room_id in self.unrestorable:
                problem = self.unrestorable[room_id]
                raise ProtocolError(
                    "room-unavailable",
                    # Where, not what: the stored action and the parser's words are the operator's (the log,
                    # `barbu store check`), not every logged-in player's.
                    f"room {room_id} cannot be restored now ({problem.where()}); the server keeps it for when "
                    "it can",
                    field="room",
                )
            if room is None:
                raise ProtocolError("no-such-room", f"no open room {room_id!r}", field="room")
            await self._room_request(peer, room, request)
            if isinstance(request, Chat):  # said: a line refused above counts for nothing
                peer.chat_said()

    async def disconnected(self, peer: Peer) -> None:
        """``peer``'s connection is gone: each of its rooms holds or frees its seat, and a table whose seat
        the player had left (a stand-in plays it) pauses if none of its players is connected any more."""
        if self.closing:
            return
        self.listing_changed()
        player = peer.player
        gone = player is not None and self.online.get(player) is peer
        if player is not None and gone:
            self.touch_tokens([player])  # the token's unused time starts now, not at its login
            del self.online[player]
        rooms = list(peer.rooms)
        for room in rooms:
            await room.detach(peer)
            self._sweep(room)
        if player is None or not gone:
            return
        for room in list(self.rooms.values()):
            if isinstance(room, BarbuTable) and room not in rooms and room.holds_seat(player):
                await room.presence_changed(player)

    # Sessions -------------------------------------------------------------------------------------

    def _hello(self, peer: Peer, request: Hello) -> None:
        if request.version not in SUPPORTED_VERSIONS:
            speaks = ", ".join(str(v) for v in sorted(SUPPORTED_VERSIONS))
            raise ProtocolError(
                "version",
                f"protocol version {request.version} is not supported (speaks {speaks})",
                field="version",
            )
        peer.greeted = True
        peer.version = request.version
        peer.send(
            Welcome(
                id=request.id,
                version=request.version,
                server=SERVER_NAME,
                limits=REQUEST_LIMITS.to_wire(),
                features=list(FEATURES),
                password=self.config.password is not None,
                bot_policy=default_policy(self.config),
                idle_turn=self.config.idle_turn,
            )
        )

    def _name_twin(self, name: str) -> str | None:
        """A name taken here that looks like ``name``: the same but for case (``Alice`` for ``alice``), or the
        same confusable skeleton (``lookalike``: a Cyrillic ``аlice``, ``bi11`` for ``bill``). Taken: a player
        connected, holding a Barbu seat or hosting a table (one kept out of the lobby too: ``kept_out``), or
        a name claimed with a personal secret (``claimed``), so that nobody takes the look of an absent
        player's name. At a table the two would pass for one another."""
        looks = likeness(name)
        twins = {p for look in looks for p in self.online.looking_like(look) if p != name}
        for room in self.rooms.values():
            if isinstance(room, BarbuTable) and room.state != "over":
                owners = (seat.owner for seat in room.seats if seat.owner and not seat.is_bot)
                twins.update(p for p in owners if p != name and likeness(p) & looks)
        for row in self.kept_out.values():
            people, host = _people(row)
            twins.update(p for p in (*people, host) if p and p != name and likeness(p) & looks)
        for p in {p for look in looks for p in self.claimed.looking_like(look) if p != name}:
            if self.store.player_secret(p) is None:  # forgotten since: its name is free
                self.claimed.discard(p)
            else:
                twins.add(p)
        return min(twins, default=None)

    def _check_guessing(self, peer: Peer, field: str) -> None:
        """Refuse a password login (``field`` ``password``), a login with a personal secret (``secret``) or a
        ``resume`` (``token``) from an address that sent ``max_wrong_passwords`` wrong ones lately: many
        connections at once would otherwise each get their guesses. A password or a secret waits even when
        right (people choose them, and guesses must stop); ``resume`` calls this only for a wrong token, so a
        player's own token is always accepted."""
        guard = self._wrong_guesses.get((field, peer.address))
        if guard is not None and guard.full():
            wait = max(1, math.ceil(guard.retry_after()))
            what, again = {
                "password": ("passwords", "password logins"),
                "secret": ("personal passwords", "logins with one"),
            }.get(field, ("resume tokens", "resumes"))
            raise ProtocolError(
                "slow-down",
                f"too many wrong {what} from this address: {again} resume in {wait} s",
                field=field,
                retry_after=wait,
            )

    def _wrong_guess_from(self, peer: Peer, field: str) -> None:
        """Count a wrong password, personal secret or resume token (``field``) from ``peer``'s address."""
        config = self.config
        key = (field, peer.address)
        _address_window(
            self._wrong_guesses, key, config.max_wrong_passwords, config.wrong_password_window
        ).add()

    def _confirm_token(self, peer: Peer) -> None:
        """``peer`` sent a request after the ``logged-in`` reply of its ``resume``: the fresh token reached
        its player, so the token that resume replaced stops working (``Store.confirm_token``); whoever holds
        a copy of the older no longer takes the player over. A store that cannot write leaves it for the
        next request."""
        token = peer.unconfirmed_token
        assert token is not None
        try:
            self.store.confirm_token(token)
        except StoreUnavailable as exc:
            log.warning("the token a resume replaced works on for now: %s", exc)
            return
        peer.unconfirmed_token = None

    async def _check_password(self, peer: Peer, given: str | None) -> None:
        """Refuse a login without the server password when the server has one; each wrong one costs
        ``bad_password_delay`` seconds, and ``max_failed_logins`` close the connection (after the reply:
        the client learns why).

        Raises:
            ProtocolError: ``bad-password``, ``slow-down`` (``_check_guessing``).
        """
        wanted = self.config.password
        if wanted is None:
            return
        self._check_guessing(peer, "password")
        if not hmac.compare_digest((given or "").encode(), wanted.encode()):
            self._wrong_guess_from(peer, "password")
            await self._failed_login(peer, "too many wrong passwords")
            raise ProtocolError("bad-password", "wrong or missing server password", field="password")

    async def _failed_login(self, peer: Peer, closing: str) -> None:
        """Slow guessing down: a wrong password or secret costs ``bad_password_delay`` seconds, and the
        ``max_failed_logins``-th on a connection closes it after its reply (``closing``: the reason)."""
        peer.failed_logins += 1
        await asyncio.sleep(self.config.bad_password_delay)
        if peer.failed_logins >= self.config.max_failed_logins:
            peer.close_after_reply = (1008, closing)

    async def _check_secret(self, peer: Peer, name: str, secret: str | None) -> tuple[str | None, str | None]:
        """Check a login's personal ``secret`` for ``name``: returns the name's stored hash (None: it has
        none) and, for a name that has none and a login that brings one, the hash it claims the name with.
        Wrong secrets are slowed down and counted per address as wrong passwords are.

        Raises:
            ProtocolError: ``bad-secret`` (not the name's secret), ``secret-needed`` (the name has one and
                the login none), ``slow-down`` (field ``secret``: too many wrong ones from this address, or
                too many hashed for it: ``_spend_hash``), ``busy`` (the hashing queue is full: ``Hasher``),
                ``name-taken``, ``seat-held`` (a claim of a name that is not free: ``_check_free``).
        """
        stored = self.store.player_secret(name)
        if stored is None:
            if secret is None:
                return None, None
            self._check_free(name)  # before the hash: a refused claim costs no scrypt
            self._spend_hash(peer)
            return None, await self.hasher.hash(secret)
        if secret is None:
            raise ProtocolError(
                "secret-needed", f"{name} has a personal password: log in with it", field="secret"
            )
        self._check_guessing(peer, "secret")
        self._spend_hash(peer)
        if not await self.hasher.check(secret, stored):
            self._wrong_guess_from(peer, "secret")
            await self._failed_login(peer, "too many wrong personal passwords")
            raise ProtocolError("bad-secret", f"that is not the personal password of {name}", field="secret")
        return stored, None

    def _spend_hash(self, peer: Peer) -> None:
        """Count one scrypt hash for ``peer``'s address, or refuse it when the address had
        ``secret_hashes_per_minute`` in the last minute: claiming names by the dozen would otherwise take
        the server's cores and hold up everyone's logins.

        Raises:
            ProtocolError: ``slow-down`` (field ``secret``, with ``retry_after``).
        """
        per_minute = self.config.secret_hashes_per_minute
        window = _address_window(self._hashes, peer.address, per_minute, 60.0)
        if window.full():
            wait = max(1, math.ceil(window.retry_after()))
            raise ProtocolError(
                "slow-down",
                f"at most {per_minute} logins with a personal password a minute from one address: wait {wait} s",
                field="secret",
                retry_after=wait,
            )
        window.add()

    def _check_free(self, name: str) -> None:
        """Refuse a login by ``name``, which has no personal secret, that would take what is another's: a
        name taken here that looks like it (``_name_twin``), or what ``name`` holds (``_check_unclaimed``).

        Raises:
            ProtocolError: ``name-taken``, ``seat-held``.
        """
        twin = self._name_twin(name)
        if twin is not None:
            raise ProtocolError("name-taken", f"{name} is too like {twin}, who is playing here", field="name")
        self._check_unclaimed(name)

    def _check_unclaimed(self, name: str) -> None:
        """A login for ``name``, which has no personal secret, takes nothing away from anyone: nobody is
        connected as ``name``, and the name holds no seat at a Barbu table not over and hosts no open
        table (those are reachable by its resume tokens only, or a friend knowing the server password could
        sit in its player's place). A solitaire room is its player's alone and is not guarded: that would
        lock out for good a player who lost their token.

        Raises:
            ProtocolError: ``name-taken``, ``seat-held``.
        """
        if name in self.online:
            raise ProtocolError("name-taken", f"{name} is connected already", field="name")
        tables = [
            room for room in self.rooms.values() if isinstance(room, BarbuTable) and room.state != "over"
        ]
        held = [room.name for room in tables if room.holds_seat(name)]
        hosted = [room.name for room in tables if room.host == name]
        for row in self.kept_out.values():  # back at a start where it replays: the same seats, the same host
            owners, host = _people(row)
            held += [row.name] if name in owners else []
            hosted += [row.name] if host == name else []
        what = f"holds a seat at {held[0]!r}" if held else None
        if hosted and what is None:
            what = f"hosts {hosted[0]!r}"
        if what is not None:
            raise ProtocolError(
                "seat-held",
                f"{name} {what} and has no personal password: only its resume token comes back to it",
                field="name",
            )

    async def _take_over(self, peer: Peer, name: str) -> None:
        """Close ``name``'s other connection, in order: what it was already answered (an ``ok`` of an action
        stored, its own ``logged-in``) still reaches it first. Another login or resume may come in while its
        seats are handed back: it is taken over in turn."""
        while (old := self.online.get(name)) is not None and old is not peer:
            old.end(1000, "resumed on another connection")
            await self.disconnected(old)

    async def _login(self, peer: Peer, request: Login | Resume) -> None:
        if peer.player is not None:
            raise ProtocolError("already-logged-in", f"this connection is logged in as {peer.player}")
        if isinstance(request, Login):
            name = check_player_name(request.name)
            await self._check_password(peer, request.password)
            stored, claim = await self._check_secret(peer, name, request.secret)
            if self.store.player_secret(name) != stored:  # claimed by another login while this one hashed
                raise ProtocolError("name-taken", f"{name} was claimed a moment ago", field="name")
            if stored is None:  # (again after a claim's hash: others logged in meanwhile)
                self._check_free(name)
            # The right secret says who they are, look-alikes or not: their other connection (a browser they
            # left) is closed, as by ``resume``.
            await self._take_over(peer, name)
            token = self.store.issue_token(name, stored or claim)  # a row forgotten meanwhile keeps it
            if claim is not None:
                self.claimed.add(name)
        else:
            rotated = self.store.rotate_token(request.token, self.config.token_ttl)
            if rotated is None:
                # Only wrong tokens are refused while the address's window is full: behind a proxy every
                # player shares one address, and a stranger's guesses must not lock out a right token.
                self._check_guessing(peer, "token")
                self._wrong_guess_from(peer, "token")
                await asyncio.sleep(self.config.bad_password_delay)
                raise ProtocolError("bad-token", "unknown or outdated resume token", field="token")
            name, token = rotated  # the token sent works on until the fresh one is used (a lost reply)
            await self._take_over(peer, name)
            peer.unconfirmed_token = token  # used once this connection sends its next request
        peer.log_in(name)
        self.online[name] = peer
        holding = [room for room in self.rooms.values() if room.holds_seat(name)]  # one pass: a login storm's
        seated = [room for room in holding if room.gives_back(name)]
        peer.send(LoggedIn(id=request.id, name=name, token=token, rooms=[r.room_id for r in seated]))
        since = request.since if isinstance(request, Resume) else None
        for room in seated:
            await room.attach(peer, None if since is None else since.get(room.room_id))
        for room in holding:
            if isinstance(room, BarbuTable) and not room.gives_back(name):
                await room.presence_changed(name)  # a table they left to a stand-in goes on if it waited

    # Rooms ----------------------------------------------------------------------------------------

    def listing_changed(self) -> None:
        """A room changed (or was added or dropped): the next ``list-rooms`` builds the listing afresh, and
        the next ``list-matches`` and ``standings`` their own (a match that finished changed its table)."""
        self._listing = None
        self.finished.changed()
        self.standings.changed()

    def _current_listing(self) -> Listing:
        """The cached listing, built again (after sweeping idle rooms) when a room changed since, or when it
        is older than ``LISTING_MAX_AGE`` or of another day: a flood of ``list-rooms`` costs one build."""
        listing = self._listing
        now = time.monotonic()
        day = today()
        if listing is not None and now - listing.made < LISTING_MAX_AGE and listing.day == day:
            return listing
        for room in list(self.rooms.values()):
            self._sweep(room)
        rooms = sorted(self.rooms.values(), key=lambda r: -r.store_id)
        summaries = [room.summary() for room in rooms]
        seated: dict[str, list[int]] = {}
        for index, summary in enumerate(summaries):
            if summary["state"] == "over":
                continue
            for owner in summary["players"].values():
                if isinstance(owner, str) and not owner.startswith(BOT_PREFIX):
                    seated.setdefault(owner, []).append(index)
        daily = daily_table(self.store, day)
        common = Rooms(id=0, rooms=summaries[: self.config.max_listed], daily=daily).to_wire()
        listing = Listing(now, day, summaries, seated, daily, prepacked(common, "id"))
        self._listing = listing
        return listing

    def _check_new_table(self, peer: Peer) -> None:
        """Refuse one more Barbu table for ``peer`` (``create-table``, ``rematch``): its player hosts
        ``max_waiting_tables`` tables waiting for players, or ``max_tables_per_player`` not over (playing ones
        count: a table of four server bots starts at once and plays on without anyone); its address created
        ``max_tables_per_address`` not over (restored tables count: ``Room.origin``); or the server holds
        ``max_tables``. Idle tables (an
        expired waiting one) are dropped first and count for nothing.

        Raises:
            ProtocolError: ``too-many-tables``.
        """
        for room in list(self.rooms.values()):
            self._sweep(room)
        live = [r for r in self.rooms.values() if isinstance(r, BarbuTable) and r.state != "over"]
        hosted = [r for r in live if r.host == peer.player]
        waiting = sum(r.state == "waiting" for r in hosted)
        if waiting >= self.config.max_waiting_tables:
            raise ProtocolError(
                "too-many-tables",
                f"{peer.player} has {waiting} tables waiting for players already; fill or leave one first",
            )
        if len(hosted) >= self.config.max_tables_per_player:
            raise ProtocolError(
                "too-many-tables",
                f"{peer.player} hosts {len(hosted)} tables whose match is not over already (at most "
                f"{self.config.max_tables_per_player}); let one finish first",
            )
        origin = self.address_key(peer)
        if sum(r.origin == origin for r in live) >= self.config.max_tables_per_address:
            raise ProtocolError(
                "too-many-tables",
                f"the players of this address host {self.config.max_tables_per_address} tables whose match "
                "is not over already; let one finish first",
            )
        tables = sum(isinstance(room, BarbuTable) for room in self.rooms.values())
        if tables >= self.config.max_tables:
            raise ProtocolError("too-many-tables", "the server holds as many tables as it allows; try later")

    def _table_opened(self, peer: Peer, table: BarbuTable, request_id: int) -> None:
        """List the new ``table`` that ``peer`` asked for and reply ``room-created``."""
        self.add_room(table)  # with the worker pool, as every new room
        peer.send(RoomCreated(id=request_id, room=table.room_id))

    def _check_solitaire_room(self, peer: Peer) -> None:
        """Refuse a new solitaire room for ``peer`` when the server holds ``max_solitaire_rooms`` besides the
        player's own (which the new room replaces), or the players of its address hold
        ``max_solitaire_rooms_per_address`` (restored rooms count: ``Room.origin``) besides it, or opened ``deals_per_minute`` in the last
        minute (counted here when allowed).

        Raises:
            ProtocolError: ``too-many-rooms``, ``slow-down`` (with ``retry_after``).
        """
        player, address = _player(peer), peer.address
        others = [r for r in self.rooms.values() if isinstance(r, SolitaireRoom) and r.player != player]
        if len(others) >= self.config.max_solitaire_rooms:
            raise ProtocolError(
                "too-many-rooms", "the server holds as many solitaire rooms as it allows; try later"
            )
        origin = self.address_key(peer)
        near = sum(r.origin == origin for r in others)
        if near >= self.config.max_solitaire_rooms_per_address:
            raise ProtocolError(
                "too-many-rooms",
                f"the players of this address hold {near} solitaire rooms already; finish one first",
            )
        deals = _address_window(self._deals, address, self.config.deals_per_minute, 60.0)
        if deals.full():
            wait = max(1, math.ceil(deals.retry_after()))
            raise ProtocolError(
                "slow-down",
                f"at most {self.config.deals_per_minute} new deals a minute from one address: wait {wait} s",
                retry_after=wait,
            )
        deals.add()

    async def expire_idle(self) -> int:
        """Finish every unfinished solitaire room without a move for ``config.solitaire_idle`` seconds (resigned,
        its record kept; one that never had a move is deleted) and drop it from the lobby; returns how many.
        A room the store cannot finish now stays as it was until the next call."""
        now = time.time()
        expired = 0
        for room in list(self.rooms.values()):
            if not (isinstance(room, SolitaireRoom) and room.result is None):
                continue
            if now - room.active < self.config.solitaire_idle:
                continue
            async with room.lock:
                try:
                    with self.store.transaction():
                        finish = room.abandon()
                except StoreUnavailable as exc:
                    log.warning("room %s: idle, but the store cannot finish it now: %s", room.room_id, exc)
                    continue
                finish()
            for watcher in list(room.spectators):
                await room.leave(watcher)
            self._sweep(room)
            expired += 1
        if expired:
            log.info("finished %d solitaire rooms idle for %g s", expired, self.config.solitaire_idle)
        return expired

    async def forget_players(self) -> int:
        """Delete from the store the players whose resume tokens stopped working (unused for
        ``config.token_ttl`` seconds, or revoked) and who hold nothing (``Store.forget_players``), a batch
        at a time between other work; returns how many. A store that cannot write now keeps them until the
        next call."""
        forgotten = 0
        try:
            while (batch := self.store.forget_players(self.config.token_ttl, FORGET_BATCH)) > 0:
                forgotten += batch
                await asyncio.sleep(0)  # a backlog of thousands is deleted in turn with everyone's requests
        except StoreUnavailable as exc:
            log.warning("players whose tokens expired are kept for now: %s", exc)
        if forgotten:
            log.info("forgot %d players whose tokens expired", forgotten)
        return forgotten

    def touch_tokens(self, names: list[str]) -> None:
        """Note in the store that players ``names`` used their resume tokens until now
        (``Store.touch_tokens``): they are connected, or their connection just ended. A store that cannot
        write leaves them as they were (logged once a second at most)."""
        try:
            self.store.touch_tokens(names)
        except StoreUnavailable as exc:
            held = _untouched.ready()
            if held is not None:
                log.warning("tokens not noted as used (%d more since the last line): %s", held, exc)

    async def run_expiry(self) -> None:
        """Until cancelled: ``forget_players`` at once (the server starts) and then every ``FORGET_EVERY``
        seconds (or every ``config.token_ttl``, when shorter), ``touch_tokens`` of the players connected
        every ``TOUCH_EVERY`` seconds (or every quarter ``config.token_ttl``, so that a wake-up a little
        early, or late, leaves the tokens of the players connected well within their lifetime: they never
        expire, nor are their players forgotten), and ``expire_idle`` every tenth of
        ``config.solitaire_idle`` (at most every minute; more often when the others are due sooner)."""
        forget_every = min(FORGET_EVERY, self.config.token_ttl)
        touch_every = min(TOUCH_EVERY, self.config.token_ttl / 4)
        await self.forget_players()
        forgotten = touched = time.monotonic()
        while True:
            await asyncio.sleep(min(60.0, self.config.solitaire_idle / 10, forget_every, touch_every))
            await self.expire_idle()
            if time.monotonic() - touched >= touch_every:
                self.touch_tokens(list(self.online))
                touched = time.monotonic()
            if time.monotonic() - forgotten >= forget_every:
                await self.forget_players()
                forgotten = time.monotonic()

    def _listed(self, listing: Listing, player: str) -> list[dict[str, Any]]:
        """The summaries a lobby listing shows ``player``: rooms where they hold a seat first, then the
        newest, ``max_listed`` at most."""
        limit = self.config.max_listed
        mine = listing.seated.get(player, [])
        if not mine:
            return listing.summaries[:limit]
        first = [listing.summaries[i] for i in mine]
        taken = set(mine)
        rest = (s for i, s in enumerate(listing.summaries[: limit + len(mine)]) if i not in taken)
        return (first + list(rest))[:limit]

    def _create_table(self, peer: Peer, request: CreateTable) -> None:
        if padded(request.name) or not request.name.strip(_EDGES):
            raise ProtocolError(
                "bad-message", "name: no spaces or blank letters at either end, not blank", field="name"
            )
        self._check_new_table(peer)
        looks = likeness(request.name)
        for room in self.rooms.values():
            # "Friday", "friday", "ＦＲＩＤＡＹ" and "fridаy" (a Cyrillic а) would be taken for one another.
            if likeness(room.name) & looks and room.summary()["state"] != "over":
                raise ProtocolError(
                    "name-taken", f"an open table is named {room.name!r}, too like this", field="name"
                )
        for row in self.kept_out.values():  # it comes back under its name at a start where it replays
            if likeness(row.name) & looks:
                raise ProtocolError(
                    "name-taken", f"an open table is named {row.name!r}, too like this", field="name"
                )
        table = BarbuTable.create(
            self.store,
            self.config,
            request.name,
            request.variants,
            request.turn_time,
            request.grace,
            request.bot_policy,
            host=peer.player,
            origin=self.address_key(peer),
        )
        self._table_opened(peer, table, request.id)

    async def _open_solitaire(
        self,
        peer: Peer,
        request_id: int,
        game: str,
        options: dict[str, Any],
        seed: int | None,
        winnable: bool = False,
        chosen: bool = False,
        random: bool = False,
    ) -> None:
        """Deal a solitaire room for ``peer``'s player and seat them (the reply is its snapshot; ``chosen``:
        whether the player gave ``seed``; ``random``: no seed is a random deal, never the day's); the
        player's other unfinished solitaire room is finished in the same store transaction
        (``SolitaireRoom.abandon``): a refusal (or a store that cannot write) changes nothing."""
        player = peer.player
        assert player is not None
        self._check_solitaire_room(peer)
        mine = [r for r in self.rooms.values() if isinstance(r, SolitaireRoom) and r.player == player]
        unfinished = [r for r in mine if r.holds_seat(player)]
        async with contextlib.AsyncExitStack() as held:
            for other in unfinished:
                await held.enter_async_context(other.lock)
            with self.store.transaction():
                room = SolitaireRoom.open(
                    self.store,
                    self.config,
                    player,
                    game,
                    options,
                    seed,
                    winnable,
                    self.address_key(peer),
                    chosen,
                    finder=self.finder,
                    random_deal=random,
                )
                finishing = [other.abandon() for other in unfinished]
            for finish in finishing:
                finish()
        followers: set[Peer] = set()
        for other in mine:
            if other not in unfinished:
                await other.leave(peer)
            followers |= other.spectators
            for watcher in list(other.spectators):
                await other.leave(watcher)
            self._sweep(other)
        self.add_room(room)
        async with room.lock:
            room.take_seat(peer, request_id)
        if room.watchable:  # watchers follow the player to the new deal, unless it is the day's
            for watcher in followers - {peer}:
                await room.watch(watcher, None)

    def _rematch(self, peer: Peer, room: Room, request: Rematch) -> None:
        """Open another match with the same players as ``room`` (over): the same seats kept for them, the
        same variants, timers and bot policy, and the name with the match's number (``_rematch_name``);
        replies ``room-created`` and tells everyone at the old table (``rematch-opened``). One per finished
        table: asked again while that table is open (not idle), the reply names it and nothing is created.

        Raises:
            ProtocolError: ``wrong-room`` (a solitaire room), ``not-over``, ``not-host`` (only the player
                who opened the table; for a table whose host is not known, any of its players),
                ``too-many-tables`` (``_check_new_table``: the host's or their address's caps, or the server
                is full).
        """
        if not isinstance(room, BarbuTable):
            raise ProtocolError(
                "wrong-room", f"room {room.room_id} is a solitaire room: new-deal", field="type"
            )
        if room.state != "over":
            raise ProtocolError("not-over", f"the match at table {room.name!r} is not over yet", field="room")
        players = room.summary()["players"]
        _check_rematch_host(peer, room.host, players, room.name)
        again = self.rooms.get(room.rematch) if room.rematch is not None else None
        if again is not None and not again.idle:  # one per finished table: asked again, the same one
            peer.send(RoomCreated(id=request.id, room=again.room_id))
            return
        self._check_new_table(peer)
        name = self._rematch_name(room.name)
        with self.store.transaction():  # the new table and its kept seats, or nothing
            table = BarbuTable.create(
                self.store,
                self.config,
                name,
                room.variants.to_dict(),
                room.turn_time,
                room.grace,
                room.bot_policy,
                host=peer.player,
                origin=self.address_key(peer),
            )
            table.reserve({seat: owner for seat, owner in players.items() if owner is not None})
            table.keep_chat(list(room.chat))  # the conversation follows the players
            self.store.update_config(table.store_id, {"rematch_of": room.room_id})  # for a restart
        room.rematch = table.room_id  # the old table's lobby entry points to the new one
        self._table_opened(peer, table, request.id)
        table.start_reserved()  # four bots: at once
        room.push(RematchOpened(room=room.room_id, new_room=table.room_id, host=_player(peer)))

    def _finished_table(self, peer: Peer, match: str) -> Room | None:
        """The finished Barbu table of match ``match`` no longer listed (swept once nobody was at it), rebuilt
        from the store (not listed) for ``peer``'s ``rematch``; None when no finished match has that id or
        its log does not replay. Its host may so open another match from an old invite link, or from the
        list of finished matches, after everyone left the table. Who may ask, and the host's caps, are
        checked on the stored row first: rebuilding a table replays its whole log in the event loop.

        Raises:
            ProtocolError: ``not-host`` or ``too-many-tables``, as ``_rematch`` (nothing rebuilt).
        """
        try:
            row = finished_row(self.store, match)
        except ProtocolError:
            return None
        _check_rematch_host(
            peer, row.config.get("host"), (row.record or {}).get("players", row.players), row.name
        )
        self._check_new_table(peer)
        return self._rebuild(row)

    def _rematch_waits(self, room: Room) -> bool:
        """Whether ``room`` is a finished table whose rematch waits for its players: it stays listed
        meanwhile (even with nobody at it, as after a restart), so an old invite link finds the new match."""
        if not isinstance(room, BarbuTable) or room.rematch is None:
            return False
        new = self.rooms.get(room.rematch)
        return isinstance(new, BarbuTable) and new.state == "waiting" and not new.idle

    def _rematch_name(self, name: str) -> str:
        """The name of another match after table ``name``: ``friday (2)``, then ``friday (3)`` after
        ``friday (2)`` (the number counts the matches), the next number no listed room's name is too like
        (finished tables included: the lobby tells them apart), cut to ``NAME_LIMIT`` characters."""
        found = _NUMBERED.fullmatch(name)
        base, number = (found.group(1), int(found.group(2)) + 1) if found else (name, 2)
        taken: set[str] = set()
        for other in [
            *(room.name for room in self.rooms.values()),
            *(row.name for row in self.kept_out.values()),
        ]:
            taken |= likeness(other)
        while True:
            suffix = f" ({number})"
            again = base[: NAME_LIMIT - len(suffix)].rstrip(_EDGES) + suffix
            if not likeness(again) & taken:
                return again
            number += 1

    async def _room_request(self, peer: Peer, room: Room, request: Message) -> None:
        if isinstance(request, Rematch):
            self._rematch(peer, room, request)
        elif isinstance(request, NewDeal):
            if not isinstance(room, SolitaireRoom):
                raise ProtocolError("wrong-room", f"room {room.room_id} is a Barbu table", field="type")
            if room.player != peer.player:
                raise ProtocolError("not-your-room", f"room {room.room_id} is not your solitaire room")
            # A new deal is winnable when asked, or (unasked, without a seed) when the old one was.
            winnable = request.winnable
            if winnable is None:
                winnable = room.winnable and request.seed is None
            seed = request.seed
            if seed is None and not winnable:
                seed = secrets.randbits(48)
            chosen = request.seed is not None  # a seed picked here stays secret while the game is played
            await self._open_solitaire(
                peer, request.id, room.game.name, room.game.options, seed, winnable, chosen
            )
        elif isinstance(request, Sit):
            await room.join(peer, request.seat, request.id, request.since)
        elif isinstance(request, Watch):
            await room.watch(peer, request.id, request.since)
        elif isinstance(request, Leave):
            await room.leave(peer)
            peer.send(Ok(id=request.id))
            self._sweep(room)
        else:
            await room.handle(peer, request)

    def _sweep(self, room: Room) -> None:
        if room.idle and self.rooms.get(room.room_id) is room and not self._rematch_waits(room):
            self.listing_changed()
            del self.rooms[room.room_id]
            room.discard()


def _check_rematch_host(peer: Peer, host: str | None, players: dict[str, str | None], name: str) -> None:
    """Refuse ``peer``'s ``rematch`` of table ``name`` unless its player is the table's ``host`` (or, for a
    table stored before hosts were kept, one of its ``players``: seat letter -> name).

    Raises:
        ProtocolError: ``not-host``.
    """
    if not (peer.player == host if host is not None else peer.player in players.values()):
        raise ProtocolError("not-host", f"only {host or 'a player'} of {name!r} may ask that")

"""Every message of protocol versions 1 and 2, as frozen dataclasses (``docs/protocol.md`` is the spec).

Requests go from client to server and carry an ``id`` (an integer the client chooses) that the reply repeats.
Server messages are replies (carrying the request's ``id``) or pushes (``event``, ``turn``, ``chat``,
``players``; and ``snapshot`` when pushed after a seat change or a resume, with ``id`` nil). Version 2 tells
a room's actions by ``update`` alone (no ``event``, ``turn`` or ``solitaire-state``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from dataclasses import field as _field
from typing import Any

from protocol.errors import ProtocolError
from protocol.schema import Message, parse_message

SEAT_LETTERS = ("N", "E", "S", "W")
_ID: dict[str, Any] = {"min": 0, "max": 2**53}
_ROOM: dict[str, Any] = {"min_len": 1, "max_len": 32}
_SEAT: dict[str, Any] = {"choices": SEAT_LETTERS}
#: ``since`` (version 2): the ``seq`` of the last update the client has of the room.
_SINCE: dict[str, Any] = {"min": 0, "max": 2**53}
#: The fields of an ``act`` request's ``action`` map (``docs/protocol.md`` "Actions") and their wire types;
#: which of them an action kind takes, and their values, are the rules engine's to check.
ACTION_KEYS: dict[str, Any] = {
    "action": str,
    "contract": str,
    "trump": str | None,
    "start_rank": str | None,
    "targets": list[str],
    "card": str,
}


# Requests: client to server -------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello(Message):
    """Opens the conversation: the client's protocol ``version`` and its ``client`` name (free text)."""

    TYPE = "hello"
    id: int = _field(metadata=_ID)
    version: int = _field(metadata={"min": 0})
    client: str = _field(metadata={"max_len": 64})


@dataclass(frozen=True)
class Login(Message):
    """Log in as player ``name`` (1-24 characters), with the server ``password`` when one is set, and the
    player's own ``secret`` (a personal password: it claims the name at its first login, and must match
    from then on; without one, only a name that has none and holds nothing logs in)."""

    TYPE = "login"
    id: int = _field(metadata=_ID)
    name: str = _field(metadata={"min_len": 1, "max_len": 24, "printable": True})
    password: str | None = _field(default=None, metadata={"max_len": 128})
    secret: str | None = _field(default=None, metadata={"min_len": 1, "max_len": 128})


@dataclass(frozen=True)
class Resume(Message):
    """Return as the player a previous ``logged-in`` reply gave ``token`` to."""

    TYPE = "resume"
    id: int = _field(metadata=_ID)
    token: str = _field(metadata={"min_len": 1, "max_len": 128})
    #: Version 2: room id -> the ``seq`` of the last update the client has of it; each seat's snapshot
    #: then carries the updates missed since (``docs/protocol.md`` "Coming back: since").
    since: dict[str, int] | None = _field(default=None, metadata={"max_len": 16})


@dataclass(frozen=True)
class ListRooms(Message):
    """Ask for the lobby: every open room (tables, later solitaire rooms)."""

    TYPE = "list-rooms"
    id: int = _field(metadata=_ID)


@dataclass(frozen=True)
class CreateTable(Message):
    """Open a Barbu table named ``name`` with rule ``variants`` (``rules/barbu.md``), an optional per-turn
    time limit ``turn_time`` (seconds), a ``grace`` period (seconds) a dropped player's seat is held, and the
    ``bot_policy`` spec of its bots and stand-ins (nil: the server's default)."""

    TYPE = "create-table"
    id: int = _field(metadata=_ID)
    name: str = _field(metadata={"min_len": 1, "max_len": 40, "printable": True})
    variants: dict[str, str | bool] = _field(default_factory=dict, metadata={"max_len": 16})
    turn_time: float | None = _field(default=None, metadata={"min": 1, "max": 3600})
    grace: float | None = _field(default=None, metadata={"min": 0, "max": 3600})
    bot_policy: str | None = _field(default=None, metadata={"min_len": 1, "max_len": 64})


@dataclass(frozen=True)
class Sit(Message):
    """Take ``seat`` at ``room`` (nil: the first free seat), or return to the seat already held there."""

    TYPE = "sit"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    seat: str | None = _field(default=None, metadata={"choices": (*SEAT_LETTERS, None)})
    #: Version 2: the ``seq`` of the last update the client has of the room (the snapshot carries the rest).
    since: int | None = _field(default=None, metadata=_SINCE)


@dataclass(frozen=True)
class Watch(Message):
    """Watch ``room`` as a spectator (public information only)."""

    TYPE = "watch"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    #: Version 2: the ``seq`` of the last update the client has of the room (the snapshot carries the rest).
    since: int | None = _field(default=None, metadata=_SINCE)


@dataclass(frozen=True)
class Leave(Message):
    """Leave ``room``: a spectator stops watching; a seated player gives the seat up (before the start) or
    hands it to a stand-in bot (during the match; ``sit`` again to take it back)."""

    TYPE = "leave"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class AddBot(Message):
    """Put a server bot playing the policy spec ``policy`` (nil: the table's bot policy) into the empty
    ``seat`` of ``room`` (before the start; the table's host
    only)."""

    TYPE = "add-bot"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    seat: str = _field(metadata=_SEAT)
    policy: str | None = _field(default=None, metadata={"min_len": 1, "max_len": 64})


@dataclass(frozen=True)
class RemoveBot(Message):
    """Take the server bot out of ``seat`` of ``room`` again (before the start; the table's host only)."""

    TYPE = "remove-bot"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    seat: str = _field(metadata=_SEAT)


@dataclass(frozen=True)
class RemovePlayer(Message):
    """The table's host frees ``seat`` of ``room`` before the start, whoever sits there but the host (a
    player who holds a seat and never lets the match start, or a bot); a removed player is told
    (``removed``) and may not sit at that table again (they may watch it)."""

    TYPE = "remove-player"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    seat: str = _field(metadata=_SEAT)


@dataclass(frozen=True)
class Chat(Message):
    """Say ``text`` (1-500 characters) to everyone at ``room``."""

    TYPE = "chat"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    text: str = _field(metadata={"min_len": 1, "max_len": 500, "printable": True})


@dataclass(frozen=True)
class Act(Message):
    """Play ``action`` (a wire action, ``docs/protocol.md`` "Actions") for ``seat`` at ``room``."""

    TYPE = "act"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    seat: str = _field(metadata=_SEAT)
    action: dict[str, Any] = _field(metadata={"max_len": 4, "keys": ACTION_KEYS})


@dataclass(frozen=True)
class GetSnapshot(Message):
    """Ask again for the full snapshot of ``room`` as this connection may see it."""

    TYPE = "snapshot"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    #: Version 2: the ``seq`` of the last update the client has of the room (the snapshot carries the rest).
    since: int | None = _field(default=None, metadata=_SINCE)


@dataclass(frozen=True)
class Rematch(Message):
    """Open another match with the same players as Barbu table ``room``, whose match is over: the same seats,
    rule variants, timers and bot policy (only the table's host). Reply: ``room-created``."""

    TYPE = "rematch"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class OpenSolitaire(Message):
    """Open a solitaire room of ``game`` (``docs/rules/solitaire.md``) with its ``options`` and deal ``seed``
    (nil: the day's deal, or with ``random`` a deal the server chooses and shows only at the end); with
    ``winnable`` only a deal the solver proved winnable; the opener plays it, others may watch."""

    TYPE = "open-solitaire"
    id: int = _field(metadata=_ID)
    game: str = _field(metadata={"min_len": 1, "max_len": 32})
    options: dict[str, str | int | bool] = _field(default_factory=dict, metadata={"max_len": 16})
    seed: int | None = _field(default=None, metadata=_ID)
    winnable: bool = False
    random: bool = False


@dataclass(frozen=True)
class Move(Message):
    """Make solitaire ``move`` (``docs/formats.md`` notation, e.g. ``t3>t5``) in ``room``."""

    TYPE = "move"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    move: str = _field(metadata={"min_len": 1, "max_len": 32})


@dataclass(frozen=True)
class Undo(Message):
    """Take back the last solitaire move in ``room``."""

    TYPE = "undo"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class Redo(Message):
    """Make again the last solitaire move undone in ``room``."""

    TYPE = "redo"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class AutoMoves(Message):
    """Make every safe move to the foundations in solitaire ``room``."""

    TYPE = "auto"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class GetHint(Message):
    """Ask for a good next move in solitaire ``room`` (changes nothing)."""

    TYPE = "hint"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class NewDeal(Message):
    """Finish the game of solitaire ``room`` and open a new room of the same game and options, dealt from
    ``seed`` (nil: a random deal); ``winnable`` (nil: as the old room's deal) asks for a deal the solver
    proved winnable."""

    TYPE = "new-deal"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)
    seed: int | None = _field(default=None, metadata=_ID)
    winnable: bool | None = None


@dataclass(frozen=True)
class Resign(Message):
    """Give up the game of solitaire ``room`` (recorded as lost when no move was left, else resigned)."""

    TYPE = "resign"
    id: int = _field(metadata=_ID)
    room: str = _field(metadata=_ROOM)


@dataclass(frozen=True)
class ListMatches(Message):
    """Ask for the finished Barbu matches of the server, newest first (to pick one to ``replay``)."""

    TYPE = "list-matches"
    id: int = _field(metadata=_ID)


@dataclass(frozen=True)
class GetStandings(Message):
    """Ask for the standings across the server's finished Barbu matches (``server.standings``)."""

    TYPE = "standings"
    id: int = _field(metadata=_ID)


@dataclass(frozen=True)
class ListGames(Message):
    """Ask for the solitaire games this server deals, with their titles, rules and options."""

    TYPE = "list-games"
    id: int = _field(metadata=_ID)


@dataclass(frozen=True)
class GetReplay(Message):
    """Ask for finished match ``match`` (its table's room id) laid out for a replay, all hands face up."""

    TYPE = "replay"
    id: int = _field(metadata=_ID)
    match: str = _field(metadata=_ROOM)


# Server messages: replies and pushes ----------------------------------------------------------------


@dataclass(frozen=True)
class Welcome(Message):
    """Reply to ``hello``: the server's protocol ``version``, software name, decoding ``limits`` (bytes and
    counts), ``features`` (names of optional parts it supports), whether login needs a ``password``, and the
    server's default ``bot_policy`` spec (nil from a server that does not say)."""

    TYPE = "welcome"
    id: int
    version: int
    server: str
    limits: dict[str, Any]
    features: list[str]
    password: bool
    #: The server's default policy spec for a table's bots and stand-ins (``create-table`` without one).
    bot_policy: str | None = None
    #: Seconds a turn may be left unplayed at a table without a turn timer before a stand-in bot takes the
    #: seat (the server's ``idle_turn``); nil when no such hand-over happens, or from a server that does not say.
    idle_turn: float | None = None


@dataclass(frozen=True)
class LoggedIn(Message):
    """Reply to ``login`` and ``resume``: the player's ``name``, their resume ``token`` and the ``rooms``
    where they hold a seat (a ``snapshot`` of each follows)."""

    TYPE = "logged-in"
    id: int
    name: str
    token: str
    rooms: list[str]


@dataclass(frozen=True)
class Rooms(Message):
    """Reply to ``list-rooms``: one map per open room (``docs/protocol.md`` "Room summary") and, in
    ``daily``, the day's deal of each solitaire game with its results table."""

    TYPE = "rooms"
    id: int
    rooms: list[dict[str, Any]]
    daily: list[dict[str, Any]] = _field(default_factory=list)


@dataclass(frozen=True)
class RoomCreated(Message):
    """Reply to ``create-table``: the new ``room`` id (also the match id in the store)."""

    TYPE = "room-created"
    id: int
    room: str


@dataclass(frozen=True)
class Ok(Message):
    """Reply to a request that succeeded and has nothing else to say."""

    TYPE = "ok"
    id: int


@dataclass(frozen=True)
class Snapshot(Message):
    """Everything this connection may know of ``room`` at action number ``seq``; ``view`` is the game's own
    view for ``seat`` (nil seat: a spectator), nil before the match starts."""

    TYPE = "snapshot"
    id: int | None
    room: str
    kind: str
    name: str
    seat: str | None
    state: str
    seq: int
    players: dict[str, Any]
    away: list[str]
    variants: dict[str, Any]
    view: dict[str, Any] | None
    #: A Barbu table's last chat lines (``{"name", "text", "watching"}``, oldest first); ``[]`` in a
    #: solitaire room.
    chat: list[dict[str, Any]] = _field(default_factory=list)
    #: Milliseconds before the turn timer plays for the seat to move; nil when no turn timer runs.
    turn_left_ms: int | None = None
    #: Milliseconds before a stand-in takes the seat to move, its connected human idle (no turn timer); nil
    #: when no such hand-over is coming.
    idle_left_ms: int | None = None
    #: A Barbu match waiting for one of its players to come back (none of them is connected): nothing plays.
    paused: bool = False
    #: Version 2, asked with ``since``: the updates missed since then, oldest first, each
    #: ``{"type": "update", "room", "seq", "events"}`` (the view left out: ``view`` is the one after the last);
    #: nil when none was asked or more were missed than ``MISSED_UPDATES_MAX`` (then this is a plain snapshot).
    #: Left out of the wire when nil.
    updates: list[dict[str, Any]] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The snapshot's wire map; ``updates`` only when there are some to tell (version 1 never has it)."""
        wire = super().to_wire()
        if self.updates is None:
            del wire["updates"]
        return wire


@dataclass(frozen=True)
class Update(Message):
    """Version 2: what action number ``seq`` at ``room`` did, as this connection may see it: the ``events``
    (``{"event": kind, ...}``: public ones and those addressed to the connection's seat) and what it changed
    of the connection's view (``view``: the top-level keys whose values changed, each whole; merged into the
    view of the last snapshot and the updates since, it is the view after the action)."""

    TYPE = "update"
    room: str
    seq: int
    events: list[dict[str, Any]]
    view: dict[str, Any] | None


@dataclass(frozen=True)
class EventPush(Message):
    """A game ``event`` (``{"event": kind, ...}``) caused by action number ``seq`` at ``room``."""

    TYPE = "event"
    room: str
    seq: int
    event: dict[str, Any]


@dataclass(frozen=True)
class Turn(Message):
    """Pushed to a seat when it must act: its fresh ``view`` (with ``legal``) after action number ``seq``."""

    TYPE = "turn"
    room: str
    seat: str
    seq: int
    view: dict[str, Any]
    #: Milliseconds before the turn timer plays for this seat; nil when the table has no turn timer.
    turn_left_ms: int | None = None
    #: Milliseconds before a stand-in takes this seat if it leaves the turn unplayed (a table without a turn
    #: timer: the server's ``idle_turn``); nil when no such hand-over is coming.
    idle_left_ms: int | None = None


@dataclass(frozen=True)
class ChatPush(Message):
    """Player ``name`` said ``text`` at ``room``; ``watching``: they watched the table then, no seat theirs."""

    TYPE = "chat"
    room: str
    name: str
    text: str
    watching: bool = False


@dataclass(frozen=True)
class Players(Message):
    """The seats of ``room`` changed: ``players`` by seat letter (nil when empty), ``away`` the seats whose
    human is disconnected or replaced by a stand-in bot, the room ``state``, the names of the
    ``spectators``, the seats a stand-in bot plays now (``standins``) and, for each seat whose human dropped
    and is still in the grace period, the seconds until a stand-in plays it (``standin_in``, the match
    started) or until the seat is freed (``freed_in``, the table waiting for players); ``paused``: the match
    waits, none of its players being connected."""

    TYPE = "players"
    room: str
    state: str
    players: dict[str, Any]
    away: list[str]
    spectators: list[str] = _field(default_factory=list)
    standins: list[str] = _field(default_factory=list)
    standin_in: dict[str, Any] = _field(default_factory=dict)
    freed_in: dict[str, Any] = _field(default_factory=dict)
    paused: bool = False


@dataclass(frozen=True)
class RematchOpened(Message):
    """Pushed to everyone at Barbu table ``room`` (its match over) when its ``host`` opened another match
    with the same players at ``new_room``: each player's seat there is kept for them (``sit`` takes it)."""

    TYPE = "rematch-opened"
    room: str
    new_room: str
    host: str


@dataclass(frozen=True)
class Removed(Message):
    """Pushed to a player no longer seated at Barbu table ``room``, who held ``seat`` there: ``reason``
    ``host`` (the host, ``by``, freed the seat before the start: ``remove-player``; the player may not sit
    there again), ``idle`` (the player left their turn unplayed for the server's ``idle_turn`` at a table
    without a turn timer: a stand-in bot plays the seat, ``sit`` takes it back; ``by`` nil) or
    ``too-many-seats`` (the player came back, by ``resume``, from an address whose players sit at as many
    waiting tables as one may: the seat they held since a drop elsewhere was freed; ``by`` nil)."""

    TYPE = "removed"
    room: str
    seat: str
    reason: str
    by: str | None = None


@dataclass(frozen=True)
class Hint(Message):
    """Reply to ``hint`` in ``room``: ``status`` says what the ``move`` is worth (``engine.solitaire.hints``):
    ``sure`` (the next move of a winning line: following the hints wins), ``guess`` (no win found within the
    server's budget; a reasonable move to a position not seen before), ``lost`` (no win is left from here;
    ``move`` nil), ``none`` (every move returns to a position seen before; ``move`` nil). ``seq`` is the
    room's action number the hint is for (the player may have moved meanwhile). A ``lost`` hint says
    whether the player's moves lost it: ``from_start`` (the deal itself cannot be won), or ``undo`` (the
    moves to undo to get back to a position the solver proved winnable; nil when it could not tell)."""

    TYPE = "hint"
    id: int
    room: str
    move: str | None
    status: str
    seq: int
    undo: int | None = None
    from_start: bool = False


@dataclass(frozen=True)
class SolitaireState(Message):
    """Pushed to the player and the watchers of solitaire ``room`` after action number ``seq``: the full
    solitaire ``view`` (``docs/protocol.md`` "The solitaire view")."""

    TYPE = "solitaire-state"
    room: str
    seq: int
    view: dict[str, Any]


@dataclass(frozen=True)
class Error(Message):
    """A refused request (``id`` nil when the frame could not be read): ``code`` from the error table, a
    human ``message``, the offending ``field``, for ``illegal`` the game's ``rule`` and its ``args`` (the
    facts the rule was broken on: led suit, trump, piles...; ``docs/protocol.md`` "Rule codes"), and for
    ``slow-down`` the seconds to wait before sending again (``retry_after``; for ``busy``, the seconds the
    work waited for a worker in vain, when that is why)."""

    TYPE = "error"
    id: int | None
    code: str
    message: str
    field: str | None = None
    rule: str | None = None
    retry_after: float | None = None
    #: For ``illegal``: the rule's arguments; left out of the wire when nil.
    args: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The error's wire map; ``args`` only when the refusal has some."""
        wire = super().to_wire()
        if self.args is None:
            del wire["args"]
        return wire


@dataclass(frozen=True)
class Matches(Message):
    """Reply to ``list-matches``: one map per finished match, newest first: ``match`` (id), ``name``,
    ``players`` (seat -> name), ``totals`` (seat -> points), ``hands`` (number played), ``finished`` (Unix
    time, seconds)."""

    TYPE = "matches"
    id: int
    matches: list[dict[str, Any]]


@dataclass(frozen=True)
class Standings(Message):
    """Reply to ``standings``: one map per player (bots not listed), best rating first: ``name``,
    ``matches`` (finished matches played), ``firsts``, ``average_place`` (1 to 4, two decimals) and
    ``rating`` (openskill Bradley-Terry ordinal ``mu - 3 sigma``, one decimal)."""

    TYPE = "standings"
    id: int
    players: list[dict[str, Any]]


@dataclass(frozen=True)
class Games(Message):
    """Reply to ``list-games``: one map per solitaire game: ``name``, ``title``, ``rules`` (plain text, a few
    lines) and ``options`` (each ``name``, ``choices``, ``default``, ``help``)."""

    TYPE = "games"
    id: int
    games: list[dict[str, Any]]


@dataclass(frozen=True)
class Replay(Message):
    """Reply to ``replay``: finished ``match`` named ``name``, from its stored record, as
    ``engine.barbu.match_replay`` lays it out: ``players``, ``variants``, ``hands`` (per deal: the four
    hands dealt, the public events in order, the scores), ``totals`` and ``ranking``."""

    TYPE = "replay"
    id: int
    match: str
    name: str
    players: dict[str, Any]
    variants: dict[str, Any]
    hands: list[dict[str, Any]]
    totals: dict[str, Any]
    ranking: list[list[str]]


REQUESTS: dict[str, type[Message]] = {
    c.TYPE: c
    for c in (
        *(Hello, Login, Resume, ListRooms, CreateTable, Sit, Watch, Leave, AddBot, RemoveBot, RemovePlayer),
        *(Chat, Act),
        GetSnapshot,
        *(OpenSolitaire, Move, Undo, Redo, AutoMoves, GetHint, NewDeal, Resign, Rematch),
        *(ListGames, ListMatches, GetReplay, GetStandings),
    )
}
SERVER_MESSAGES: dict[str, type[Message]] = {
    c.TYPE: c
    for c in (
        *(Welcome, LoggedIn, Rooms, RoomCreated, Ok, Snapshot, EventPush, Turn, ChatPush, Players, Error),
        Update,
        *(Hint, SolitaireState, RematchOpened, Removed, Games, Matches, Replay, Standings),
    )
}


def request_id(wire: dict[str, Any]) -> int | None:
    """The ``id`` of a raw request when it is a valid integer, so an error reply can repeat it."""
    value = wire.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2**53:
        return value
    return None


def _parse(wire: dict[str, Any], table: dict[str, type[Message]]) -> Message:
    kind = wire.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad-message", "missing or non-string field type", field="type")
    cls = table.get(kind)
    if cls is None:
        raise ProtocolError("unknown-type", f"unknown message type {kind!r}", field="type")
    return parse_message(cls, wire)


def parse_request(wire: dict[str, Any]) -> Message:
    """Validate a decoded client frame into its request dataclass.

    Raises:
        ProtocolError: ``unknown-type`` or ``bad-message`` naming the field.
    """
    return _parse(wire, REQUESTS)


def parse_server_message(wire: dict[str, Any]) -> Message:
    """Validate a decoded server frame into its dataclass (unknown extra fields are ignored).

    Raises:
        ProtocolError: ``unknown-type`` or ``bad-message`` naming the field.
    """
    kind = wire.get("type")
    cls = SERVER_MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is not None:
        names = {f.name for f in fields(cls)} | {"type"}
        wire = {k: v for k, v in wire.items() if k in names}
    return _parse(wire, SERVER_MESSAGES)

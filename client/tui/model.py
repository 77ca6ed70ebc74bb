"""What the terminal client knows: the connection, the lobby, the table it sits at or watches, the solitaire
room it plays or watches, chat, notices.

Only ``session`` writes the network parts; screens read them. Nothing here talks to the network.
"""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from engine.cards import RANKS, SEATS

CHAT_LINES = 50
#: Log entries kept for all places together (each table's log, the solitaire room's, the lobby's).
ENTRIES = 400


@dataclass
class TableModel:
    """One Barbu table as last seen: the snapshot's fields, the view (the seat's or a spectator's), the
    sequence number of the last action it reflects, the last finished trick and the chat.

    ``stale`` is set when the connection drops (or another terminal takes the player over): meanwhile a
    stand-in may play the seat, so the view no longer tells whose turn it is until the next snapshot.
    ``last_trick`` is the latest finished trick of hand ``last_trick_hand``: a new hand clears it.
    ``summary`` is the latest ``hand-scored`` event, shown until a key is pressed or the next hand's first
    card is played (for a watcher, its contract chosen; ``summary_seen``); ``summary_trick`` that hand's last trick, shown beside the summary (the
    next hand's view clears ``last_trick``). ``standin_at`` holds, for each dropped seat in its grace period, when (``time.monotonic``)
    a stand-in bot takes it; ``freed_at`` the same before the start, when the seat is freed; ``standins`` the seats a stand-in plays; ``spectators`` who watches (``spectators_known``: once a ``players`` push said so, as a
    snapshot does not; ``seats_known`` likewise for the stand-ins and countdowns, False from a snapshot of a
    table just entered until its first ``players`` push); ``host`` who
    opened the table (from the lobby's list), ``me`` this client's player; ``rematch`` the room of another match with the same players.
    ``turn_ends`` is when (``time.monotonic``) the turn timer plays for the seat to move, counted from the
    server's ``turn_left_ms`` (None: no timer runs); ``turn_time`` the table's turn timer in seconds (from
    the lobby's list; None: none or not known); ``idle_ends`` the same for the idle hand-over, from the server's
    ``idle_left_ms`` (a table without a turn timer: a stand-in takes the seat to move, its player idle; None:
    none is coming), ``grace`` the seconds a dropped player's seat is held (from the
    lobby's list; None: not known). ``paused``: the match waits, none of its players being
    connected (a watcher sees it so; the players themselves are not there).
    """

    room: str
    name: str = ""
    seat: str | None = None
    state: str = "waiting"
    seq: int = -1
    #: The ``seq`` of the last whole view taken (``set_view``): events of that action or older are in it.
    viewed: int = -1
    players: dict[str, Any] = field(default_factory=dict)
    away: list[str] = field(default_factory=list)
    variants: dict[str, Any] = field(default_factory=dict)
    view: dict[str, Any] | None = None
    last_trick: dict[str, Any] | None = None
    last_trick_hand: int = 0
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    stale: bool = False
    summary: dict[str, Any] | None = None
    summary_seen: bool = False
    summary_trick: dict[str, Any] | None = None
    standin_at: dict[str, float] = field(default_factory=dict)
    freed_at: dict[str, float] = field(default_factory=dict)
    standins: list[str] = field(default_factory=list)
    spectators: list[str] = field(default_factory=list)
    spectators_known: bool = False
    seats_known: bool = True
    host: str | None = None
    rematch: str | None = None
    me: str = ""
    turn_ends: float | None = None
    idle_ends: float | None = None
    turn_time: float | None = None
    grace: float | None = None
    paused: bool = False
    #: Whether events still go into ``view`` (``take_event``): not once its hand is scored.
    following: bool = True
    #: Whether this client saw the table waiting for players (its match's start is then news: the log says
    #: it begins) and whether the log said so (``Hand 1 of 28: the match begins.``, once).
    seen_waiting: bool = False
    begin_told: bool = False
    #: Seats this client (the host) asked to free (``remove-player``): their news says the host removed them.
    removing: set[str] = field(default_factory=set)

    def turn_left(self, ms: Any, idle_ms: Any = None) -> None:
        """Take the server's ``turn_left_ms`` and ``idle_left_ms`` (``snapshot``, ``turn``, the public ``turn``
        event): the turn timer plays for the seat to move ``ms`` milliseconds from now, a stand-in takes that
        seat over ``idle_ms`` milliseconds from now (None: no such clock runs; docs/protocol.md, "An idle
        seat")."""
        now = time.monotonic()
        self.turn_ends = None if ms is None else now + float(ms) / 1000
        self.idle_ends = None if idle_ms is None else now + float(idle_ms) / 1000

    def idle_left(self) -> float | None:
        """The seconds left before a stand-in takes the seat to move, its player idle (None: no hand-over is
        coming, or the view is stale or paused: the server's clock is not known or stands still)."""
        if self.idle_ends is None or self.stale or self.paused:
            return None
        return max(self.idle_ends - time.monotonic(), 0.0)

    def turn_clock(self) -> str:
        """The seconds left before the turn timer plays for the seat to move, as ``12s`` (empty: none runs)."""
        if self.turn_ends is None or self.stale or self.paused:  # paused: the server's clock stands still
            return ""
        return f"{max(self.turn_ends - time.monotonic(), 0):.0f}s"

    def player(self, seat: str) -> str:
        """The name shown for ``seat``: the player, ``bot`` for a server bot, ``(empty)``."""
        owner = self.players.get(seat)
        if owner is None:
            return "(empty)"
        text = str(owner)
        return "bot" if text.startswith("bot:") else text

    def players_by_seat(self) -> dict[str, str]:
        """Every seat's shown name."""
        return {s: self.player(s) for s in SEATS}

    def newer(self, state: str, seq: int) -> bool:
        """Whether a snapshot in ``state`` after action ``seq`` is not older than what is shown (a reply can
        arrive after a push that followed it: the match's start, say)."""
        order = {"waiting": 0, "playing": 1, "over": 2}
        return (order.get(state, 0), seq) >= (order.get(self.state, 0), self.seq)

    def set_view(self, view: dict[str, Any] | None, seq: int) -> None:
        """Take a newer view (an older ``seq`` is ignored) and remember the last finished trick; a view of a
        new hand clears the last one (it was the previous hand's)."""
        if seq < self.seq:
            return
        self.seq = self.viewed = seq
        self.view = view
        self.following = True
        if view is None:
            return
        number = int(view.get("hand_number") or 0)
        if view.get("tricks"):
            self.keep_trick(view["tricks"][-1], number)
        elif number != self.last_trick_hand:
            self.last_trick = None

    def keep_trick(self, trick: dict[str, Any], hand_number: int | None = None) -> None:
        """Remember ``trick`` (``{leader, cards, winner}``) as the last finished one, of ``hand_number``
        (None: the hand being shown)."""
        self.last_trick = trick
        shown = (self.view or {}).get("hand_number") or 0
        self.last_trick_hand = int(shown if hand_number is None else hand_number)

    def shown_trick(self) -> dict[str, Any] | None:
        """The finished trick still on the table: the last one of this hand until the next trick's first
        card (``docs/client.md``: the next card clears it at once, so the table never lags the log)."""
        view = self.view or {}
        if self.last_trick is None or self.last_trick_hand != view.get("hand_number"):
            return None
        if (view.get("trick") or {}).get("cards"):
            return None
        return self.last_trick

    def take_event(self, event: dict[str, Any], seq: int) -> None:
        """Put a public ``event`` of action ``seq`` into the view at once (``card-played``, ``passed``,
        ``trick-won``, ``turn``): the table then shows what the log and the turn line say as they say it,
        not one snapshot later. The snapshot asked for after it replaces this view; one older than ``seq``
        no longer can. Other events (a contract, a double, a hand scored) wait for that snapshot."""
        # A view of action ``seq`` already holds its events (a snapshot may come between an action's pushes):
        # taking them again would play a card twice.
        if self.view is None or seq < self.seq or seq <= self.viewed or not self.following:
            return
        view, kind, seat = dict(self.view), event.get("event"), event.get("seat")
        view["legal"] = None  # any card moves the turn on: legal actions come with the seat's turn push
        if kind in ("hand-scored", "match-over"):  # the next hand's view comes with the snapshot
            self.view, self.following = view, False
            return
        if kind == "card-played" and isinstance(seat, str):
            _play(view, seat, str(event.get("card")))
        elif kind == "passed" and isinstance(seat, str) and view.get("start_rank") is not None:
            view["plays"] = [*(view.get("plays") or []), [seat, None]]
        elif kind == "trick-won":
            trick = {k: event.get(k) for k in ("leader", "cards", "winner")}
            winner = str(event.get("winner"))
            view["tricks"] = [*(view.get("tricks") or []), trick]
            view["trick"] = {"leader": winner, "cards": []}
            won = dict(view.get("tricks_won") or {})
            view["tricks_won"] = {**won, winner: int(won.get(winner, 0)) + 1}
            self.view = view
            self.keep_trick(trick)
        elif kind == "turn":
            # Whose turn it is; this seat's legal actions come with its own ``turn`` push, right after. The
            # action may have had events not followed here (a contract, a double): its snapshot must still
            # be taken, so ``seq`` stays.
            view.update(to_move=seat, phase=event.get("phase") or view.get("phase"))
            self.view = view
            return
        else:
            return
        self.view, self.seq = view, seq

    def showing_summary(self) -> bool:
        """Whether the end-of-hand summary is up: a hand was scored and no key pressed since, nor a card played
        in the next hand (``summary_seen``, set by the ``card-played`` and ``passed`` events, or here once a
        view of the next hand shows a card). The next hand's contract and doubles do not end it: the
        decision menu shows beside it, so it can still be read when this seat's decision is due. A watcher
        has no decision to show beside it: theirs goes as soon as the next hand's contract is chosen, so that
        the table shows the contract and the doubles as they come (the log and the score sheet keep the
        hand's result)."""
        view = self.view or {}
        if self.summary is None or self.summary_seen:
            return False
        later = int(view.get("hand_number") or 0) > int(self.summary.get("hand_number") or 0)
        played = (
            (view.get("trick") or {}).get("cards")
            or view.get("tricks")
            or any((view.get("rows") or {}).values())
            or (self.seat is None and view.get("contract"))
        )
        if later and played:
            self.summary_seen = True  # for good: it must not come back between the tricks
            return False
        return True

    def take_players(self, push: Any) -> None:
        """Take a ``players`` push (or a snapshot's seats): seats, away, state, spectators, stand-ins, when
        each dropped seat's grace ends, and whether the match is paused."""
        self.players, self.away, self.state = push.players, push.away, push.state
        spectators = getattr(push, "spectators", None)
        if spectators is not None:
            self.spectators = list(spectators)
            self.spectators_known = True
        self.standins = list(getattr(push, "standins", []))
        self.seats_known = True
        now = time.monotonic()
        self.standin_at = {s: now + float(v) for s, v in getattr(push, "standin_in", {}).items()}
        self.freed_at = {s: now + float(v) for s, v in getattr(push, "freed_in", {}).items()}
        self.paused = bool(getattr(push, "paused", False))
        if self.paused:  # no timer runs meanwhile (``turn_left_ms`` nil); the snapshot on resuming says it
            self.turn_ends = self.idle_ends = None

    def own_seat(self) -> str | None:
        """The seat this client's player (``me``) owns here, whether they sit in it or look on (the match
        over, or a stand-in playing it); None when they own none."""
        return next((s for s, p in self.players.items() if self.me and p == self.me), None)

    @property
    def my_turn(self) -> bool:
        """Whether this client's seat is to move and has legal actions (never while the view is stale)."""
        v = self.view
        return (
            not self.stale
            and v is not None
            and self.seat is not None
            and v.get("to_move") == self.seat
            and bool(v.get("legal"))
        )


def _play(view: dict[str, Any], seat: str, card: str) -> None:
    """``seat`` played ``card``: on the trick (a new one when the last is complete or none is started) or,
    in Dominoes, on its suit's row; out of the seat's hand (``view`` is changed in place, its parts copied)."""
    if view.get("start_rank") is not None:  # Dominoes: the rows, low to high
        rows = dict(view.get("rows") or {})
        row = [*rows.get(card[-1], []), card]
        rows[card[-1]] = sorted(row, key=lambda c: RANKS.index(c[0]))
        view["rows"], view["plays"] = rows, [*(view.get("plays") or []), [seat, card]]
    else:
        trick = view.get("trick") or {}
        cards = list(trick.get("cards") or [])
        view["trick"] = {"leader": trick.get("leader") if cards else seat, "cards": [*cards, card]}
    if view.get("seat") == seat:
        view["hand"] = [c for c in view.get("hand") or [] if c != card]
    sizes = dict(view.get("hand_sizes") or {})
    if seat in sizes:
        sizes[seat] = max(int(sizes[seat]) - 1, 0)
    view["hand_sizes"] = sizes


@dataclass
class SolitaireModel:
    """One solitaire room as last seen: its id, ``seat`` (``player`` when this client plays it, None when
    watching), the number ``seq`` of the last action the ``view`` reflects, and the solitaire view
    (``docs/protocol.md`` "The solitaire view"); ``seed`` the deal's seed when this client chose it (the
    server shows a seed its player gave at once; an older server only once the game was over)."""

    room: str
    seat: str | None
    seq: int = -1
    view: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None

    def take(self, seq: int, view: dict[str, Any]) -> None:
        """Take ``view`` unless it is older than the one shown (a reply can arrive after a later push)."""
        if seq >= self.seq:
            self.seq, self.view = seq, view


@dataclass
class Model:
    """Everything the screens draw from.

    Attributes:
        url: the server address.
        name: the player name (after login).
        status: the connection state in words (``connected``, ``connection lost, reconnecting (try 3)`` ...).
        connected: whether requests can be sent now.
        rooms: the lobby's room summaries as last listed.
        table: the table being played or watched, if any.
        solitaire: the solitaire room being played or watched, if any.
        daily: the day's deal of each solitaire game with its results (``rooms.daily``).
        notice: the latest one-line message (errors, what happened); ``notice_place`` where it was said
            (``place()``): it shows there only, or anywhere when said in the lobby.
        log: the latest messages, oldest first (the notice among them, unless cleared).
        notice_at: how many messages had been logged when the notice was (0: the notice is not logged).
        logged: how many messages have been logged in all.
        screens, notice_screens: how many screen changes there were, in all and when the notice was said.
        screen: the screen shown (``lobby``, ``table``, ``solitaire``, ...): a table's news takes the notice
            line only while the table shows (``news``).
        entries: every logged message with its number and place (``table:ROOM`` for a table's news and what
            was said while it showed, ``solitaire``, ``""`` for the lobby): each table's log is its own.
        own_table: the table where this player holds a seat while another table is watched (``t`` goes
            back to it; its turns and news are followed meanwhile).
        told: for each table seen, how many of its hands the log has told the scores of (coming back to
            it, the log says which hands were played meanwhile).
        handed_over: the table whose seat the notice says a bot now plays for the player (``x``, or the idle
            hand-over) and that notice's number in the log (``notice_at``): sitting there again replaces it.
        left_at: for each table whose seat a bot took over (``x``, the idle hand-over), the hand number, how
            many cards the seat held then and whom it had doubled: sitting there again, the log says what the
            bot played and doubled meanwhile.
    """

    url: str
    name: str = ""
    status: str = "not connected"
    connected: bool = False
    rooms: list[dict[str, Any]] = field(default_factory=list)
    table: TableModel | None = None
    solitaire: SolitaireModel | None = None
    daily: list[dict[str, Any]] = field(default_factory=list)
    notice: str = ""
    notice_error: bool = False
    notice_place: str = ""
    log: deque[str] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    notice_at: int = 0
    logged: int = 0
    screens: int = 0
    notice_screens: int = 0
    screen: str = "login"
    entries: deque[tuple[int, str, str]] = field(default_factory=lambda: deque(maxlen=ENTRIES))
    own_table: TableModel | None = None
    told: dict[str, int] = field(default_factory=dict)
    handed_over: tuple[str, int] | None = None
    left_at: dict[str, tuple[int, int, frozenset[str]]] = field(default_factory=dict)

    def say(self, text: str, error: bool = False, place: str | None = None) -> None:
        """Set the notice line (and keep it in the log) of ``place`` (None: where the player is, ``place()``;
        ``""``: the lobby's, shown wherever the player goes next)."""
        self.notice = text
        self.notice_error = error
        self.notice_at = 0
        self.notice_screens = self.screens
        self.notice_place = self.place() if place is None else place
        if text:
            self.note(text, self.notice_place, refusal=error)
            self.notice_at = self.logged

    def say_handed_over(self, text: str, room: str) -> None:
        """Say ``text`` for the lobby, where the player now is: a bot plays their seat at table ``room`` until
        they sit there again (``seat_taken_back`` then replaces it)."""
        self.say(text, place="")
        self.handed_over = (room, self.notice_at)

    def seat_left(self, table: TableModel) -> None:
        """A bot now plays the player's seat at ``table`` (``x``, the idle hand-over): remember where the hand
        was (``left_at``) for ``seat_taken_back``."""
        view = table.view or {}
        if view.get("hand_number"):
            doubled = frozenset(_doubled_by(view, table.seat))
            self.left_at[table.room] = (int(view["hand_number"]), len(view.get("hand") or []), doubled)

    def seat_taken_back(self, room: str, seat: str, name: str) -> None:
        """The player sits in ``seat`` at table ``room`` (its ``name``) again: a notice still saying that a
        bot plays it there is replaced by one saying they are back (the log keeps both), and the table's log
        says what the bot played meanwhile in the hand still played (``While you were away, the bot played 3
        cards for you.``, and ``While you were away, the bot doubled W bot for you.``; hands played out
        meanwhile have their own line, ``missed_text``). The notice says so whatever was said since the seat
        was left (another screen, a refusal in the lobby)."""
        left = self.left_at.pop(room, None)
        table = self.table if self.table is not None and self.table.room == room else None
        view = (table.view or {}) if table is not None else {}
        if left is not None and table is not None and view.get("hand_number") == left[0]:
            played = left[1] - len(view.get("hand") or [])
            what = "no card" if played <= 0 else f"{played} card" + ("s" if played > 1 else "")
            self.note(f"While you were away, the bot played {what} for you.", f"table:{room}")
            doubled = [t for t in _doubled_by(view, seat) if t not in left[2]]
            if doubled:
                whom = " and ".join(f"{t} {table.player(t)}" for t in doubled)
                self.note(f"While you were away, the bot doubled {whom} for you.", f"table:{room}")
        handed, self.handed_over = self.handed_over, None
        if left is not None or (handed is not None and handed[0] == room):
            self.say(f"You sit in seat {seat} at {name} again: the bot no longer plays it.")

    def shown_notice(self) -> str:
        """The notice as the screen shows it: one said at a table or in a solitaire room only there (news of
        one room never shows in another), one said in the lobby (or a question) anywhere."""
        return self.notice if self.notice_place in ("", self.place()) else ""

    def news(self, text: str, room: str | None = None) -> None:
        """A table's news (a card played, who joined) of ``room`` (None: the current table): the notice while
        that table (or its score sheet) shows; elsewhere (the lobby, a solitaire room, another table) only
        that table's log, so that it does not replace what that screen said (a refusal there, say) every
        second a bot plays."""
        current = self.table.room if self.table is not None else None
        if self.screen in ("table", "sheet") and room in (None, current):
            self.say(text)
        else:
            self.note(text, f"table:{room or current}")

    def place(self) -> str:
        """Where what is said now belongs: ``table:ROOM`` while a table (or its score sheet) shows,
        ``solitaire`` in a solitaire room, else ``""`` (the lobby)."""
        if self.screen in ("table", "sheet") and self.table is not None:
            return f"table:{self.table.room}"
        return "solitaire" if self.screen == "solitaire" else ""

    def listed(self, room: str) -> dict[str, Any]:
        """The lobby's last summary of ``room`` (from ``rooms``; empty when it is not listed)."""
        return next((r for r in self.rooms if str(r.get("room")) == room), {})

    def screen_changed(self) -> None:
        """Another screen shows: a notice said before the previous screen change goes (the log keeps it), so
        an old message does not linger over new screens."""
        self.screens += 1
        if self.screens - self.notice_screens > 1 and self.notice:
            self.clear_notice()

    def clear_notice(self) -> None:
        """Empty the notice line (the log keeps what it said)."""
        self.notice, self.notice_error, self.notice_at = "", False, 0

    def ask(self, text: str, place: str = "", passing: bool = False) -> None:
        """Show ``text`` (a question, or its answer; a passing remark such as ``z does nothing here``) on the
        notice line without keeping it in the log, in ``place`` (``""``: anywhere, as ``say`` has it);
        ``passing``: only until the next screen shows (an answer such as ``Cancelled.``)."""
        self.notice, self.notice_error, self.notice_at = text, False, 0
        # Counted as said a screen earlier, so that the next ``screen_changed`` clears it.
        self.notice_screens, self.notice_place = self.screens - (1 if passing else 0), place

    def note(self, text: str, place: str | None = None, refusal: bool = False) -> None:
        """Keep ``text`` in the log of ``place`` (None: where the player is, ``place()``) without making it
        the notice. The same text said again right after in the same place is kept once (a ``refusal`` whose
        numbers alone changed, ``wait 49 s`` after ``wait 50 s``, replaces the one before)."""
        where = self.place() if place is None else place
        last = self.entries[-1] if self.entries else None
        shape = _shape if refusal else str
        if last is not None and last[1] == where and shape(last[2]) == shape(text):
            self.entries[-1] = (self.entries[-1][0], where, text)
            if self.log:
                self.log[-1] = text
            return
        self.log.append(text)
        self.logged += 1
        self.entries.append((self.logged, where, text))

    def earlier(self) -> list[str]:
        """The current place's own log (a table's news and what was said while it showed, never another
        table's, a solitaire room's nor the lobby's) without the message shown as the notice, oldest first."""
        here = self.place()
        lines = [text for number, place, text in self.entries if place == here and number != self.notice_at]
        return lines[-CHAT_LINES:]


def _doubled_by(view: dict[str, Any], seat: str | None) -> list[str]:
    """The seats ``seat`` has doubled in the hand of ``view``, in seat order."""
    targets = {str(b) for a, b in view.get("doubles") or [] if a == seat}
    return [s for s in SEATS if s in targets]


def _shape(text: str) -> str:
    """``text`` with its numbers taken out: a repeated refusal counting down (``wait 50 s``) has one shape."""
    return re.sub(r"\d+", "#", text)

"""The prompt-toolkit application of ``barbu play``: the layout (status line, the current screen, notice,
input line, key hints), the screens' switching, and the glue between keys, screens and the session."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import textwrap
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text, fragment_list_width
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.widgets import TextArea

from cli.solitaire import parse_options
from client.columns import fit_fragments, shorten, width, wrap
from client.connection import ServerError
from client.tui.barbu_screen import (
    BarbuScreen,
    hand_line,
    side_lines,
    table_lines,
    table_width,
    waiting_room,
)
from client.tui.events import full_sentence
from client.tui.help import help_hints, help_page
from client.tui.keys import build_key_bindings
from client.tui.lobby_screen import (
    FORM_ROWS,
    TABLE_NAME_LIMIT,
    TABLE_NAME_PROMPT,
    LobbyScreen,
    lobby_lines,
)
from client.tui.model import Model, TableModel
from client.tui.refusals import typed_card_refusal
from client.tui.session import NETWORK_ERRORS, RETRY_DELAYS, Session, refusal_text
from client.tui.sheet_screen import SHEET_TOP_LINES, sheet_lines, sheet_top
from client.tui.solitaire_screen import SolitaireRoom, SolitaireScreen, solitaire_lines
from client.tui.solitaire_words import options_refusal, refusal_words
from client.tui.style import STYLE
from client.tui.tokens import TokenStore
from engine.cards import SEATS
from engine.solitaire import GAMES, RecordError

LOBBY_REFRESH = 2.0
TABLE_HEIGHT = 13
#: The smallest terminal the client draws in; below it the screen says so instead of dropping columns.
MIN_COLUMNS, MIN_ROWS = 80, 24
TOO_SMALL = f"The terminal is too small ({MIN_COLUMNS}x{MIN_ROWS} needed)."
#: The longest chat message the server takes (``docs/protocol.md``, ``chat.text``), in characters.
CHAT_LIMIT = 500
#: The notice wraps at word boundaries onto this many lines at most (the log keeps a longer one whole).
NOTICE_LINES = 3
#: The seconds before the idle hand-over (docs/protocol.md, "An idle seat") from which the notice line warns
#: the player whose turn waits (``TuiApp.idle_warning``).
IDLE_WARNING = 30.0
#: How the help is left, said when a key does nothing there (``TuiApp.nothing_here``).
HELP_BACK = "Esc goes back."
#: The key line of each screen, and of each state of one (``table-watching``, ``table-over`` ...): the keys
#: that do something there, each at most 80 columns.
KEY_HINTS = {
    "login": "Enter: confirm   Ctrl-C: quit",
    "lobby": "Enter sit  w watch  b/f bots  n new  o solitaire  s standings  ? help  q quit",
    "standings": "Esc or s: back to the lobby   r refresh   ? help   q quit",
    "games": "Up/Down game  Enter day's deal  r random  w winnable  : options, seed  Esc back",
    "form": "Up/Down field  Left/Right change  e name  Enter open the table  Esc cancel",
    "form-name": "Enter take the name (then Enter opens the table)  Up/Down field  Esc cancel",
    "table": "←→ card  Enter play  : type a card  s sheet  c chat  l lobby  t game  ? help",
    "table-contract": "↑↓ contract  Enter choose  Esc back  s sheet  c chat  l lobby  t game  ? help",
    "table-double": "↑↓ seat  Space tick  Enter send  s sheet  c chat  l lobby  t game  ? help",
    "table-pass": "Enter or p: pass, no card fits a row  s sheet  c chat  l lobby  t game  ? help",
    "table-summary": "any key puts the summary away   s sheet  c chat  l lobby  t game  ? help",
    "table-summary-watching": "any key puts the summary away   s sheet  c chat  l lobby  ? help",
    "table-others": "s sheet  c chat  l lobby  t game  ? help   the other seats decide now",
    "table-waiting": "b bot  f fill  k remove a player  c chat  x leave the seat  l lobby  ? help",
    "table-waiting-guest": "c chat  x leave the seat  l lobby  ? help   waiting for the host's players",
    "table-watching": "you watch this table   s sheet  c chat  x stop watching  l lobby  ? help",
    "table-over": "s score sheet  c chat  l lobby  ? help   the match is over",
    "table-over-host": "r another match, same players  s score sheet  c chat  l lobby  ? help",
    "table-over-next": "w to the next match  s score sheet  c chat  l lobby  ? help",
    "sheet": "Up/Down scroll   Esc or s: back to the table",
    "solitaire": "arrows  Enter pick/drop  d draw  u undo  r redo  h hint  n new  x resign  ? help",
    "solitaire-daily": "arrows  Enter pick/drop  d draw  u undo  r redo  n new  x resign  ? help",
    "solitaire-over": "n new deal  arrows look around  Esc or l: lobby  ? help   the game is over",
    "solitaire-watching": "arrows look around   Esc or l: lobby   ? help   you watch: only the player moves",
}


#: Seconds a lone Esc waits to be told from the start of a key's escape sequence (prompt-toolkit: 0.5).
ESC_WAIT = 0.1


class TuiApp:
    """The terminal client.

    Args:
        url: the server's ``ws://host:port``.
        name: log in as this name at once (None: ask).
        password: the server password (None: ask only if the server wants one).
        after_login: a coroutine function run once after the first login (``--local`` seats the player).
        retry_delays: the reconnect pauses.
        tokens: where resume tokens are kept between runs (default: ``TokenStore()``, the user's data dir).
        server_key: the server's name among the kept tokens (default: ``url``).
        local: the server runs inside this client (``--local``) and stops with it.
        locate: where the server is now, asked before each reconnect (``Session``; ``--local --watch``).
        follow: the game a watcher follows among the lobby's rooms (``Session``; ``--local --watch``).
    """

    def __init__(
        self,
        url: str,
        name: str | None = None,
        password: str | None = None,
        after_login: Callable[[TuiApp], Awaitable[None]] | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        tokens: TokenStore | None = None,
        server_key: str | None = None,
        local: bool = False,
        locate: Callable[[], str | None] | None = None,
        follow: Callable[[list[dict[str, Any]]], str | None] | None = None,
    ):
        self.model = Model(url)
        self.local = local
        self.session = Session(
            self.model,
            self.invalidate,
            retry_delays,
            tokens=tokens if tokens is not None else TokenStore(),
            server_key=server_key,
            locate=locate,
            follow=follow,
        )
        self.session.on_removed = self._removed_from_table
        self.screen = "login"
        self.back_to = "lobby"
        #: The game screen last shown (``t`` in the lobby goes back to it).
        self.last_game = "table"
        self.lobby = LobbyScreen()
        self.barbu = BarbuScreen()
        self.solitaire: SolitaireScreen | None = None
        self.sheet_top = 0
        self.help_page = 0
        self.name = name
        self.password = password
        #: The personal secret typed for ``name`` (the name was claimed elsewhere); None: the kept one.
        self.personal: str | None = None
        self.after_login = after_login
        #: A line printed once the full screen is gone (``q`` on the unfinished day's deal: it is kept).
        self.farewell = ""
        self.input_mode: str | None = None
        self.prompt = ""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.secret = False
        self.input = TextArea(
            height=1,
            multiline=False,
            accept_handler=self._accept,
            password=Condition(lambda: self.secret),
        )
        self.app: Application[int] = Application(
            layout=self._layout(),
            key_bindings=build_key_bindings(self),
            style=STYLE,
            full_screen=True,
            refresh_interval=None,
            before_render=lambda _: self._sync(),
        )
        #: What a ``y`` does while a question waits on the notice line (any other key: nothing), and the
        #: question: it stays on the notice line until answered, whatever notices come meanwhile (the log
        #: keeps those).
        self.pending: Callable[[], None] | None = None
        self.question = ""
        self.app.key_processor.before_key_press += lambda _: self._key_pressed()
        # A lone Esc is told from the start of an arrow key's sequence by waiting: prompt-toolkit's half a
        # second made every Esc (close, back) feel slow; a terminal sends a sequence's bytes together, and
        # 0.1 s is what Vim's defaults wait too.
        self.app.ttimeoutlen = ESC_WAIT

    # Layout -----------------------------------------------------------------------------------------

    def _layout(self) -> Layout:
        self._windows = {
            "login": Window(FormattedTextControl(self._login_text)),
            "lobby": Window(FormattedTextControl(self._lobby_text)),
            "table": HSplit(
                [
                    VSplit(
                        [
                            Window(
                                FormattedTextControl(self._table_text), width=lambda: self.table_width() + 1
                            ),
                            Window(width=1, char="│", style="class:dim"),
                            Window(FormattedTextControl(self._side_text)),
                        ],
                        height=lambda: self.table_height(),
                    ),
                    Window(FormattedTextControl(self._hand_text), height=2, wrap_lines=True),
                    Window(FormattedTextControl(self._log_text), wrap_lines=False),
                ]
            ),
            "sheet": Window(FormattedTextControl(self._sheet_text)),
            "solitaire": Window(FormattedTextControl(self._solitaire_text)),
            "help": Window(
                FormattedTextControl(
                    lambda: [("", help_page(self.help_page, self.help_game(), self.only_watching()))]
                )
            ),
        }
        self._focus_sink = Window(FormattedTextControl("", focusable=True), height=0)
        input_row = ConditionalContainer(
            VSplit(
                [
                    Window(
                        FormattedTextControl(lambda: [("class:label", self.prompt)]), dont_extend_width=True
                    ),
                    self.input,
                ]
            ),
            filter=Condition(lambda: self.input_mode is not None),
        )
        too_small = Window(
            FormattedTextControl(lambda: [("class:error", self._too_small_text())]), wrap_lines=True
        )
        body = HSplit(
            [
                Window(FormattedTextControl(self._status_text), height=1, style="class:status"),
                DynamicContainer(lambda: self._windows[self.screen]),
                Window(FormattedTextControl(self._notice_text), height=lambda: len(self._notice_lines())),
                input_row,
                Window(FormattedTextControl(self._key_hints), height=1, style="class:keys"),
                self._focus_sink,
            ]
        )
        small = HSplit([too_small, self._focus_sink])
        root = DynamicContainer(lambda: small if self.too_small() else body)
        return Layout(root, focused_element=self._focus_sink)

    def too_small(self) -> bool:
        """Whether the terminal is smaller than the 80x24 the screens are drawn for (False while the
        application is being built)."""
        if not hasattr(self, "app"):
            return False
        size = self.app.output.get_size()
        return size.columns < MIN_COLUMNS or size.rows < MIN_ROWS

    def _too_small_text(self) -> str:
        size = self.app.output.get_size()
        return f"{TOO_SMALL}\nIt is {size.columns}x{size.rows} now: make the window larger."

    def table_height(self) -> int:
        """The table's height: 13 lines at 24 rows; a taller terminal gives it up to 10 more (the log, below
        it, gets the rest)."""
        rows = self.app.output.get_size().rows
        return TABLE_HEIGHT + max(min((rows - MIN_ROWS) // 2, 10), 0)

    def table_width(self) -> int:
        """The table's width: 46 columns at 80, half of every column more (``barbu_screen.table_width``)."""
        return table_width(self.app.output.get_size().columns)

    def _key_hints(self) -> str:
        """The key line: the keys of the screen shown, in its present state (the games list and the new-table
        form over the lobby; a table watched, waiting for players or over; a solitaire room watched)."""
        if self.screen == "help":
            return help_hints(self.help_page, self.help_game())
        table = self.model.table
        if self.screen == "lobby" and self.lobby.form is not None:  # Enter in the name field only takes it
            return KEY_HINTS["form-name" if self.input_mode == "table" else "form"]
        if self.screen == "lobby" and self.lobby.picking:
            return KEY_HINTS["games"]
        if self.screen == "lobby" and self.lobby.standings is not None:
            return KEY_HINTS["standings"]
        if self.screen == "table" and table is not None:
            if self.summary_up():  # every key, an arrow too, only puts it away (c, s...: their job too)
                return KEY_HINTS["table-summary-watching" if self.only_watching() else "table-summary"]
            if (table.view or {}).get("phase") == "over" and table.rematch is not None:
                return KEY_HINTS["table-over-next"]
            if (table.view or {}).get("phase") == "over":
                host = table.host == self.model.name if table.host is not None else table.seat is not None
                return KEY_HINTS["table-over-host" if host else "table-over"]
            if table.seat is None:
                return KEY_HINTS["table-watching"]
            if table.view is None:
                return KEY_HINTS["table-waiting" if self.hosts(table) else "table-waiting-guest"]
            phase = table.view.get("phase")
            if table.my_turn and phase in ("double", "redouble"):
                return KEY_HINTS["table-double"]
            if table.my_turn and phase == "contract":
                return KEY_HINTS["table-contract"]
            if table.my_turn and all(a.get("action") == "pass" for a in table.view.get("legal") or []):
                return KEY_HINTS["table-pass"]  # Dominoes, no card fits a row: no card to choose
            if not table.my_turn and phase in ("contract", "double", "redouble"):
                return KEY_HINTS["table-others"]  # not this player's decision: no card or seat keys
        if self.screen == "solitaire" and self.solitaire is not None and self.solitaire.room.watching:
            return KEY_HINTS["solitaire-watching"]
        if self.screen == "solitaire" and self.solitaire is not None and self.solitaire.room.over():
            return KEY_HINTS["solitaire-over"]  # won, lost or resigned: no move keys left
        if (
            self.screen == "solitaire"
            and self.solitaire is not None
            and self.solitaire.room.view.get("daily")
        ):
            return KEY_HINTS["solitaire-daily"]  # the server gives no hints on the day's deal
        return KEY_HINTS[self.screen]

    def hosts(self, table: TableModel) -> bool:
        """Whether this player is ``table``'s host (who adds bots and removes players before the start); a
        table whose host is not known counts as this player's (the server refuses if not)."""
        return table.host is None or table.host == self.model.name

    def _sync(self) -> None:
        table = self.model.table
        if table is not None:
            self.barbu.sync(table)

    def help_game(self) -> str | None:
        """The solitaire game whose card the help opens at (opened from its room), else None."""
        if self.where() != "solitaire" or self.model.solitaire is None:
            return None
        game = self.model.solitaire.view.get("game")
        return str(game) if game in GAMES else None

    def only_watching(self) -> bool:
        """Whether the player watches the table shown (or gone back to) and plays no game of their own here:
        no seat at another table, no solitaire room of theirs, so no key plays or changes a game (``t``
        has nowhere to go)."""
        table, own, solitaire = self.model.table, self.model.own_table, self.model.solitaire
        if self.where() != "table" or table is None or table.seat is not None or own is not None:
            return False
        return solitaire is None or solitaire.seat is None

    def where(self) -> str:
        """The screen the player is at: the one shown, or under the help and the score sheet the one they go
        back to (the top line and the help's first page follow it)."""
        return self.back_to if self.screen in ("help", "sheet") else self.screen

    def _status_text(self) -> StyleAndTextTuples:
        """The top line: the connection first, whole (while reconnecting above all), then the player's name,
        the table, seat and whose turn it is, cut to the terminal's width (``_status_parts`` makes each part
        fit; what still does not is cut at the end, never the connection)."""
        out = self._status_parts()
        return fit_fragments(out[:1], self.app.output.get_size().columns) + fit_fragments(
            out[1:], self.app.output.get_size().columns - fragment_list_width(out[:1])
        )

    def _status_parts(self) -> StyleAndTextTuples:
        m = self.model
        conn_style = "class:status.ok" if m.connected else "class:status.bad"
        out: StyleAndTextTuples = [(conn_style, f" {m.status} ")]
        if m.name:
            out.append(("class:status", f" {self.own_name()} "))
        own = self.turn_elsewhere()
        solitaire = self.where() == "solitaire" and self.solitaire is not None
        if solitaire and self.solitaire is not None:
            out.append(("class:status", f"│ solitaire: {self.solitaire.room.title} "))
        if own is not None:  # whatever is watched or played, the player's own turn comes first
            out.append(("class:status.turn", self._turn_elsewhere_text(own, out)))
        if own is not None or solitaire:
            return out
        table = m.table
        if table is None:
            out.append(("class:status", "│ no table "))
            return out
        tail = self._table_status(table)
        name = self.table_name(fragment_list_width(out) + fragment_list_width(tail))
        out.append(("class:status", f"│ {name}{self._seat_words(table)} "))
        return out + tail

    def _seat_words(self, table: TableModel) -> str:
        """`` seat S``; for a watcher `` watching``, or at a table where they hold a seat but only look on
        (a finished match, or a stand-in plays it) `` your seat S`` / `` watching your seat S``."""
        if table.seat is not None:
            return f" seat {table.seat}"
        mine = table.own_seat()
        if mine is None:
            return " watching"
        return f" your seat {mine}" if table.state == "over" else f" watching your seat {mine}"

    def own_name(self) -> str:
        """The player's name on the top line: whole when it fits beside the rest of the line (at a table its
        state and seat words and at least 8 columns of the table's name, elsewhere a room of 30 columns),
        else cut to what is left (at least 8 columns: the connection's words, ``connection lost,
        reconnecting (try 3)``, are not to be pushed off the line)."""
        name, table = self.model.name, self.model.table
        rest = 30
        if table is not None and self.where() != "solitaire" and self.turn_elsewhere() is None:
            rest = (
                fragment_list_width(self._table_status(table))
                + width(f"│ {self._seat_words(table)} ")
                + min(width(table.name), 8)
            )
        room = self.app.output.get_size().columns - width(f" {self.model.status} ") - 2 - rest
        return shorten(name, max(room, 8))

    def table_name(self, used: int | None = None) -> str:
        """The current table's name as the top line and the table's waiting line both show it: whole when it
        fits the top line (less its ``used`` columns) and the waiting line, else cut once, in the middle, to
        what both leave, so the two read alike."""
        table = self.model.table
        if table is None:
            return ""
        if used is None:
            before = width(f" {self.model.status} ") + (
                width(f" {self.own_name()} ") if self.model.name else 0
            )
            used = before + fragment_list_width(self._table_status(table))
        room = self.app.output.get_size().columns - used - width(f"│ {self._seat_words(table)} ")
        if table.view is None:
            room = min(room, waiting_room(table, self.table_width()))
        return shorten(table.name, max(room, 8))

    def _table_status(self, table: TableModel) -> StyleAndTextTuples:
        """The top line's end at a table: its state, or whose turn it is (on the help over it, ``Esc`` back)."""
        view = table.view
        if view is None:
            return [("class:status", f"│ {table.state} ")]
        if table.stale:  # the connection dropped: a stand-in may have played since
            return [("class:status", "│ turn: ? ")]
        if view.get("to_move") is None:
            return [("class:status", "│ match over ")]
        clock = table.turn_clock()
        clock = f"{clock} " if clock else ""
        if table.my_turn:
            back = ": Esc back " if self.screen == "help" else ""
            turn = f"│ YOUR TURN ({view.get('phase')}) {clock}"
            return [("class:status.turn", turn.rstrip() + back if back else turn)]
        mover = str(view.get("to_move"))
        name = shorten(table.player(mover), 12)
        return [("class:status", f"│ turn: {mover} {name} ({view.get('phase')}) {clock}")]

    def _turn_elsewhere_text(self, own: TableModel, before: StyleAndTextTuples) -> str:
        """The status line's ``│ your turn at friday (play): t``, after ``before``: the table's name as whole
        as the line's width leaves room for (at least 8 columns), so ``: t``, the key, is never cut off (on
        the help, ``: Esc, t``: the help takes no ``t``)."""
        clock = f" {own.turn_clock()}" if own.turn_clock() else ""
        key = "Esc, t" if self.screen == "help" else "t"
        tail = f" ({(own.view or {}).get('phase')}){clock}: {key} "
        head = "│ your turn at "
        room = self.app.output.get_size().columns - fragment_list_width(before) - width(head + tail)
        return f"{head}{shorten(own.name, max(room, 8))}{tail}"

    def turn_elsewhere(self) -> TableModel | None:
        """The table where it is this player's turn while another screen shows (the lobby, the solitaire
        room, another table watched): ``t`` goes there first."""
        own, table = self.model.own_table, self.model.table
        if own is not None and own.my_turn:
            return own
        if table is not None and table.my_turn and self.where() not in ("table", "sheet"):
            return table
        return None

    def idle_warning(self) -> str:
        """``A bot takes your seat in 25 s unless you play.`` in the last ``IDLE_WARNING`` seconds before the
        idle hand-over gives the seat whose turn waits to a stand-in (``at friday`` when the turn waits at a
        table not shown); empty otherwise. Drawn afresh each second, never logged: the countdown floods
        nothing."""
        table = self.turn_elsewhere()
        here = self.model.table
        if table is None and here is not None and here.my_turn:
            table = here
        left = None if table is None else table.idle_left()
        if table is None or left is None or left > IDLE_WARNING:
            return ""
        where = "" if table is here and self.where() == "table" else f" at {shorten(table.name, 30)}"
        return f"A bot takes your seat{where} in {left:.0f} s unless you play."

    def _notice(self) -> tuple[str, str]:
        """The notice line's style and text: a pending question, the warning before the idle hand-over, the
        solitaire screen's message there, else the model's notice."""
        if self.pending is not None:
            return "class:warn", self.question
        warning = self.idle_warning()
        if warning:
            return "class:error", warning
        if self.screen == "solitaire" and self.solitaire and self.solitaire.notice():
            return "", self.solitaire.message
        return ("class:error" if self.model.notice_error else "class:notice"), self.model.shown_notice()

    def _notice_lines(self) -> list[str]:
        """The notice wrapped to the terminal's width (one line at least, ``NOTICE_LINES`` at most): a refusal
        such as ``seat-held`` is longer than 80 columns and must be read whole; in the lobby (its list, form or
        games list) only in the lines its screen leaves free, so that it never hides a game's rules card."""
        size = self.app.output.get_size()
        most = NOTICE_LINES
        if self.screen == "lobby":  # less the status line, the key line and the input line when open
            free = size.rows - 2 - (self.input_mode is not None) - self._lobby_text_lines()
            most = max(min(most, free), 1)
        lines = textwrap.wrap(self._notice()[1], max(size.columns, 20), max_lines=most, placeholder=" ...")
        return lines or [""]

    def _lobby_text(self) -> StyleAndTextTuples:
        typed = self.input.text if self.input_mode == "table" else None
        return lobby_lines(self.model, self.lobby, self.app.output.get_size().columns, typed)

    def _lobby_text_lines(self) -> int:
        """How many lines the lobby screen (its list, form or games list) takes."""
        return fragment_list_to_text(self._lobby_text()).rstrip("\n").count("\n") + 1

    def _notice_text(self) -> StyleAndTextTuples:
        return [(self._notice()[0], "\n".join(self._notice_lines()))]

    def _login_text(self) -> StyleAndTextTuples:
        return [
            ("class:title", "barbu - Barbu and solitaire with friends\n\n"),
            ("", f"Server: {self.model.url}\n\n"),
            ("", "Type your player name below and press Enter.\n" if self.input_mode == "name" else ""),
            ("", "This server wants its password.\n" if self.input_mode == "password" else ""),
            (
                "",
                "Only you know your personal password: it takes your seat back from anywhere.\n"
                " (Enter on an empty line: another name.)\n"
                if self.input_mode == "secret"
                else "",
            ),
        ]

    def _table_text(self) -> StyleAndTextTuples:
        table = self.model.table
        if table is None:
            return []
        return table_lines(table, self.table_width(), self.table_height(), self.table_name())

    def _side_text(self) -> StyleAndTextTuples:
        table = self.model.table
        cols = self.app.output.get_size().columns - self.table_width() - 2
        return [] if table is None else side_lines(table, self.barbu, cols, self.table_height())

    def _hand_text(self) -> StyleAndTextTuples:
        table = self.model.table
        return [] if table is None else hand_line(table, self.barbu)

    def _sheet_text(self) -> StyleAndTextTuples:
        table = self.model.table
        if table is None:
            return []
        # less the status, the sheet's top lines, the notice, key hints and a spare line
        height = self.app.output.get_size().rows - SHEET_TOP_LINES - 4
        view, players = table.view or {}, table.players_by_seat()
        self.sheet_top = sheet_top(view, players, self.sheet_top, height)
        return sheet_lines(view, players, self.sheet_top, height)

    def _log_text(self) -> StyleAndTextTuples:
        """The earlier messages, the newest last, right above the notice line (blank space goes on top)."""
        size = self.app.output.get_size()  # less the table, hand (2), status, notice, key hints, input
        notice = len(self._notice_lines())
        height = max(size.rows - self.table_height() - 4 - notice - (self.input_mode is not None), 0)
        wrapped = [part for line in self.model.earlier() for part in wrap(line, max(size.columns, 20))]
        lines = wrapped[-height:] if height else []
        return [("class:dim", "\n" * (height - len(lines)) + "\n".join(lines))]

    def _solitaire_text(self) -> StyleAndTextTuples:
        if self.solitaire is None:
            return []
        height = self.app.output.get_size().rows - 4
        return solitaire_lines(self.solitaire, height, self.app.output.get_size().columns)

    # Running ----------------------------------------------------------------------------------------

    def invalidate(self) -> None:
        """Redraw soon (called by the session after every change)."""
        self.app.invalidate()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (key handlers must not block)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.model.say(f"Something went wrong: {task.exception()!r}", error=True)
            self.invalidate()

    async def run(self) -> int:
        """Run until the user quits; returns the exit status."""
        self.app.pre_run_callables.append(self._begin)
        try:
            status = await self.app.run_async()
        finally:
            for task in list(self._tasks):
                task.cancel()
            await self.session.stop()
        if self.farewell:
            print(self.farewell)
        return status

    def _begin(self) -> None:
        if self.name:
            self.spawn(self._login(self.name))
        else:
            self.ask("name", "Name: ", getpass.getuser() if _has_user() else "")
        self.spawn(self._poll_lobby())
        self.spawn(self._tick())

    async def _tick(self) -> None:
        """Redraw every second while a dropped seat counts down to its stand-in, a turn timer or the idle
        hand-over runs (at the table shown, or at the held seat while another is watched)."""
        while True:
            await asyncio.sleep(1.0)
            own, table = self.model.own_table, self.model.table
            if own is not None and own.idle_ends is not None:
                self.invalidate()
            if table is None:
                continue
            if (
                table.standin_at
                or table.freed_at
                or table.turn_ends is not None
                or table.idle_ends is not None
            ):
                self.invalidate()

    async def _poll_lobby(self) -> None:
        while True:
            await asyncio.sleep(LOBBY_REFRESH)
            if self.screen == "lobby" and self.model.connected and self.input_mode is None:
                await self.session.refresh_rooms()

    async def _login(self, name: str) -> None:
        # The session says "Logging in as NAME..." when it sends the login: not when it only finds that the
        # server wants a password (asked next), which would say it twice for one login.
        try:
            await self.session.start(name, self.password, self.personal)
        except ServerError as exc:
            if exc.code == "bad-password":
                self.name = name
                self.model.say("Wrong or missing server password." if self.password else "", error=True)
                self.ask("password", "Server password: ", "", secret=True)
            elif exc.code in ("bad-secret", "secret-needed"):
                self.name = name
                self.model.say(refusal_text(exc, name), error=True)
                self.ask("secret", "Personal password: ", "", secret=True)
            else:
                self.model.status = "not connected" if exc.code != "seat-held" else "seat held"
                self.model.say(refusal_text(exc, name), error=True)
                self.ask("name", "Name: ", name)
            return
        except NETWORK_ERRORS as exc:
            self.model.say(full_sentence(f"Cannot reach {self.model.url}: {exc}"), error=True)
            self.ask("name", "Name: ", name)
            return
        self.model.say(f"Welcome, {self.model.name}. Press ? for the keys.")
        if self.after_login is not None:
            self.show("lobby")
            await self.after_login(self)
        elif not await self.rejoin_held():
            self.show("lobby")

    async def rejoin_held(self) -> bool:
        """Back to the Barbu table where the player still holds a seat (resumed with the kept token), as
        ``--local`` does: its screen shows instead of the lobby. Returns whether it does. A held solitaire
        room stays in the lobby's list (Enter opens it); watched rooms are not watched again."""
        kinds = {str(r.get("room")): r.get("kind") for r in self.model.rooms}
        for room in self.session.held:
            if kinds.get(room) != "solitaire" and await self.session.sit(room):
                self.session.note_arrival(room)
                self._show_room(room)
                return True
        return False

    # Screens and input ------------------------------------------------------------------------------

    def show(self, screen: str) -> None:
        """Switch to ``screen`` (help and the score sheet remember where to go back); a notice older than
        the screen before goes (it stays in the log)."""
        if screen in ("help", "sheet") and self.screen not in ("help", "sheet"):
            self.back_to = self.screen
        if screen != self.screen:
            self.model.screen_changed()
        if screen in ("table", "solitaire"):
            self.last_game = screen
        self.screen = self.model.screen = screen
        self.invalidate()

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` on the notice line: ``y`` runs ``then``, any other key answers no."""
        self.pending = then
        self.question = f"{question} (y: yes, any other key: no)"
        self.model.ask(self.question)
        self.invalidate()

    def answer(self, yes: bool) -> None:
        """The answer to the pending question."""
        then, self.pending = self.pending, None
        if yes and then is not None:
            self.model.ask("")
            then()
        else:
            self.model.ask("Cancelled.", passing=True)  # an answer to what this screen asked, not news
            if self.screen == "solitaire" and self.solitaire is not None:
                self.solitaire.message = "Cancelled."  # not the refusal said before the question
        self.invalidate()

    def nothing_here(self, key: str) -> None:
        """Say that ``key`` (its name as the help writes it: ``z``, ``Enter``, ``F5``) does nothing on this screen
        as it is now: one line on the notice line, replaced by the next key's, and not kept in the log, so that
        keys pressed again and again flood nothing."""
        self.tell(
            f"{key} does nothing here; {HELP_BACK if self.screen == 'help' else '? for the keys.'}", False
        )

    def summary_up(self) -> bool:
        """Whether the table shown has its end-of-hand summary up (its first key only puts it away)."""
        table = self.model.table
        return self.screen == "table" and table is not None and table.showing_summary()

    def put_summary_away(self) -> None:
        """Put the end-of-hand summary away (the key that did it does nothing else)."""
        if self.model.table is not None:
            self.model.table.summary_seen = True
        self.invalidate()

    def _key_pressed(self) -> None:
        """A key typed in the input line (chat, say) puts the end-of-hand summary away too: the summary's own
        binding does not see keys the input line takes."""
        if self.input_mode is not None and self.summary_up():
            self.put_summary_away()

    def leave_for_lobby(self) -> None:
        """Back to the lobby (``l``, Esc in a solitaire room); from an unfinished day's deal only after the
        player confirms: it waits for them, but opening another game would resign it."""

        def go() -> None:
            self.show("lobby")
            self.spawn(self.session.refresh_rooms())

        daily = self.daily_in_play() if self.screen == "solitaire" else ""
        if daily:
            self.confirm(
                f"Leave the day's deal of {daily}? It waits for you (t returns); one game a day counts.", go
            )
        else:
            go()

    def switch_game(self) -> None:
        """``t``: from the lobby back to the game last shown (the Barbu table or the solitaire room); from one
        of them (or the score sheet) to the other, when there is one."""
        own = self.model.own_table
        if own is not None:  # watching another table (or elsewhere): back to the held seat first
            self.spawn(self._back_to_seat())
            return
        has = {"table": self.model.table is not None, "solitaire": self.model.solitaire is not None}
        if self.turn_elsewhere() is not None:  # the turn waiting at the table comes before the last game
            order = ["table"]
        elif self.screen == "lobby":
            order = [self.last_game, "table", "solitaire"]
        else:
            order = ["solitaire" if self.screen == "table" else "table"]
        target = next((s for s in order if has.get(s)), None)
        if target == "solitaire":
            self._show_solitaire()
        elif target is not None:
            self.show(target)
        else:
            self.tell(self._nowhere_to_switch(order[0]))

    def _nowhere_to_switch(self, missing: str) -> str:
        """Why ``t`` goes nowhere: no ``missing`` game (``table``, ``solitaire``) is open; a seat this player
        gave to a bot (``x``, or a stand-in took it) is said with how to take it back."""
        kept = self.kept_seat()
        bot = f"a bot plays your seat {kept[0]} at {shorten(kept[1], 30)}" if kept else ""
        if self.screen == "lobby" and bot:
            return f"You have no table nor solitaire room open; {bot}: Enter on its row takes it back."
        if self.screen == "lobby":
            return "You have no table nor solitaire room open."
        if missing == "solitaire":
            return "You have no solitaire room open: o in the lobby opens one (l)."
        if bot:
            return (
                f"You have no Barbu table open: {bot}; sit there again from the lobby (l, then Enter on it)."
            )
        return "You have no Barbu table open: sit at one from the lobby (l)."

    def kept_seat(self) -> tuple[str, str] | None:
        """The seat (and its table's name) this player owns in a match the lobby lists but does not sit in: a
        bot plays it (given with ``x``, or taken by a stand-in) until they sit there again; None: no such."""
        for room in self.model.rooms:
            if room.get("kind") == "solitaire" or room.get("state") != "playing":
                continue
            if self.model.table is not None and self.model.table.room == str(room.get("room")):
                continue  # the table shown: its top line says "watching your seat S"
            players = room.get("players") or {}
            seat = next((s for s in SEATS if players.get(s) == self.model.name), None)
            if seat is not None:
                return seat, str(room.get("name", "?"))
        return None

    def moved_on(self) -> None:
        """The player moved on in the lobby (a list move, ``r``, the games list opened or closed): the notice
        goes, the log keeps it (``docs/client.md``: old notices do not linger), unless it asks a question."""
        if self.pending is None and self.model.notice:
            self.model.clear_notice()
            self.invalidate()

    def tell(self, text: str, logged: bool = True) -> None:
        """Say ``text`` on the notice line of the screen shown: in a solitaire room that is the room's own
        message line (which hides the model's notice there); elsewhere the notice, kept in the log unless not
        ``logged`` (a passing remark)."""
        if self.screen == "solitaire" and self.solitaire is not None:
            self.solitaire.message = text
        elif logged:
            self.model.say(text)
        else:
            self.model.ask(text, self.model.place())
        self.invalidate()

    async def _back_to_seat(self) -> None:
        own = self.model.own_table
        if own is None:
            return
        if await self.session.back_to_seat():
            self._show_room(own.room)
        else:  # refused (said by the request) or no seat to go back to: said where the player still is
            self.tell(self.model.notice or f"Your seat at {shorten(own.name, 30)} cannot be taken back now.")

    def back(self) -> None:
        """Leave the help or the score sheet (and a remark the help's keys made there)."""
        if self.model.notice.endswith(HELP_BACK):
            self.model.clear_notice()
        self.screen = self.model.screen = self.back_to
        self.invalidate()

    def ask(self, mode: str, prompt: str, text: str = "", secret: bool = False) -> None:
        """Open the input line for ``mode`` (``name``, ``password``, ``secret``, ``chat``, ``card``, ``move``,
        ``table``, ``remove``)."""
        self.input_mode, self.prompt = mode, prompt
        self.secret = secret
        self.input.text = text
        self.input.buffer.cursor_position = len(text)
        self.app.layout.focus(self.input)
        self.invalidate()

    def cancel_input(self) -> None:
        """Close the input line."""
        self.input_mode = None
        self.secret = False
        self.app.layout.focus(self._focus_sink)
        self.invalidate()

    def _accept(self, buffer: Any) -> bool:
        mode, text = self.input_mode, self.input.text.strip()
        self.cancel_input()
        if mode == "name":
            if text:
                self.personal = None  # the kept secret of the name typed, if any
                self.spawn(self._login(text))
            else:
                self.ask("name", "Name: ")
        elif mode == "password":
            self.password = text
            self.spawn(self._login(self.name or ""))
        elif mode == "secret":
            if text:
                self.personal = text
                self.spawn(self._login(self.name or ""))
            else:
                self.ask("name", "Name: ", self.name or "")
        elif mode == "chat" and len(text) > CHAT_LIMIT:
            self.model.say(
                f"A chat message holds at most {CHAT_LIMIT} characters; this one has {len(text)}: shorten it.",
                error=True,
            )
            self.ask("chat", "Say: ", text)
            return True  # keep the text in the input line, to be shortened
        elif mode == "chat" and text:
            self.spawn(self._chat(text))
        elif mode == "card" and text and self.model.table is not None:
            action = self.barbu.card_by_text(self.model.table, text)
            if action is None:
                view = self.model.table.view or {}
                self.model.say(typed_card_refusal(text, view), error=True)
            else:
                self.spawn(self.session.act(action))
        elif mode == "move" and text and self.solitaire is not None:
            self.solitaire.typed(text)
        elif mode == "remove" and text:
            self.confirm_removal(text)
        elif mode == "deal" and text:
            self._open_typed(text)
        elif mode == "table" and self.lobby.form is not None and len(text) > TABLE_NAME_LIMIT:
            self.model.say(
                f"A table name holds at most {TABLE_NAME_LIMIT} characters; this one has {len(text)}: shorten it.",
                error=True,
            )
            self.ask("table", TABLE_NAME_PROMPT, text)
            return True  # the form and its settings stay, the name in the input line to be shortened
        elif mode == "table" and self.lobby.form is not None:
            self._clear_refusal("A table name holds at most ")  # a name that fits: its refusal is old news
            if text:
                self.lobby.form.name = text
            elif not self.lobby.form.name and self.lobby.form.suggested:
                self.lobby.form.name = self.lobby.form.suggested
            elif not self.lobby.form.name:
                self.lobby.form = None
        return False

    def _clear_refusal(self, opening: str) -> None:
        """Empty the notice line if it still holds the refusal starting with ``opening``: what it refused has
        now been done right (the log keeps the refusal; any other notice stays)."""
        if self.model.notice_error and self.model.notice.startswith(opening):
            self.model.clear_notice()
            self.invalidate()

    # Actions used by the key bindings ---------------------------------------------------------------

    def leave_name_field(self, step: int) -> None:
        """Up/Down while the new-table form's name is typed: take the name (as Enter does: a name too long is
        refused and stays to be shortened) and move to the next field (``step`` 1) or the last (-1)."""
        form = self.lobby.form
        if form is None:
            return
        self.input.buffer.validate_and_handle()  # as Enter: a name too long is refused, kept in the line
        if self.lobby.form is form and self.input_mode is None:
            form.row = step % FORM_ROWS

    def to_name_field(self) -> None:
        """Up/Down onto the new-table form's name field: type it there (the name so far in the line)."""
        form = self.lobby.form
        if form is not None and form.row == 0 and self.input_mode is None:
            self.ask("table", TABLE_NAME_PROMPT, form.name)

    async def _chat(self, text: str) -> None:
        """Send a chat line; once it is through, a refusal still on the notice line (a message too long, say)
        is old news and goes (the log keeps it)."""
        if await self.session.chat(text) and self.model.notice_error:
            self.model.clear_notice()
            self.invalidate()

    async def sit(self, room: str, seat: str | None = None) -> None:
        """Take a seat and show the table; at someone else's solitaire room, watch it; at one's own, play."""
        summary = self.model.listed(room)
        if summary.get("kind") == "solitaire" and summary.get("players", {}).get("player") != self.model.name:
            await self.watch(room)
        elif await self.session.sit(room, seat):
            self._show_room(room)

    async def give_up_seat(self) -> None:
        """Leave the seat at the current table (``x``, confirmed) and say what became of it: in a match a
        stand-in bot plays it until the player sits there again; before the start it is free."""
        table = self.model.table
        if table is None:
            return
        seat, name, playing = table.seat, shorten(table.name, 30), table.state == "playing"
        if playing and seat is not None:
            self.model.seat_left(table)
        await self.session.leave()
        if seat is None:
            return
        if playing:
            self.model.say_handed_over(
                f"A bot now plays seat {seat} at {name} for you: sit there again (Enter on the table) to take it back.",
                table.room,
            )
        else:
            self.model.say(f"You left seat {seat} at {name}.")

    async def show_standings(self) -> None:
        """Ask for the standings across the server's finished matches and show them over the lobby's list
        (a refusal or a lost connection is said on the notice line instead)."""
        players = await self.session.call(lambda c: c.standings())
        if players is not None and self.screen == "lobby":
            self.lobby.standings = players
        self.invalidate()

    async def watch(self, room: str) -> None:
        """Watch a table or a solitaire room; not someone else's game of the day's deal while it is played
        (the lobby lists it ``watchable: false``: the server would refuse, ``daily-private``)."""
        summary = self.model.listed(room)
        if summary.get("watchable") is False and summary.get("players", {}).get("player") != self.model.name:
            self.model.say("The day's deal cannot be watched until it is finished.")
            return
        if await self.session.watch(room):
            self._show_room(room)

    def _show_room(self, room: str) -> None:
        solitaire = self.model.solitaire
        if solitaire is not None and solitaire.room == room:
            self._show_solitaire()
            return
        self.barbu = BarbuScreen()
        if self.pending is None and self.model.notice_place.startswith("table:"):
            self.model.clear_notice()  # a table's old news or refusal (the log keeps it); the lobby's goes on
        self.show("table")
        table = self.model.table
        if table is not None and table.room == room and table.seat is not None:
            self.model.seat_taken_back(room, table.seat, shorten(table.name, 30))

    def _removed_from_table(self) -> None:
        """The server took the player off the table shown (the host removed them, or a bot took their idle
        seat): back to the lobby, where the session's notice says why."""
        if self.screen in ("table", "sheet") and self.model.table is None:
            self.show("lobby")

    def ask_removal(self) -> None:
        """``k`` at a table the player hosts, before the start: ask whose seat to free (then confirm)."""
        table = self.model.table
        if table is None:
            return
        if table.host != self.model.name or table.state != "waiting":
            self.model.say("Only the table's host may remove a player, before the match starts.", error=True)
            self.invalidate()
            return
        self.ask("remove", "Remove the player of seat (N E S W): ")

    def confirm_removal(self, text: str) -> None:
        """Ask to confirm the removal of the player of seat ``text`` (typed at ``ask_removal``'s prompt)."""
        table = self.model.table
        seat = text.strip().upper()
        owner = table.players.get(seat) if table is not None and seat in SEATS else None
        if table is None or owner is None or owner == self.model.name:
            self.model.say(f"Nobody else sits in seat {text.strip()!r}: type N, E, S or W.", error=True)
            self.invalidate()
            return
        room = table.room
        self.confirm(
            f"Remove {shorten(owner, 20)} from seat {seat}? They cannot sit at this table again.",
            lambda: self.spawn(self.session.remove_player(room, seat)),
        )

    async def fill_bots(self, room: str, players: dict[str, Any], every: bool) -> None:
        """Add a server bot to the first empty seat (every empty seat when ``every``); at a table whose host
        is someone else, say so rather than send what the server refuses."""
        host = self.model.listed(room).get("host")
        table = self.model.table
        if table is not None and table.room == room and table.host is not None:
            host = table.host
        if host is not None and host != self.model.name:
            self.model.say(f"Only the table's host, {shorten(str(host), 20)}, adds bots.", error=True)
            return
        empty = [s for s in SEATS if players.get(s) is None]
        if not empty:
            self.model.say("No empty seat.", error=True)
            return
        for seat in empty if every else empty[:1]:
            await self.session.add_bot(room, seat)

    async def create_table(self) -> None:
        """Create the table of the lobby's form, sit at it, and show it."""
        form = self.lobby.form
        if form is None:
            return
        self.lobby.form = None
        room = await self.session.create_table(
            form.name, form.variants(), form.bot_policy(), form.turn_time()
        )
        if room is None:  # refused (a name like an open table's, too many tables): the form stays as it was
            if self.lobby.form is None and self.screen == "lobby":
                self.lobby.form = form
            return
        await self.sit(room)

    def open_solitaire(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        winnable: bool = False,
        random: bool = False,
    ) -> None:
        """Open a server room of solitaire ``game`` with ``options`` (``seed`` None: the day's deal, or with
        ``winnable`` a deal the solver proved winnable, with ``random`` a random deal the server chooses) and
        show it once the server has dealt it; when the
        day's deal is in play, only after the player confirms (opening another game resigns it, and one game
        a day counts). The games list stays open until the room is: a refusal is read over it."""
        daily, moved = self.daily_in_play(), self.moved_in_play()

        def go() -> None:
            self.spawn(self._open_solitaire(game, options or {}, seed, winnable, random))

        if daily:
            question = f"Your day's deal of {daily} is not finished: opening another game resigns it, and one game a day counts. Open anyway?"
            self.confirm(question, go)
        elif moved:
            self.confirm(
                f"Your game of {moved} is not finished: opening another game resigns it. Open anyway?", go
            )
        else:
            go()

    def daily_in_play(self) -> str:
        """The title of the day's deal this client plays and has not finished (empty: none). It is in play
        from the moment it is opened, whatever the moves counter of the last state says: a resign counts even
        before the first move, and a key pressed right after a move comes before the state it brings."""
        room = self.model.solitaire
        if room is None or room.seat is None or not room.view.get("daily"):
            return ""
        if room.view.get("result") is not None:
            return ""
        return str(room.view.get("title", "solitaire"))

    def moved_in_play(self) -> str:
        """The title of the game (not the day's deal: ``daily_in_play``) this client plays, has made a move in
        and not finished (empty: none): opening another game or dealing anew resigns it, where one without a
        move leaves nothing behind (the server drops it)."""
        room = self.model.solitaire
        if room is None or room.seat is None or room.view.get("daily") or room.seq <= 0:
            return ""
        if room.view.get("result") is not None:
            return ""
        return str(room.view.get("title", "solitaire"))

    async def _open_solitaire(
        self, game: str, options: dict[str, Any], seed: int | None, winnable: bool, random: bool = False
    ) -> None:
        if await self.session.open_solitaire(game, options, seed, winnable, random):
            self.lobby.picking = False
            self._show_solitaire()
            assert self.solitaire is not None
            self.solitaire.message = "Arrows move, Enter picks a pile then its target; ? for all keys."

    def _show_solitaire(self) -> None:
        if self.solitaire is None:
            self.solitaire = SolitaireScreen(SolitaireRoom(self.model, self.submit_solitaire))
        self.solitaire.source = self.solitaire.hint = None
        self.solitaire.message = ""
        self.show("solitaire")

    def submit_solitaire(self, kind: str, move: str | None) -> None:
        """Send solitaire request ``kind`` in the background (``client.tui.solitaire_screen.Submit``)."""
        self.spawn(self._solitaire(kind, move))

    async def _solitaire(self, kind: str, move: str | None) -> None:
        screen = self.solitaire
        if screen is None:
            return
        if kind == "hint":
            said = self.model.logged
            hint = await self.session.solitaire_hint()
            room = self.model.solitaire
            if hint is None:
                if self.model.logged != said and self.model.notice_error:
                    screen.message = refusal_words(
                        self.model.notice
                    )  # refused (``no-hint``, ``busy``) or failed
            elif room is not None and room.room == hint.room and room.seq == hint.seq:
                screen.hinted(hint.move, hint.status, hint.undo, hint.from_start)
            else:
                screen.message = "The position changed meanwhile: h for a hint for this one."
        elif await self.session.solitaire(kind, move):
            if kind == "move":
                screen.typed_made(move or "")  # a typed move is said once made
                return  # a move the view listed was said when sent (the stock's card once its state came)
            done = {"undo": "Undid the last move.", "redo": "Redid the move.", "auto": "Made the safe moves."}
            more = {"resign": "You gave up.", "new-deal": "New deal."}
            screen.message = {**done, **more}[kind]
            return
        else:
            # the move in words (by its cards in the position it was refused in), card symbols, no rule id
            screen.message = refusal_words(self.model.notice, screen.room.state())
        self.invalidate()

    def _open_typed(self, text: str) -> None:
        """Open the selected game with the options and ``seed=N`` typed as ``K=V`` words."""
        try:
            options = parse_options(text.split())
        except RecordError as exc:
            self.model.say(str(exc), error=True)
            return
        seed = options.pop("seed", None)
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2**53
        ):
            self.model.say("seed=N takes a whole number from 0 to 2**53 (9007199254740992).", error=True)
            return
        winnable = options.pop("winnable", False)
        if not isinstance(winnable, bool):
            self.model.say("Type winnable=true or winnable=false.", error=True)
            return
        game = self.lobby.game_name()
        wrong = options_refusal(game, options)
        if wrong:  # said in words here, the games list kept, rather than the server's raw field error
            self.model.say(wrong, error=True)
            return
        self.open_solitaire(game, options, seed, winnable)

    async def act(self, action: dict[str, Any] | None, notice: str = "") -> None:
        """Send a Barbu action (or show why none was sent)."""
        if action is None:
            if notice:
                self.model.say(notice, error=True)
            self.invalidate()
            return
        await self.session.act(action)


def _has_user() -> bool:
    with contextlib.suppress(Exception):
        return bool(getpass.getuser())
    return False

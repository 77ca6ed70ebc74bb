"""The lobby: the server's tables with their seats and state, the new-table form, and the solitaire games.

``LobbyScreen`` keeps the cursors and the form's values; the rooms come from the model (``list-rooms``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.columns import counted, fit, shorten, width, wrap
from client.tui.model import Model
from client.tui.solitaire_words import option_text
from engine.barbu.rules import DOMINOES_SCORES, HEART_LEAD, ROTATION, TRUMP_DUTY
from engine.barbu.spec import POLICIES
from engine.cards import SEATS
from engine.solitaire import GAMES
from protocol import CreateTable

#: The new-table form's switches: record key, label, choices (the first is the default).
VARIANT_FIELDS: tuple[tuple[str, str, tuple[Any, ...]], ...] = (
    ("heart-lead", "Heart lead", HEART_LEAD),
    ("trump-duty", "Trump duty", ("ruff", *(d for d in TRUMP_DUTY if d != "ruff"))),
    ("dominoes-scores", "Dominoes scores", tuple(DOMINOES_SCORES)),
    ("rotation", "Declarer rotation", ROTATION),
    ("early-end", "End hands early", (True, False)),
)
#: The new-table form's bot policy choices (``create-table.bot_policy``); None is the server's default.
BOT_POLICIES: tuple[str | None, ...] = (None, *POLICIES)
#: The new-table form's turn timers (``create-table.turn_time``, seconds; None: no limit).
TURN_TIMES: tuple[int | None, ...] = (None, 15, 30, 60, 120, 300)
#: The form's rows: the name, the switches, the bot policy, then the turn timer.
FORM_ROWS = len(VARIANT_FIELDS) + 3
POLICY_ROW, TIMER_ROW = FORM_ROWS - 2, FORM_ROWS - 1


#: The longest table name the server takes (``create-table.name``), in characters.
TABLE_NAME_LIMIT: int = next(f for f in fields(CreateTable) if f.name == "name").metadata["max_len"]
#: The input line's prompt for the table name, with its limit (read while typing).
TABLE_NAME_PROMPT = f"Table name (at most {TABLE_NAME_LIMIT} characters): "

#: Lobby columns at 80 columns, in terminal columns: the table name, its state, the seats. The name and seats
#: columns share their room by what the rows need (``lobby_columns``); the seats never get less than they
#: need up to ``SEATS_COLUMN``, where four names cut to ``LOBBY_NAME_WIDTH`` still read.
NAME_COLUMN, STATE_COLUMN, SEATS_COLUMN = 22, 10, 39
#: The watch count's column, right-aligned under its head (the seats' column ends right before it).
WATCH_COLUMN = 5
#: The widest a table name's column gets (the 40 characters a name may have).
NAME_COLUMN_MAX = 40
#: The lobby's column heads.
NAME_HEAD, SEATS_HEAD, WATCH_HEAD = "table or room", "seats, or who plays", "watch"
#: A seat's player name in the lobby, its away mark ``?`` included (four seats fit the seats column).
LOBBY_NAME_WIDTH = 7
#: The lobby's marks, explained under the list.
LOBBY_MARKS = "  Marks: ? the player is away   - an empty seat"


def room_seats(room: dict[str, Any], column: int = SEATS_COLUMN) -> str:
    """``N:alice E:bot S:- W:-`` for a table's summary, ``alice plays the day's deal`` for a solitaire room's
    (``a winnable deal``, ``solitaire``); ``?`` marks a player away (:data:`LOBBY_MARKS`); names
    are whole when the four fit ``column``, else the longest are cut in the middle (``he…fa8-1``)."""
    players: dict[str, Any] = room.get("players", {})
    if room.get("kind") == "solitaire":  # its name says the game: "Pyramid (ann)"
        gone = "?" if room.get("away") else ""
        player = shorten(str(players.get("player")), 16)
        deal = (
            "the day's deal"
            if room.get("daily")
            else "a winnable deal"
            if room.get("winnable")
            else "solitaire"
        )
        return f"{player}{gone} plays {deal}"
    away = set(room.get("away", []))
    names, marks = [], []
    for seat in SEATS:
        owner = players.get(seat)
        names.append("-" if owner is None else ("bot" if str(owner).startswith("bot:") else str(owner)))
        marks.append("?" if seat in away else "")
    # Names are cut only when the four do not fit the column, the longest first, never below the width
    # each would have in an even share (so a long name does not take the others' room).
    limits = [width(n) for n in names]

    def line() -> str:
        cells = [f"{s}:{shorten(n, c)}{m}" for s, n, c, m in zip(SEATS, names, limits, marks, strict=True)]
        return " ".join(cells)

    while width(line()) > column:
        longest = max(range(4), key=lambda i: limits[i])
        if limits[longest] <= LOBBY_NAME_WIDTH - len(marks[longest]):
            break
        limits[longest] -= 1
    return line()


def room_state(room: dict[str, Any]) -> str:
    """``waiting``, ``hand 3/28``, ``paused`` (none of its players connected: the match waits), ``over``;
    solitaire: ``move 12``, ``won``, ``lost``, ``resigned``."""
    state = str(room.get("state", "?"))
    if room.get("kind") == "solitaire":
        return str(room.get("result") or f"move {room.get('moves', 0)}")
    if state == "playing" and room.get("paused"):
        return "paused"
    if state == "playing" and room.get("hand_number"):
        return f"hand {room['hand_number']}/28"
    return state


@dataclass
class TableForm:
    """The new-table form: a name, one value index per switch and the bot policy's index in
    :data:`BOT_POLICIES`; ``row`` 0 is the name, the last row the bot policy. ``suggested`` is the name taken
    when the user types none."""

    name: str = ""
    suggested: str = ""
    values: list[int] = field(default_factory=lambda: [0] * len(VARIANT_FIELDS))
    policy: int = 0
    timer: int = 0
    row: int = 0

    def variants(self) -> dict[str, Any]:
        """The switches set away from their defaults, as ``create-table`` wants them."""
        return {
            key: choices[i] for (key, _, choices), i in zip(VARIANT_FIELDS, self.values, strict=True) if i
        }

    def bot_policy(self) -> str | None:
        """The bot policy chosen for the table's bots and stand-ins (None: the server's default)."""
        return BOT_POLICIES[self.policy]

    def turn_time(self) -> int | None:
        """The seconds a seat has to act before a bot acts for it (None: no limit)."""
        return TURN_TIMES[self.timer]

    def cycle(self, step: int) -> None:
        """Change the value of the switch (the bot policy, the turn timer) on the current row."""
        if self.row == TIMER_ROW:
            self.timer = (self.timer + step) % len(TURN_TIMES)
        elif self.row == POLICY_ROW:
            self.policy = (self.policy + step) % len(BOT_POLICIES)
        elif self.row:
            n = len(VARIANT_FIELDS[self.row - 1][2])
            self.values[self.row - 1] = (self.values[self.row - 1] + step) % n


@dataclass
class LobbyScreen:
    """Keyboard state of the lobby.

    Attributes:
        room: index of the selected room.
        form: the new-table form while it is open.
        picking: whether the solitaire game list is open; ``game`` its cursor.
        standings: the ``standings`` reply's players while the standings are shown over the list, else None.
    """

    room: int = 0
    form: TableForm | None = None
    picking: bool = False
    game: int = 0
    standings: list[dict[str, Any]] | None = None

    def selected(self, model: Model) -> dict[str, Any] | None:
        """The selected room's summary, if any."""
        if not model.rooms:
            return None
        self.room %= len(model.rooms)
        return model.rooms[self.room]

    def move(self, model: Model, step: int) -> None:
        """Move the cursor of whatever list is open."""
        if self.form is not None:
            self.form.row = (self.form.row + step) % FORM_ROWS
        elif self.picking:  # the lists stop at their ends (the form's few rows go round)
            self.game = min(max(self.game % len(GAMES) + step, 0), len(GAMES) - 1)
        elif model.rooms:
            self.room = min(max(self.room % len(model.rooms) + step, 0), len(model.rooms) - 1)

    def game_name(self) -> str:
        """The selected solitaire game's registry name."""
        return list(GAMES)[self.game % len(GAMES)]


def listed_rooms(rooms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rooms the lobby lists (the first 14), each named as shown: tables of the same name (a finished
    match and its rematch) with their room numbers, ``friday #3``."""
    seen = [str(r.get("name")) for r in rooms]
    return [
        {**room, "name": f"{room.get('name')} #{room.get('room')}"}
        if seen.count(str(room.get("name"))) > 1
        else room
        for room in rooms[:14]
    ]


def lobby_columns(rooms: list[dict[str, Any]], cols: int) -> tuple[int, int]:
    """The widths of the name and seats columns for the listed ``rooms`` in ``cols`` terminal columns: the
    seats first get what their widest row needs, up to ``SEATS_COLUMN``, the names what is left up to what
    their widest needs (at most ``NAME_COLUMN_MAX``), and the seats what the names leave, up to what they need
    (at least ``SEATS_COLUMN``). So a table's name is not cut while the seats beside it have spare room, nor
    are the seats cut below readable."""
    shared = cols - (80 - NAME_COLUMN - SEATS_COLUMN)  # all but the margins, the state and the watch count
    seats_need = max([width(SEATS_HEAD) + 1, *(width(room_seats(r, shared)) for r in rooms)])
    names_need = max([width(NAME_HEAD), *(width(str(r.get("name", "?"))) for r in rooms)])
    names = min(names_need, NAME_COLUMN_MAX, shared - min(seats_need, SEATS_COLUMN))
    return names, min(shared - names, max(seats_need, SEATS_COLUMN))  # no gap before the watch count


def lobby_lines(
    model: Model, screen: LobbyScreen, cols: int = 80, typed: str | None = None
) -> StyleAndTextTuples:
    """The lobby (or the open form or game list over it), ``cols`` wide: the table names and the seats share
    the room (``lobby_columns``), a wider terminal giving both more. ``typed``: the table name being
    typed in the input line (None: none is), shown in the form as it is typed."""
    if screen.form is not None:
        return form_lines(screen.form, typed)
    if screen.picking:
        return games_lines(screen, model)
    if screen.standings is not None:
        return standings_lines(screen.standings, cols)
    out: StyleAndTextTuples = [("class:title", f"Lobby of {model.url} - you are {model.name}\n\n")]
    if not model.rooms:  # no column heads over nothing: the line says what to do
        return [*out, ("class:dim", "No tables yet. Press n to open one.\n")]
    shown = listed_rooms(model.rooms)
    names, seats = lobby_columns(shown, cols)
    out.append(
        (
            "class:label",
            f"  {NAME_HEAD:<{names}} {'state':<{STATE_COLUMN}} {SEATS_HEAD:<{seats}}{WATCH_HEAD:>{WATCH_COLUMN}}\n",
        )
    )
    for i, room in enumerate(shown):
        private = room.get("watchable") is False  # the day's deal being played: greyed, not to be watched
        style = (
            "class:cursor" if i == screen.room % max(len(model.rooms), 1) else "class:dim" if private else ""
        )
        # A name too long is cut in the middle (tables named alike stay apart); a solitaire room's name is its
        # game and player ("Pyramid (ann)", no kind before it), whole unless the player's name is long.
        name = fit(str(room.get("name", "?")), names)
        seats_text = fit(room_seats(room, seats), seats, cut="end")
        watch = "no" if private else room.get("spectators", 0)
        # The count ends under the head's last letter (a room holds 50 watchers at most, or it says "no").
        line = f"  {name} {fit(room_state(room), STATE_COLUMN)} {seats_text}{watch:>{WATCH_COLUMN}}"
        out += [(style, line), ("", "\n")]
    out.append(("", "\n"))
    if model.rooms:
        out.append(("class:dim", LOBBY_MARKS + "\n"))
    return out


#: Players the standings panel shows at most (the best rated first), so that it fits 24 rows.
STANDINGS_SHOWN = 16


def standings_lines(players: list[dict[str, Any]], cols: int = 80) -> StyleAndTextTuples:
    """The standings across the server's finished matches (a ``standings`` reply's ``players``, best
    rating first), one line each: place in the list, name (cut to fit ``cols``), matches, firsts, average
    place and rating; the first ``STANDINGS_SHOWN``."""
    out: StyleAndTextTuples = [("class:title", "Standings: finished Barbu matches (bots not listed)\n\n")]
    if not players:
        return [*out, ("class:dim", "No finished match yet: standings start with the first one.\n")]
    names = max(12, min(30, cols - 44))
    head = f"  {'#':>3} {'player':<{names}} {'matches':>7} {'firsts':>6} {'avg place':>9} {'rating':>7}"
    out.append(("class:label", head + "\n"))
    for index, row in enumerate(players[:STANDINGS_SHOWN], 1):
        name = fit(str(row.get("name", "?")), names)
        line = (
            f"  {index:>3} {name} {row.get('matches', 0):>7} {row.get('firsts', 0):>6}"
            f" {float(row.get('average_place', 0)):>9.2f} {float(row.get('rating', 0)):>7.1f}"
        )
        out += [("", line), ("", "\n")]
    if len(players) > STANDINGS_SHOWN:
        out.append(("class:dim", f"  ... and {len(players) - STANDINGS_SHOWN} more (barbu standings)\n"))
    out.append(
        ("class:dim", "\n  Ties share a place. Rating: openskill, mu - 3 sigma, 0 before a first match.\n")
    )
    return out


def form_lines(form: TableForm, typed: str | None = None) -> StyleAndTextTuples:
    """The new-table form; ``typed`` the name being typed (None: none is), shown with its length against the
    limit, or the suggestion Enter alone takes while nothing is typed."""
    out: StyleAndTextTuples = [("class:title", "Open a new Barbu table\n\n")]
    cursor = "class:cursor"
    out.append(("", "  Table name:      "))
    if typed is None:
        out.append((cursor if form.row == 0 else "class:input", f" {form.name or ' '} "))
    elif typed or not form.suggested:
        over = len(typed) > TABLE_NAME_LIMIT
        out += [
            ("class:input", f" {shorten(typed, 44) or ' '} "),
            ("class:error" if over else "class:dim", f" {len(typed)}/{TABLE_NAME_LIMIT}"),
        ]
    else:
        out += [("class:input", f" {form.suggested} "), ("class:dim", " (Enter takes it)")]
    out.append(("", "\n\n"))
    for i, (_, label, choices) in enumerate(VARIANT_FIELDS, start=1):
        value = choices[form.values[i - 1]]
        text = (
            ("on" if value else "off") if isinstance(value, bool) else VALUE_NAMES.get(str(value), str(value))
        )
        default = " (default)" if form.values[i - 1] == 0 else ""
        out += [
            ("", f"  {label + ':':<18}"),
            (cursor if form.row == i else "", f" < {text} > "),
            ("class:dim", default),
        ]
        out.append(("", "\n"))
    policy = form.bot_policy()
    out += [
        ("", f"  {'Bots play:':<18}"),
        (cursor if form.row == POLICY_ROW else "", f" < {policy or 'server default'} > "),
        ("class:dim", " (default)" if policy is None else ""),
        ("", "\n"),
    ]
    timer = form.turn_time()
    out += [
        ("", f"  {'Turn timer:':<18}"),
        (cursor if form.row == TIMER_ROW else "", f" < {f'{timer} s' if timer else 'off'} > "),
        ("class:dim", " (default: no limit)" if timer is None else " then a bot acts for the seat"),
        ("", "\n"),
    ]
    out.append(("", "\n"))
    out += [("class:label", f"  {line}\n") for line in wrap(field_help(form), 76)]
    keys = (  # while the name is typed, Enter takes it and a second Enter opens the table
        "Type the name; Enter takes it, then Enter opens the table; Up/Down: field"
        if typed is not None
        else "Type the name; Up/Down: field; Left/Right: change; Enter: open; Esc: cancel"
    )
    out.append(("class:dim", f"  {keys}\n"))
    return out


#: A switch's value as the form names it, where the protocol's word would mislead (``seed``: the rules as the
#: seed documents write them, not a random seed).
VALUE_NAMES = {"seed": "as the rules"}

#: What each value of the form's switches means (``docs/rules/barbu.md``, "Named variants").
VALUE_HELP: dict[str, dict[Any, str]] = {
    "heart-lead": {
        "seed": "as the rules: no heart led in No Hearts, nor K♥ in Barbu, unless no other card",
        "strict": "no heart (K♥ too) led in No Hearts and Barbu unless only hearts",
        "broken": "hearts may be led once a heart was discarded on another suit",
        "free": "any card may be led",
    },
    "trump-duty": {
        "ruff": "in Trumps, out of the suit led you must play a trump",
        "follow-only": "in Trumps, follow suit; no duty to play a trump",
        "overtrump": "in Trumps, you must play a trump, and beat the trumps played",
    },
    "dominoes-scores": {
        k: f"Dominoes places 1st to 4th score {k.replace('/', ', ')}" for k in DOMINOES_SCORES
    },
    "rotation": {
        "block": "each player declares 7 hands in a row",
        "each-hand": "the declarer moves to the left every hand",
    },
    "early-end": {
        True: "a hand ends once nothing is left to score",
        False: "always play all 13 tricks (scores are the same)",
    },
}


def field_help(form: TableForm) -> str:
    """The help for the form's focused row, what its value means (wrapped by ``form_lines``)."""
    if form.row == 0:
        return "The table's name, as the lobby lists it."
    if form.row == POLICY_ROW:
        return "How the table's bots, and the stand-ins of players away, choose their moves."
    if form.row == TIMER_ROW:
        return "The time a seat has to act; then a bot acts for it (off: no limit)."
    key, _, choices = VARIANT_FIELDS[form.row - 1]
    return VALUE_HELP[key][choices[form.values[form.row - 1]]]


#: The games list's own keys, its first line (at most 80 columns).
GAMES_KEYS = "Solitaire: Enter day's deal  r random  w winnable  : options, seed  Esc back"
#: The width of the games list's left column (title and today's count); options and results go right.
GAMES_COLUMN = 42
SIDE_COLUMN = 80 - GAMES_COLUMN - 2


def option_lines(game: str, cols: int = SIDE_COLUMN) -> list[str]:
    """The selected game's options as typed after ``:`` (``draw=1|3``, the default first), then ``seed=N``;
    each line at most ``cols`` columns."""
    lines = ["Type after : (default first)"]
    for option in GAMES[game].options:
        choices = "|".join(option_text(c) for c in option.choices)
        lines.append(shorten(f" {option.name}={choices}", cols, cut="end"))
    lines.append(" seed=N  (0 to 2**53)")
    lines.append(" winnable=true")
    return lines


def games_lines(screen: LobbyScreen, model: Model) -> StyleAndTextTuples:
    """The solitaire games to open, each with who played the day's deal; beside them the selected game's
    options and the day's results table (who won it in how many moves); below, its whole rules card.
    Fits 80 columns and 21 lines."""
    out: StyleAndTextTuples = [("class:title", GAMES_KEYS + "\n\n")]
    daily = {str(d["game"]): d for d in model.daily}
    names = list(GAMES)
    selected = screen.game_name()
    options = option_lines(selected)
    side = [*options, "", *results_lines(daily.get(selected), len(names) - len(options) - 1)]
    for i, name in enumerate(names):
        style = "class:cursor" if i == screen.game % len(names) else ""
        played = daily.get(name, {}).get("results", [])
        won = sum(1 for r in played if r.get("won"))
        today = f"today {len(played)} played, {won} won" if played else ""
        out += [(style, f"  {GAMES[name].title:<16}"), ("class:dim", f" {today:<{GAMES_COLUMN - 19}}")]
        out += [("class:dim", f"  {side[i]}" if i < len(side) else ""), ("", "\n")]
    rules = wrap(" ".join(GAMES[selected].rules.split()), 78)
    return out + [("class:dim", line + "\n") for line in rules]


def results_lines(daily: dict[str, Any] | None, rows: int) -> list[str]:
    """The day's deal of one game (``rooms.daily`` entry) and its results table in at most ``rows`` lines of
    ``SIDE_COLUMN`` columns: who won it in how many moves (the game's own count), best first."""
    if daily is None:
        return []
    out = [f"The day's deal, {daily['day']}:"]
    results: list[dict[str, Any]] = daily.get("results", [])
    if not results:
        return [*out, " nobody has finished it yet"]
    for place, row in enumerate(results[: rows - 1], start=1):
        outcome = "won" if row.get("won") else f"{row.get('score')} home"
        out.append(
            f" {place}. {fit(str(row.get('player')), 12)} {outcome:<8} {counted(int(row.get('moves') or 0), 'move')}"
        )
    return out

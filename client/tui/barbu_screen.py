"""The Barbu table: the four seats around the trick, the hand, the last trick, scores, chat, and the choices
of the seat to move (contract, trump or starting rank, doubles, redoubles, a card).

``BarbuScreen`` holds only what the keyboard changes (cursors, the contract menu's stage, the doubles
ticked); everything else is drawn from the table's view (``engine/barbu/view.py::match_view``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from client.columns import counted, fit, shorten, width, wrap
from client.sheet import contract_label, doubles_groups, doubles_label
from client.tui.cards import SUIT_NAMES, SUIT_ORDER, SUIT_SYMBOLS, card_fragment, card_label, sort_hand
from client.tui.events import duration, is_mine, seats_text, who, winner_text
from client.tui.model import TableModel
from engine.barbu import CONTRACTS
from engine.cards import RANKS, SEATS

CONTRACT_NAMES = {
    "no-tricks": "No Tricks (-2 a trick)",
    "no-queens": "No Queens (-6 a queen)",
    "no-last-two": "No Last Two (-10, -20)",
    "no-hearts": "No Hearts (-2 a heart, A♥ -6)",
    "barbu": "Barbu (K♥ -20)",
    "trumps": "Trumps (+5 a trick) ...",
    "dominoes": "Dominoes (fan tan) ...",
}
TABLE_WIDTH = 46
#: The hand line's width at the narrowest terminal (80 columns): its window wraps onto a second line.
HAND_WIDTH = 80
#: The width of the right panel at 80 columns (the table, its divider, the panel).
SIDE_WIDTH = 80 - TABLE_WIDTH - 2
#: Names beside a seat are cut (in the middle) to no fewer than this many columns, the away mark included,
#: when the left and right seat tags do not fit side by side whole (``side_tags``); elsewhere the widest a
#: name is cut to in a line of the table (the declarer choosing the contract).
SEAT_NAME_WIDTH = 12
#: What Enter and ``:`` say to a watcher: a watcher has no card to play.
WATCHING = "You are watching this table: only its players play (x stops watching)."
#: What Enter says when the turn came after the screen was drawn: it shows the turn's card instead of playing.
TURN_BEGAN = "Your turn: the cursor is on your lowest playable card; Enter plays it."


@dataclass
class Choice:
    """One line of the decision menu: its label and the wire action (None: opens the next stage)."""

    label: str
    action: dict[str, Any] | None
    stage: str = ""


@dataclass
class BarbuScreen:
    """Keyboard state of the table screen.

    Attributes:
        card: index of the selected card in the sorted hand.
        menu: index of the selected line of the decision menu.
        stage: ``contract``, ``trump`` or ``rank`` while choosing a contract.
        ticked: seats ticked in the doubling dialog.
        decision: the view's ``seq`` and whether the seat was to move when these cursors were set (None
            before the first view): a new one resets them. The seat's ``legal`` comes with its ``turn`` push,
            which bears the ``seq`` its action's ``event`` already set, so the ``seq`` alone misses the turn.
        chat_shift: how many lines the chat panel is scrolled down (negative: up) from where it starts.
    """

    card: int = 0
    menu: int = 0
    stage: str = "contract"
    ticked: set[str] = field(default_factory=set)
    decision: tuple[int, bool] | None = None
    chat_shift: int = 0

    def scroll_chat(self, lines: int) -> None:
        """PgUp/PgDn: move the chat panel ``lines`` lines down (up when negative); ``chat_window`` keeps it
        within the messages kept."""
        self.chat_shift += lines

    # Decisions --------------------------------------------------------------------------------------

    def sync(self, table: TableModel) -> bool:
        """Reset the cursors when a new decision comes up (a new view, or the seat's turn arriving for the
        view it already shows); returns whether a turn to play began after an earlier view was shown, so the
        card under the cursor moved to the lowest playable one."""
        decision = (table.seq, table.my_turn)
        if decision == self.decision:
            return False
        shown, self.decision = self.decision, decision
        self.menu = 0
        self.stage = "contract"
        self.ticked = set()
        view = table.view or {}
        if view.get("must_double") and table.my_turn:
            self.ticked.add(str(view.get("declarer")))
        playable = self.playable(table)
        hand = self.hand(table)
        if playable:  # each turn to play starts on the lowest playable card: Enter never dumps a high one
            self.card = hand.index(min(playable, key=lambda c: (RANKS.index(c[0]), hand.index(c))))
        self.card = min(self.card, max(len(hand) - 1, 0))
        return bool(playable) and shown is not None

    @staticmethod
    def hand(table: TableModel) -> list[str]:
        """The seat's unplayed cards, sorted by suit."""
        return sort_hand(list((table.view or {}).get("hand", [])))

    @staticmethod
    def playable(table: TableModel) -> set[str]:
        """The cards the seat may play now (empty when not its turn to play)."""
        if not table.my_turn:
            return set()
        legal = (table.view or {}).get("legal") or []
        return {str(a["card"]) for a in legal if a.get("action") == "play"}

    @staticmethod
    def phase(table: TableModel) -> str:
        """The view's phase (``waiting`` before the match starts)."""
        return str((table.view or {}).get("phase", "waiting"))

    def choices(self, table: TableModel) -> list[Choice]:
        """The decision menu for the seat to move (empty when there is none: the hand is used to play)."""
        self.sync(table)
        if not table.my_turn:
            return []
        view = table.view or {}
        legal: list[dict[str, Any]] = view.get("legal") or []
        phase = self.phase(table)
        if phase == "contract":
            if self.stage in ("trump", "rank"):  # the second step: offer the legal actions themselves
                trump = self.stage == "trump"
                key, contract, order = (
                    ("trump", "trumps", SUIT_ORDER) if trump else ("start_rank", "dominoes", RANKS)
                )
                actions = {str(a[key]): a for a in legal if a.get("contract") == contract}
                return [
                    Choice(
                        f"{SUIT_SYMBOLS[v]} {SUIT_NAMES[v]}"
                        if trump
                        else f"start at {'10' if v == 'T' else v}",
                        actions[v],
                    )
                    for v in order
                    if v in actions
                ]
            offered = {str(a["contract"]) for a in legal if a.get("action") == "contract"}
            out = []
            for name in CONTRACTS:
                if name not in offered:
                    continue
                if name == "trumps":
                    out.append(Choice(CONTRACT_NAMES[name], None, "trump"))
                elif name == "dominoes":
                    out.append(Choice(CONTRACT_NAMES[name], None, "rank"))
                else:
                    out.append(Choice(CONTRACT_NAMES[name], {"action": "contract", "contract": name}))
            return out
        if phase in ("double", "redouble"):
            targets = self.targets(table)
            return [
                Choice(
                    f"[{'x' if s in self.ticked else ' '}] {s} {shorten(table.player(s), SIDE_WIDTH - 8)}",
                    None,
                    s,
                )
                for s in targets
            ]
        return []

    def targets(self, table: TableModel) -> list[str]:
        """Whom the seat may double (or redouble) now."""
        view = table.view or {}
        if self.phase(table) == "double":
            return [str(s) for s in view.get("double_targets") or []]
        seen: set[str] = set()
        for a in view.get("legal") or []:
            seen.update(str(t) for t in a.get("targets", []))
        return [s for s in SEATS if s in seen]

    def move_menu(self, table: TableModel, step: int) -> bool:
        """Move the menu cursor; returns whether there is a menu (else the key does nothing)."""
        n = len(self.choices(table))
        if n:
            self.menu = (self.menu + step) % n
        return n > 0

    def menu_end(self, table: TableModel, last: bool) -> bool:
        """Home/End: the menu's first or last line; returns whether there is a menu."""
        self.menu = max(len(self.choices(table)) - 1, 0) if last else 0
        return bool(self.choices(table))

    def move_card(self, table: TableModel, step: int) -> bool:
        """Move the hand cursor to the next card (the next playable one when it is this seat's turn); returns
        whether there is a hand to move in (a watcher, or a table waiting for players, has none)."""
        self.sync(table)
        hand = self.hand(table)
        if not hand:
            return False
        playable = self.playable(table)
        for _ in range(len(hand)):
            self.card = (self.card + step) % len(hand)
            if not playable or hand[self.card] in playable:
                break
        return True

    def toggle(self, table: TableModel) -> bool:
        """Tick or untick the selected seat in the doubling dialog; returns whether it is open."""
        choices = self.choices(table)
        if self.phase(table) in ("double", "redouble") and choices:
            seat = choices[self.menu % len(choices)].stage
            self.ticked ^= {seat}
            return True
        return False

    def back(self) -> bool:
        """Leave the trump or rank menu for the contract menu; returns whether one was open."""
        was = self.stage != "contract"
        self.stage = "contract"
        self.menu = 0
        return was

    def confirm(self, table: TableModel) -> tuple[dict[str, Any] | None, str]:
        """Enter: the wire action to send now (or None) and a notice (why nothing was sent, or empty). When
        the turn arrived after the screen was last drawn, Enter only shows the card the turn starts on: it
        plays what the player saw highlighted, never a card they were not shown."""
        if self.sync(table) and self.phase(table) == "play":
            return None, TURN_BEGAN
        if table.seat is None:
            return None, WATCHING
        if not table.my_turn:
            return None, "It is not your turn."
        view = table.view or {}
        legal: list[dict[str, Any]] = view.get("legal") or []
        phase = self.phase(table)
        if phase == "contract":
            choices = self.choices(table)
            choice = choices[self.menu % len(choices)]
            if choice.action is None:
                self.stage, self.menu = choice.stage, 0
                return None, ""
            return choice.action, ""
        if phase in ("double", "redouble"):
            action = {"action": phase, "targets": sorted(self.ticked, key=SEATS.index)}
            if any(a.get("targets") == action["targets"] and a.get("action") == phase for a in legal):
                return action, ""
            return (
                None,
                f"You must double the declarer {view.get('declarer')} this hand (tick it with space).",
            )
        if any(a.get("action") == "pass" for a in legal):
            return {"action": "pass"}, ""
        hand = self.hand(table)
        if hand and hand[self.card % len(hand)] in self.playable(table):
            return {"action": "play", "card": hand[self.card % len(hand)]}, ""
        return None, "That card cannot be played now."

    def card_by_text(self, table: TableModel, text: str) -> dict[str, Any] | None:
        """The play action for a typed card such as ``qs`` or ``10h`` if it is playable."""
        t = text.strip().upper().replace("10", "T")
        if len(t) == 2 and t in self.playable(table):
            return {"action": "play", "card": t}
        return None


# Drawing --------------------------------------------------------------------------------------------


def seat_order(table: TableModel) -> list[str]:
    """Seats bottom, left, top, right: this client's seat at the bottom (South for a spectator)."""
    me = SEATS.index(table.seat) if table.seat else 2
    return [SEATS[(me + k) % 4] for k in range(4)]


def away_mark(table: TableModel, seat: str) -> str:
    """`` (away)`` for a seat whose player is not connected (the panel counts down to the stand-in, or to
    the seat being freed: ``away_lines``), `` (bot)`` once a stand-in plays it; empty for a seat whose player
    is there."""
    if seat in table.standins:
        return " (bot)"
    return " (away)" if seat in table.away or seat in table.standin_at or seat in table.freed_at else ""


def away_lines(table: TableModel) -> list[str]:
    """For each dropped seat in its grace period: ``59 min: a bot takes E carol (away)``, and, when the turn
    timer of the seat to move comes first, that the timer plays its turn (``12 s: the timer plays E carol
    (away)``); before the start, ``42 s: seat kept for E carol (away)`` (then it is freed). The time comes
    first, so that it is read even when the panel must wrap a long name. A paused match says so first:
    nothing plays until one of its players comes back (the countdowns to the stand-ins still run)."""
    out = (
        ["Paused: none of the players is connected; play goes on when one comes back."]
        if table.paused
        else []
    )
    now = time.monotonic()
    for seat in SEATS:
        freed = table.freed_at.get(seat)
        if freed is not None:
            out.append(f"{duration(freed - now)}: seat kept for {seat} {table.player(seat)} (away)")
        deadline = table.standin_at.get(seat)
        if deadline is None or seat in table.standins:
            continue
        who = f"{seat} {table.player(seat)} (away)"
        text = f"{duration(deadline - now)}: a bot takes {who}"
        timer = None if table.turn_ends is None or table.stale or table.paused else table.turn_ends - now
        if timer is not None and (table.view or {}).get("to_move") == seat and timer < deadline - now:
            text = f"{duration(timer)}: the timer plays {who}"
        out.append(text)
    return out


def _seat_name(table: TableModel, seat: str) -> str:
    return "you" if is_mine(table, seat) else table.player(seat)


def _seat_tag(table: TableModel, seat: str, room: int | None = None) -> StyleAndTextTuples:
    """``N ann D * 3t`` (the leader marked ``▸``): the name whole, or cut in the middle to ``room`` columns
    with its away mark."""
    view = table.view or {}
    marks = ""
    if view.get("dealer") == seat:
        marks += " D"
    if view.get("declarer") == seat:
        marks += " *"
    style = "class:seat.turn" if view.get("to_move") == seat else "class:seat"
    away = away_mark(table, seat)
    name = _seat_name(table, seat)
    if room is not None:
        name = shorten(name, max(room - width(away), 1))
    name += away
    trick = table.shown_trick() or view.get("trick") or {}
    lead = [("class:mark", "▸")] if trick.get("cards") and trick.get("leader") == seat else []
    out: StyleAndTextTuples = [*lead, (style, f"{seat} {name}"), ("class:mark", marks)]
    if view and not view.get("rows"):
        out.append(("class:dim", f" {view.get('tricks_won', {}).get(seat, 0)}t"))
    return out


def side_tags(
    table: TableModel, left: str, right: str, cols: int
) -> tuple[StyleAndTextTuples, StyleAndTextTuples]:
    """The left and right seats' tags on one line of ``cols`` columns: names whole when both fit, else the
    longer cut first (in the middle), neither below ``SEAT_NAME_WIDTH`` while the other is longer."""
    whole = [width(_seat_name(table, s) + away_mark(table, s)) for s in (left, right)]
    rooms = list(whole)
    tags = [_seat_tag(table, left), _seat_tag(table, right)]
    over = _width(tags[0]) + _width(tags[1]) + 1 - cols
    while over > 0 and max(rooms) > 4:
        i = 0 if rooms[0] >= rooms[1] else 1
        rooms[i] -= 1
        over -= 1
    if rooms != whole:
        tags = [_seat_tag(table, left, rooms[0]), _seat_tag(table, right, rooms[1])]
    return tags[0], tags[1]


def _width(frags: StyleAndTextTuples) -> int:
    """The fragments' width in terminal columns."""
    return sum(width(t[1]) for t in frags)


def _center(frags: StyleAndTextTuples, cols: int = TABLE_WIDTH) -> StyleAndTextTuples:
    pad = max((cols - _width(frags)) // 2, 0)
    return [("", " " * pad), *frags]


def _trick_card(table: TableModel, seat: str) -> StyleAndTextTuples:
    """The card ``seat`` put on the table: in the trick being played, or in the finished trick that stays
    until the next card (its winner's card reversed)."""
    finished = table.shown_trick()
    trick = finished or (table.view or {}).get("trick") or {}
    cards: list[str] = trick.get("cards", [])
    leader = trick.get("leader")
    if leader is None or not cards:
        return [("class:dim", "·")]
    index = (SEATS.index(seat) - SEATS.index(str(leader))) % 4
    if index < len(cards):
        won = finished is not None and finished.get("winner") == seat
        return [card_fragment(cards[index], "class:bold class:cursor" if won else "class:bold")]
    return [("class:dim", "·")]


def waiting_room(table: TableModel, cols: int = TABLE_WIDTH) -> int:
    """The columns the table's name has in the waiting message of a table ``cols`` wide, which takes two
    lines when one is too short (``_waiting_message``): the name's whole width when it fits, else the most
    that fits (at least 8)."""
    for room in range(width(table.name), 8, -1):
        if len(_waiting_message(table, shorten(table.name, room), cols)) <= 2:
            return room
    return 8


def _waiting_message(table: TableModel, name: str, cols: int) -> list[str]:
    """``Table <name>: waiting for N, E`` in lines of at most ``cols`` columns, broken between words."""
    return wrap(f"Table {name}{_waiting_for(table)}", cols)


def _waiting_for(table: TableModel) -> str:
    return f": waiting for {', '.join(s for s in SEATS if table.players.get(s) is None) or 'the start'}"


def headline(table: TableModel, cols: int = TABLE_WIDTH, name: str | None = None) -> StyleAndTextTuples:
    """Hand number and contract, then the doubles on the next line (or the waiting message, with the table's
    ``name`` as the top line shows it: None, cut here to fit); each line at most ``cols`` columns."""
    view = table.view
    if view is None:
        shown = shorten(table.name, waiting_room(table, cols)) if name is None else name
        return [("class:title", "\n".join(_waiting_message(table, shown, cols)[:2]))]
    phase = view.get("phase")
    title = f"Hand {view.get('hand_number')}/{view.get('hands_total')} "
    if view.get("contract"):
        what = contract_label(view)
    elif phase == "over":
        what = "match over"
    elif view.get("declarer") == table.seat:
        what = "you choose the contract"
    else:
        name = shorten(table.player(str(view.get("declarer"))), SEAT_NAME_WIDTH)
        what = f"{view.get('declarer')} {name} chooses the contract"
    out: StyleAndTextTuples = [("class:title", title), ("class:contract", what)]
    label = doubles_label(view)
    if label:
        line = f"doubles {label}"
        # The notation read where it is shown, as much of its legend as fits (the help's doubling page
        # has it all).
        legends = [f"{line}  ({legend})" for legend in doubles_legends(view)]
        shown = next((t for t in legends if width(t) <= cols), shorten(line, cols, cut="end"))
        out.append(("class:dim", "\n" + shown))
    return out


def doubles_legends(view: dict[str, Any]) -> list[str]:
    """The table's doubles notation in words by its first group, the longest first (the headline shows the
    first that fits): ``E<NW: N and W doubled E`` (``client.sheet.doubles_groups``); none when nobody
    doubled. When a redouble is shown, every legend explains its mark: ``E<NW!: N and W doubled E, !
    redoubled``, then for a lone group said once ``N and W doubled E, ! redoubled`` and ``N, W doubled E; !
    redoubled``, at the least ``! redoubled`` (the reviewer read ``S<N!E!: N and E doubled S`` without
    knowing what ``!`` meant)."""
    groups = doubles_groups(view)
    if not groups:
        return []
    doubled, doublers = groups[0].split("<", 1)
    seats = doublers.replace("!", "")
    who = f"{', '.join(seats[:-1])} and {seats[-1]}" if len(seats) > 1 else seats
    said = f"{groups[0]}: {who} doubled {doubled}"
    if not any("!" in g for g in groups):
        return [said]
    alone = [f"{who} doubled {doubled}, ! redoubled", f"{', '.join(seats)} doubled {doubled}; ! redoubled"]
    return [f"{said}, ! redoubled", *(alone if len(groups) == 1 else []), "! redoubled"]


def table_width(columns: int) -> int:
    """The table's width in a terminal ``columns`` wide: ``TABLE_WIDTH`` at 80 columns, and half of every
    column beyond (the right panel gets the other half), up to 80."""
    return min(TABLE_WIDTH + max(columns - 80, 0) // 2, 80)


def table_lines(
    table: TableModel, cols: int = TABLE_WIDTH, rows: int = 13, name: str | None = None
) -> StyleAndTextTuples:
    """The centre, ``cols`` wide and ``rows`` high: seats around the current trick (spread over the rows a
    taller terminal gives), or the Dominoes layout as four rows; ``name`` the table's name as the top line
    shows it (None: cut here to fit)."""
    view = table.view or {}
    if table.showing_summary():  # the last hand's too, before the match's end
        return summary_lines(table, cols)
    if view.get("phase") == "over":
        return match_end_lines(table, cols)
    bottom, left, top, right = seat_order(table)
    head = headline(table, cols, name)
    out: StyleAndTextTuples = [*head, ("", "\n" if "\n" in fragment_list_to_text(head) else "\n\n")]
    if view.get("rows"):
        return out + dominoes_lines(table)
    more = "\n" * (max(rows - 12, 0) // 3)  # blank lines added between the seats on a taller table
    out += [("", more), *_center(_seat_tag(table, top, cols - 12), cols), ("", "\n")]
    out += [*_center(_trick_card(table, top), cols), ("", "\n\n" + more)]
    lt, rt = side_tags(table, left, right, cols)
    out += [*lt, ("", " " * max(cols - _width(lt) - _width(rt), 1)), *rt, ("", "\n")]
    lc, rc = _trick_card(table, left), _trick_card(table, right)
    gap = cols - 12 - _width(lc) - _width(rc)
    finished = table.shown_trick()
    won: StyleAndTextTuples = []
    if finished:
        won.append(("class:label", shorten(f"won by {_who(table, finished.get('winner'))}", gap - 2)))
    middle = _center(won, gap)
    middle.append(("", " " * (gap - _width(middle))))
    out += [("", " " * 5), *lc, *middle, *rc, ("", "\n\n" + more)]
    out += [*_center(_trick_card(table, bottom), cols), ("", "\n")]
    out += [*_center(_seat_tag(table, bottom, cols - 12), cols), ("", "\n")]
    return out


def dominoes_lines(table: TableModel) -> StyleAndTextTuples:
    """The Dominoes layout, one row a suit low to high, then each seat's cards left and place."""
    view = table.view or {}
    rows: dict[str, list[str]] = view.get("rows", {})
    out: StyleAndTextTuples = []
    for suit in SUIT_ORDER:
        cards = rows.get(suit, [])
        out.append((card_fragment("2" + suit)[0], f" {SUIT_SYMBOLS[suit]}  "))
        opener = card_label(f"{view.get('start_rank')}{suit}")
        shown = " ".join(card_label(c)[:-1].rjust(2) for c in cards) or f"- opens with {opener}"
        out.append((card_fragment("2" + suit)[0], shown))
        out.append(("", "\n"))
    out.append(("", "\n"))
    finish = [str(s) for s in view.get("finish_order", [])]
    sizes = view.get("hand_sizes", {})
    for seat in seat_order(table):
        out += _seat_tag(table, seat, TABLE_WIDTH - 24)
        place = (
            f"  out {finish.index(seat) + 1}."
            if seat in finish
            else f"  {counted(int(sizes.get(seat, 0)), 'card')}"
        )
        out += [("class:dim", place), ("", "\n")]
    return out


def waiting_for(table: TableModel) -> str | None:
    """What a waiting table whose four seats are all taken waits for: its players away (the match does not
    start while a seat's player is away, docs/protocol.md "sit"), e.g. "The match starts when E bob is back
    (k removes a player)." for the host; None when a seat is free or nobody is away."""
    away = [seat for seat in SEATS if seat in table.away]
    if not away or not all(table.players.get(seat) for seat in SEATS):
        return None
    verb = "is" if len(away) == 1 else "are"
    host = table.host is None or table.host == table.me
    return f"The match starts when {seats_text(table, away)} {verb} back" + (
        " (k removes a player)." if host else "."
    )


def hand_line(table: TableModel, screen: BarbuScreen) -> StyleAndTextTuples:
    """The seat's hand, sorted by suit, playable cards bright and the others dimmed, the cursor reversed."""
    hand = screen.hand(table)
    if table.view is None and (waiting := waiting_for(table)):
        return [("class:warn", waiting)]
    if table.view is None and table.host is not None and table.host != table.me:
        said = "The match starts when all four seats are taken (the host, {}, adds bots)."
        room = 2 * HAND_WIDTH - width(said.format(""))  # the hand's window wraps onto a second line
        host = shorten(table.host, max(room, 20))
        return [("class:warn", said.format(host))]
    if table.view is None:
        return [
            ("class:warn", "The match starts when all four seats are taken: b adds a bot, f fills them all.")
        ]
    if table.seat is None:
        return [("class:dim", "You are watching this table.")]
    view = table.view
    if match_ended(table):  # the cards left of a hand ended early are no hand to play
        return [("class:dim", "The match is over.")]
    if table.showing_summary() and (table.summary or {}).get("hand_number") == view.get("hand_number"):
        return [("class:dim", "The hand is over.")]
    if not hand:
        return [("class:dim", "Your hand is empty.")]
    playable = screen.playable(table)
    choosing = table.my_turn and screen.phase(table) == "play"
    out: StyleAndTextTuples = [("class:label", "Hand ")]
    previous = ""
    for i, card in enumerate(hand):
        if previous and card[1] != previous:
            out.append(("", " "))
        previous = card[1]
        extra = ""
        if choosing:
            extra = "class:playable" if card in playable else "class:dim"
            if i == screen.card % len(hand):
                extra += " class:cursor"
        out.append(card_fragment(card, extra))
        out.append(("", " "))
    if table.my_turn and any(a.get("action") == "pass" for a in (table.view or {}).get("legal") or []):
        out.append(("class:warn", " no card fits: Enter passes"))
    return out


def match_ended(table: TableModel) -> bool:
    """Whether the match is over: the view says so, or the summary up is the last hand's (its number says it
    at once; the view says "over" only once its snapshot comes)."""
    view = table.view or {}
    if view.get("phase") == "over":
        return True
    last = int(view.get("hands_total") or 28)
    return table.showing_summary() and int((table.summary or {}).get("hand_number") or 0) >= last


def side_lines(
    table: TableModel, screen: BarbuScreen, cols: int = SIDE_WIDTH, rows: int = 13
) -> StyleAndTextTuples:
    """The right panel, ``cols`` wide and ``rows`` high: the decision dialog when this seat must decide;
    else the last trick, the scores, when this player declares, and the chat, wrapped so that every line
    is read whole (the newest lines that fit)."""
    choices = screen.choices(table)
    if choices:
        return decision_lines(table, screen, choices)
    view = table.view or {}
    out: StyleAndTextTuples = []
    last = table.last_trick
    summary = table.showing_summary()
    if summary:  # the hand scored: its last trick, the next hand's view has none yet
        last = table.summary_trick
    ended = match_ended(table)
    if ended:  # beside the ranking (or the last hand's summary): no row to play to, no hand to come
        out.append(("class:dim", "The match is over.\n"))
    if view.get("rows") and not summary and not ended:
        out.append(("class:dim", "Dominoes: play next to a row.\n"))
    elif last:
        out.append(("class:label", f"Last trick, won by {last.get('winner')}:\n"))
        leader = SEATS.index(str(last.get("leader", "N")))
        for i, card in enumerate(last.get("cards", [])):
            out += [("", f" {SEATS[(leader + i) % 4]} "), card_fragment(str(card))]
        out.append(("", "\n"))
    elif summary and not ended:
        out.append(("class:dim", "The hand is over.\n"))
    elif not ended:
        out.append(("class:dim", "No trick yet.\n"))
    names = max(10, min(cols - 18, max(width(_seat_name(table, s)) for s in SEATS)))
    out.append(("class:label", f"{'Seat':<{names + 3}}{'contract':>8}{'total':>7}\n"))  # the contract's alone
    hand_scores = view.get("contract_scores", {})
    totals = view.get("totals", {})
    if summary and table.summary is not None:  # after the hand scored: the totals the summary says
        totals = table.summary.get("totals", totals)
        if view.get("hand_number") == table.summary.get("hand_number"):
            hand_scores = table.summary.get("contract_scores", hand_scores)
    for seat in SEATS:
        name = fit(_seat_name(table, seat), names)
        out.append(("", f"{seat} {name} {hand_scores.get(seat, 0):>8} {totals.get(seat, 0):>6}\n"))
    for line in away_lines(table):  # wrapped, never cut: the countdown must be read whole
        out += [("class:warn", part + "\n") for part in wrap(line, max(cols, 10))]
    declare = declare_text(view, table.seat)
    if declare:
        out.append(("class:dim", shorten(declare, cols, cut="end") + "\n"))
    title = len(out)
    out.append(("class:label", "Chat (c to talk)\n"))
    space = rows - fragment_list_to_text(out).count("\n")
    shown, more = chat_window(table, screen, max(cols, 10), space)
    if more:
        out[title] = ("class:label", "Chat (c to talk, PgUp/PgDn)\n")
    for line in shown:
        out.append(("", line + "\n"))
    return out


def chat_window(table: TableModel, screen: BarbuScreen, cols: int, space: int) -> tuple[list[str], bool]:
    """The chat lines that fit ``space`` lines of ``cols`` columns, and whether there are more than that.

    Messages are wrapped, never cut: the panel starts at the first line of the oldest message that fits whole
    with all newer ones (a message longer than the panel shows from its first line); PgUp/PgDn
    (``screen.chat_shift``, in lines) scroll from there, over everything kept."""
    if space <= 0:
        return [], bool(table.chat)
    lines: list[str] = []
    starts: list[int] = []
    for message in table.chat:
        starts.append(len(lines))
        lines += wrap(message, cols)
    start = next((s for s in starts if len(lines) - s <= space), starts[-1] if starts else 0)
    last = max(len(lines) - space, start)
    screen.chat_shift = max(min(screen.chat_shift, last - start), -start)
    begin = start + screen.chat_shift
    return lines[begin : begin + space], len(lines) > space


#: The choices a decision menu shows at once; ``↑ 2 more`` and ``↓ 3 more`` say what the arrows bring.
MENU_ROWS = 8


def decision_lines(table: TableModel, screen: BarbuScreen, choices: list[Choice]) -> StyleAndTextTuples:
    """The contract menu (then trump suit or starting rank) or the doubling dialog, ``MENU_ROWS`` choices at a
    time with how many more are above and below."""
    view = table.view or {}
    phase = screen.phase(table)
    out: StyleAndTextTuples = []
    if phase == "contract":
        title = {"contract": "Choose a contract:", "trump": "Trump suit:", "rank": "Dominoes: starting rank:"}
        out.append(("class:label", title.get(screen.stage, "") + "\n"))
    else:
        declarer = str(view.get("declarer"))
        verb = "Double whom?" if phase == "double" else "Redouble whom?"
        out.append(("class:label", f"{verb}\n"))
        out.append(("class:dim", "Space ticks, Enter sends.\n"))
        owed = view.get("doubles_owed", {}).get(table.seat)
        if phase == "double" and owed and table.seat != declarer:  # none owed: nothing to say
            out.append(("class:dim", f"You owe {declarer} {counted(int(owed), 'more double')}.\n"))
        if view.get("must_double"):
            out.append(("class:warn", f"You must double {declarer} now.\n"))
    start = max(0, min(screen.menu - 7, len(choices) - MENU_ROWS))
    if start:  # a longer menu (Dominoes' 13 ranks) says what is above and below the 8 shown
        out.append(("class:dim", f" ↑ {start} more\n"))
    for i, choice in enumerate(choices[start : start + MENU_ROWS], start=start):
        style = "class:cursor" if i == screen.menu % len(choices) else ""
        out.append((style, f" {choice.label} "))
        out.append(("", "\n"))
    below = len(choices) - start - MENU_ROWS
    if below > 0:
        out.append(("class:dim", f" ↓ {below} more\n"))
    if phase == "contract" and screen.stage != "contract":
        out.append(("class:dim", "Esc: back to the contracts\n"))
    return out


def _who(table: TableModel, seat: Any) -> str:
    """``you`` or ``W carol`` (``client.tui.events.who``)."""
    return who(table, seat)


def settlement_lines(row: dict[str, Any], compact: bool = False) -> list[str]:
    """Each doubled pair of a scored hand (``history`` row) and what it settled: ``E doubled N, redoubled
    x2: E +4, N -4``; ``compact``: ``N/E x2: E +4``. Pairs in seat order; none when nobody doubled."""
    doubles = [(str(a), str(b)) for a, b in row.get("doubles", [])]
    redoubles = {frozenset(p) for p in row.get("redoubles", [])}
    scores: dict[str, int] = row.get("contract_scores", {})
    out = []
    seen: set[frozenset[str]] = set()
    for a, b in doubles:
        pair = frozenset((a, b))
        if pair in seen:
            continue
        seen.add(pair)
        mutual = (b, a) in doubles
        times = 2 if mutual or pair in redoubles else 1
        diff = (scores.get(a, 0) - scores.get(b, 0)) * times
        up, down = (a, b) if diff > 0 else (b, a)
        result = f"{up} +{abs(diff)}, {down} -{abs(diff)}" if diff else "even"
        if compact:
            first, second = sorted((a, b), key=SEATS.index)
            out.append(
                f"{first}/{second}{' x2' if times == 2 else ''}: {up} +{abs(diff)}"
                if diff
                else f"{first}/{second}: even"
            )
            continue
        how = f"{a} and {b} doubled each other (stakes x2)" if mutual else f"{a} doubled {b}"
        if pair in redoubles and not mutual:
            how += f", {b} redoubled (stakes x2)"
        out.append(f"{how}: {result}")
    return out


def summary_lines(table: TableModel, cols: int = TABLE_WIDTH) -> StyleAndTextTuples:
    """The end-of-hand summary: the contract scores, each settlement (who doubled whom, x2 when redoubled)
    and the hand's results with the totals, until a key is pressed or the next card is due."""
    event = table.summary or {}
    number = event.get("hand_number")
    history = (table.view or {}).get("history") or []
    row = next((r for r in history if r.get("hand_number") == number), event)
    label = contract_label(row)
    out: StyleAndTextTuples = [
        ("class:title", f"Hand {number} scored: "),
        ("class:contract", shorten(f"{label}, {row.get('declarer')} declared", cols - 16)),
        ("", "\n"),
        ("class:label", f"{'seat':<16}{'contract':>8}{'doubles':>8}{'hand':>6}{'total':>7}\n"),
    ]
    contract, settled = row.get("contract_scores", {}), row.get("settlements", event.get("settlements", {}))
    scores, totals = row.get("scores", event.get("scores", {})), event.get("totals", {})
    for seat in SEATS:
        name = fit(f"{seat} {'you' if is_mine(table, seat) else table.player(seat)}", 16)
        line = f"{name}{contract.get(seat, 0):>8}{settled.get(seat, 0):>+8}{scores.get(seat, 0):>6}"
        out.append(("class:bold" if is_mine(table, seat) else "", f"{line}{totals.get(seat, 0):>7}\n"))
    pairs = settlement_lines(row)
    if len(pairs) > 5:
        compact = settlement_lines(row, compact=True)
        pairs = ["  ".join(compact[i : i + 3]) for i in range(0, len(compact), 3)]
    out.append(("class:label", "Settlements:\n" if pairs else "No doubles this hand.\n"))
    out += [("", shorten(line, cols, cut="end") + "\n") for line in pairs]
    out.append(
        ("class:dim", "Any key: the match's end." if match_ended(table) else "Any key: back to the table.")
    )
    return out


def match_end_lines(table: TableModel, cols: int = TABLE_WIDTH) -> StyleAndTextTuples:
    """The match's end: the final ranking with the totals, the winner said plainly, and for the table's host
    the key for another match with the same players."""
    view = table.view or {}
    ranking: list[list[str]] = view.get("ranking") or []
    totals: dict[str, int] = view.get("totals", {})
    out: StyleAndTextTuples = [("class:title", "The match is over: the final ranking\n\n")]
    place = 1
    for tied in ranking:
        mark = f"{place}{'=' if len(tied) > 1 else '.'}"
        for seat in tied:
            name = fit(_who(table, seat), 24)
            out.append(
                (
                    "class:bold" if is_mine(table, seat) else "",
                    f" {mark:<3} {name} {totals.get(seat, 0):>6}\n",
                )
            )
        place += len(tied)
    words = wrap(winner_text(ranking, totals, table), cols)
    out += [("", "\n"), *[("class:contract", line[:1].upper() + line[1:] + "\n") for line in words[:1]]]
    out += [("class:contract", line + "\n") for line in words[1:2]]
    out.append(("", "\n"))
    if table.rematch is not None:
        seated = table.seat is not None or table.me in table.players.values()
        follow = ": w to take your seat there" if seated else ": w to watch it"
        out.append(("class:warn", f"Another match is open (room {table.rematch}){follow}.\n"))
    elif table.host is not None and table.host == table.me:
        out.append(("class:warn", "r: another match with the same players\n"))
    elif table.host is not None:
        host = shorten(table.host, cols - 38)
        out.append(("class:dim", f"The host, {host}, may start another match.\n"))
    out.append(("class:dim", "s: the score sheet   l: the lobby"))
    return out


def declare_text(view: dict[str, Any], seat: str | None) -> str:
    """When ``seat`` declares, for a player whose turn to declare is not now: ``you declare hands 22-28``,
    ``you declared hands 1-7``; under the ``each-hand`` rotation ``you declare every 4th hand, next 7``.
    Empty for a spectator, the current declarer, or at the match's end."""
    if seat is None or view.get("phase") == "over" or not view.get("declarer"):
        return ""
    number, declarer = int(view.get("hand_number") or 1), str(view["declarer"])
    offset = (SEATS.index(seat) - SEATS.index(declarer)) % 4
    if (view.get("variants") or {}).get("rotation") == "each-hand":
        return f"You declare every 4th hand, next: hand {number + offset}." if offset else ""
    block = (number - 1) // 7
    if offset == 0:
        return ""
    mine = block + offset
    first = (mine if mine < 4 else mine - 4) * 7 + 1
    verb = "declare" if mine < 4 else "declared"
    return f"You {verb} hands {first}–{first + 6}."

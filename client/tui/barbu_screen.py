"""The Barbu table: the four seats around the trick, the hand, the last trick, scores, chat, and the choices
of the seat to move (contract, trump or starting rank, doubles, redoubles, a card).

``BarbuScreen`` holds only what the keyboard changes (cursors, the contract menu's stage, the doubles
ticked); everything else is drawn from the table's view (``engine/barbu/view.py::match_view``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from client.columns import fit, shorten, width
from client.sheet import contract_label, doubles_label
from client.tui.cards import SUIT_NAMES, SUIT_ORDER, SUIT_SYMBOLS, card_fragment, card_label, sort_hand
from client.tui.model import TableModel
from engine.barbu import CONTRACTS
from engine.cards import RANKS, SEATS

CONTRACT_NAMES = {
    "no-tricks": "No Tricks (-2 a trick)",
    "no-queens": "No Queens (-6 a queen)",
    "no-last-two": "No Last Two (-10, -20)",
    "no-hearts": "No Hearts (-2 a heart, AH -6)",
    "barbu": "Barbu (KH -20)",
    "trumps": "Trumps (+5 a trick) ...",
    "dominoes": "Dominoes (fan tan) ...",
}
TABLE_WIDTH = 46
#: The width of the right panel at 80 columns (the table, its divider, the panel).
SIDE_WIDTH = 80 - TABLE_WIDTH - 2
#: Names beside a seat are cut (in the middle) to this many columns, the away mark included, so that the left
#: and right seat tags fit side by side.
SEAT_NAME_WIDTH = 12


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
        seq: the view's ``seq`` these cursors were set for (a new view resets them).
    """

    card: int = 0
    menu: int = 0
    stage: str = "contract"
    ticked: set[str] = field(default_factory=set)
    seq: int = -2

    # Decisions --------------------------------------------------------------------------------------

    def sync(self, table: TableModel) -> None:
        """Reset the cursors when a new decision comes up."""
        if table.seq == self.seq:
            return
        self.seq = table.seq
        self.menu = 0
        self.stage = "contract"
        self.ticked = set()
        view = table.view or {}
        if view.get("must_double") and table.my_turn:
            self.ticked.add(str(view.get("declarer")))
        playable = self.playable(table)
        hand = self.hand(table)
        if playable and (self.card >= len(hand) or hand[self.card] not in playable):
            self.card = hand.index(next(c for c in hand if c in playable))
        self.card = min(self.card, max(len(hand) - 1, 0))

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

    def move_menu(self, table: TableModel, step: int) -> None:
        """Move the menu cursor."""
        n = len(self.choices(table))
        if n:
            self.menu = (self.menu + step) % n

    def move_card(self, table: TableModel, step: int) -> None:
        """Move the hand cursor to the next card (the next playable one when it is this seat's turn)."""
        self.sync(table)
        hand = self.hand(table)
        if not hand:
            return
        playable = self.playable(table)
        for _ in range(len(hand)):
            self.card = (self.card + step) % len(hand)
            if not playable or hand[self.card] in playable:
                return

    def toggle(self, table: TableModel) -> None:
        """Tick or untick the selected seat in the doubling dialog."""
        choices = self.choices(table)
        if self.phase(table) in ("double", "redouble") and choices:
            seat = choices[self.menu % len(choices)].stage
            self.ticked ^= {seat}

    def back(self) -> None:
        """Leave the trump or rank menu for the contract menu."""
        self.stage = "contract"
        self.menu = 0

    def confirm(self, table: TableModel) -> tuple[dict[str, Any] | None, str]:
        """Enter: the wire action to send now (or None) and a notice (why nothing was sent, or empty)."""
        self.sync(table)
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


def _seat_tag(table: TableModel, seat: str) -> StyleAndTextTuples:
    view = table.view or {}
    marks = ""
    if view.get("dealer") == seat:
        marks += " D"
    if view.get("declarer") == seat:
        marks += " *"
    style = "class:seat.turn" if view.get("to_move") == seat else "class:seat"
    away = " (away)" if seat in table.away else ""
    name = shorten("you" if seat == table.seat else table.player(seat), SEAT_NAME_WIDTH - len(away)) + away
    out: StyleAndTextTuples = [(style, f"{seat} {name}"), ("class:mark", marks)]
    if view and not view.get("rows"):
        out.append(("class:dim", f" {view.get('tricks_won', {}).get(seat, 0)}t"))
    return out


def _width(frags: StyleAndTextTuples) -> int:
    """The fragments' width in terminal columns."""
    return sum(width(t[1]) for t in frags)


def _center(frags: StyleAndTextTuples, width: int = TABLE_WIDTH) -> StyleAndTextTuples:
    pad = max((width - _width(frags)) // 2, 0)
    return [("", " " * pad), *frags]


def _trick_card(view: dict[str, Any], seat: str) -> StyleAndTextTuples:
    trick = view.get("trick") or {}
    cards: list[str] = trick.get("cards", [])
    leader = trick.get("leader")
    if leader is None or not cards:
        return [("class:dim", "·")]
    index = (SEATS.index(seat) - SEATS.index(str(leader))) % 4
    if index < len(cards):
        return [card_fragment(cards[index], "class:bold")]
    return [("class:dim", "·")]


def headline(table: TableModel) -> StyleAndTextTuples:
    """Hand number and contract, then the doubles on the next line (or the waiting message); each line at
    most ``TABLE_WIDTH`` columns."""
    view = table.view
    if view is None:
        free = f": waiting for {', '.join(s for s in SEATS if table.players.get(s) is None) or 'the start'}"
        name = shorten(table.name, TABLE_WIDTH - width("Table " + free))
        return [("class:title", f"Table {name}{free}")]
    phase = view.get("phase")
    title = f"Hand {view.get('hand_number')}/{view.get('hands_total')} "
    if view.get("contract"):
        what = contract_label(view)
        if view.get("trump"):
            what = what[:-1] + SUIT_SYMBOLS[str(view["trump"])]
        elif view.get("start_rank") == "T":
            what = what[:-1] + "10"
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
        out.append(("class:dim", "\n" + shorten(f"doubles {label}", TABLE_WIDTH, cut="end")))
    return out


def table_lines(table: TableModel) -> StyleAndTextTuples:
    """The centre: seats around the current trick, or the Dominoes layout as four rows."""
    view = table.view or {}
    bottom, left, top, right = seat_order(table)
    head = headline(table)
    out: StyleAndTextTuples = [*head, ("", "\n" if "\n" in fragment_list_to_text(head) else "\n\n")]
    if view.get("rows"):
        return out + dominoes_lines(table)
    out += [*_center(_seat_tag(table, top)), ("", "\n")]
    out += [*_center(_trick_card(view, top)), ("", "\n\n")]
    lt, rt = _seat_tag(table, left), _seat_tag(table, right)
    out += [*lt, ("", " " * max(TABLE_WIDTH - _width(lt) - _width(rt), 1)), *rt, ("", "\n")]
    lc, rc = _trick_card(view, left), _trick_card(view, right)
    gap = TABLE_WIDTH - 12 - _width(lc) - _width(rc)
    out += [("", " " * 5), *lc, ("", " " * max(gap, 1)), *rc, ("", "\n\n")]
    out += [*_center(_trick_card(view, bottom)), ("", "\n")]
    out += [*_center(_seat_tag(table, bottom)), ("", "\n")]
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
        out += _seat_tag(table, seat)
        place = f"  out {finish.index(seat) + 1}." if seat in finish else f"  {sizes.get(seat, 0)} cards"
        out += [("class:dim", place), ("", "\n")]
    return out


def hand_line(table: TableModel, screen: BarbuScreen) -> StyleAndTextTuples:
    """The seat's hand, sorted by suit, playable cards bright and the others dimmed, the cursor reversed."""
    hand = screen.hand(table)
    if table.view is None:
        return [
            ("class:warn", "The match starts when all four seats are taken: b adds a bot, f fills them all.")
        ]
    if table.seat is None:
        return [("class:dim", "You are watching this table.")]
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


def side_lines(table: TableModel, screen: BarbuScreen) -> StyleAndTextTuples:
    """The right panel: the decision dialog when this seat must decide; else last trick, scores, chat."""
    choices = screen.choices(table)
    if choices:
        return decision_lines(table, screen, choices)
    view = table.view or {}
    out: StyleAndTextTuples = []
    last = table.last_trick
    if view.get("rows"):
        out.append(("class:dim", "Dominoes: play next to a row.\n"))
    elif last:
        out.append(("class:label", f"Last trick, won by {last.get('winner')}:\n"))
        leader = SEATS.index(str(last.get("leader", "N")))
        for i, card in enumerate(last.get("cards", [])):
            out += [("", f" {SEATS[(leader + i) % 4]} "), card_fragment(str(card))]
        out.append(("", "\n"))
    else:
        out.append(("class:dim", "No trick yet.\n"))
    out.append(("class:label", "\nSeat          hand  total\n"))
    hand_scores = view.get("contract_scores", {})
    totals = view.get("totals", {})
    for seat in SEATS:
        name = fit("you" if seat == table.seat else table.player(seat), 10)
        out.append(("", f"{seat} {name} {hand_scores.get(seat, 0):>5} {totals.get(seat, 0):>6}\n"))
    if view.get("phase") == "over" and view.get("ranking"):
        places = " ".join("=".join(p) for p in view["ranking"])
        out.append(("class:contract", f"Final order: {places}\n"))
    out.append(("class:label", "\nChat (c to talk)\n"))
    for line in list(table.chat)[-4:]:
        out.append(("", shorten(line, SIDE_WIDTH, cut="end") + "\n"))
    return out


def decision_lines(table: TableModel, screen: BarbuScreen, choices: list[Choice]) -> StyleAndTextTuples:
    """The contract menu (then trump suit or starting rank) or the doubling dialog."""
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
        if phase == "double" and owed is not None and table.seat != declarer:
            out.append(("class:dim", f"You owe {declarer} {owed} more double(s).\n"))
        if view.get("must_double"):
            out.append(("class:warn", f"You must double {declarer} now.\n"))
    start = max(0, min(screen.menu - 7, len(choices) - 8))
    for i, choice in enumerate(choices[start : start + 8], start=start):
        style = "class:cursor" if i == screen.menu % len(choices) else ""
        out.append((style, f" {choice.label} "))
        out.append(("", "\n"))
    if phase == "contract" and screen.stage != "contract":
        out.append(("class:dim", "Esc: back to the contracts\n"))
    return out

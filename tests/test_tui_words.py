"""The terminal client's screens drawn from real engine views (no network, no timing), for what a second
newcomer met: the last hand's summary before the match's end, the rule named when K♥ is led in Barbu, one
notation and the singular ("1 card"), chat read whole, the lobby's solitaire rooms and their marks, the key
line of each state, and a table that grows with the terminal."""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.columns import width
from client.tui.app import KEY_HINTS, TuiApp
from client.tui.barbu_screen import BarbuScreen, side_lines, table_lines
from client.tui.events import event_text
from client.tui.help import HELP
from client.tui.lobby_screen import GAMES_KEYS, LobbyScreen, lobby_lines, room_seats
from client.tui.model import Model, TableModel
from client.tui.refusals import refusal_text, typed_card_refusal
from engine.barbu import IllegalAction, Match, action_from_wire, make_policy
from engine.cards import SEATS
from tests.test_tui import screen_lines
from tests.test_tui_flows import SizedOutput
from tests.test_tui_table import seated, step, to_first_trick_won


def text(fragments: StyleAndTextTuples) -> str:
    """Formatted text as plain text."""
    return fragment_list_to_text(fragments)


def test_the_last_hands_summary_shows_before_the_match_end() -> None:
    match = Match.new(4)
    bots = [make_policy("random", s) for s in range(4)]
    while match.to_move is not None:
        step(match, bots)
    table: TableModel = seated(match, 0)
    last = match.view(0)["history"][-1]
    assert last["hand_number"] == 28
    event_text({"event": "hand-scored", **last, "totals": match.view(0)["totals"]}, table)
    drawn = text(table_lines(table))
    assert "Hand 28 scored" in drawn and "Any key: the match's end." in drawn
    assert "the final ranking" not in drawn
    table.summary_seen = True  # a key was pressed
    assert "the final ranking" in text(table_lines(table))


def test_leading_the_king_of_hearts_in_barbu_is_refused_by_its_rule() -> None:
    def dealt(seed: int) -> tuple[Match, int]:
        match = Match.new(seed)
        assert match.to_move is not None
        return match, match.to_move

    match, declarer = next(
        (m, d)
        for m, d in map(dealt, range(100))
        if "KH" in m.view(d)["hand"] and len({c[1] for c in m.view(d)["hand"]}) > 1
    )
    match.apply(declarer, action_from_wire({"action": "contract", "contract": "barbu"}))
    bots = [make_policy("random", s) for s in range(4)]
    while match.view(declarer)["phase"] != "play":
        step(match, bots)
    view = match.view(declarer)
    assert view["to_move"] == SEATS[declarer] and not view["trick"]["cards"]
    rule = "In Barbu K♥ may not be led unless it is your only card"
    assert typed_card_refusal("kh", view).startswith(rule)
    try:
        match.apply(declarer, action_from_wire({"action": "play", "card": "KH"}))
    except IllegalAction as exc:  # the server's refusal, by the same rule
        assert refusal_text(exc.code, str(exc), view, {"action": "play", "card": "KH"}).startswith(rule)
    else:
        raise AssertionError("K♥ was led")


def test_the_games_lists_keys_are_all_in_the_client_document() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "client.md").read_text(encoding="utf-8")
    row = doc.split("\n### Solitaire games\n", 1)[1].split("\n#", 1)[0]  # the section, to the next heading
    keys = [k for k in GAMES_KEYS.split(":", 1)[1].split("  ") if k.strip()]
    assert len(keys) >= 5
    for key in keys:
        first = key.split()[0]
        assert (f"`{first}`" if len(first) == 1 else first) in row, key


def test_one_card_one_double_and_the_help_marks_as_on_the_screen() -> None:
    match = Match.new(11)
    declarer = match.to_move
    assert declarer is not None
    match.apply(declarer, action_from_wire({"action": "contract", "contract": "dominoes", "start_rank": "6"}))
    doubler = match.to_move
    assert doubler is not None
    table = seated(match, doubler)
    assert table.view is not None and table.view["phase"] == "double"
    table.view["doubles_owed"] = {SEATS[doubler]: 1}
    panel = text(side_lines(table, BarbuScreen()))
    assert f"You owe {SEATS[declarer]} 1 more double." in panel
    bots = [make_policy("random", s) for s in range(4)]
    while match.view(0)["phase"] != "play":
        step(match, bots)
    table = seated(match, 0)
    assert table.view is not None
    table.view["hand_sizes"] = {s: 1 for s in SEATS}
    drawn = text(table_lines(table))
    assert "1 card" in drawn and "1 cards" not in drawn
    assert "▸ the trick's leader" in HELP and "> the trick's leader" not in HELP


def key_line(tui: TuiApp) -> str:
    """The key-hint line as drawn."""
    return str(tui._key_hints())


def test_the_key_line_of_each_state() -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        tui = TuiApp("ws://127.0.0.1:1", name="ann")
        tui.model.name = "ann"
        tui.show("lobby")
        assert key_line(tui) == KEY_HINTS["lobby"]
        tui.lobby.picking = True
        assert key_line(tui) == KEY_HINTS["games"] and "winnable" in key_line(tui)
        tui.lobby.picking = False
        match = Match.new(3)
        tui.model.table = table = seated(match, 0)
        tui.show("table")
        assert key_line(tui) == KEY_HINTS["table-others"]  # another seat chooses the contract
        table.seat = None
        assert "you watch this table" in key_line(tui) and "Enter play" not in key_line(tui)
        table.seat, table.view = "N", None
        assert key_line(tui) == KEY_HINTS["table-waiting"]
        bots = [make_policy("random", s) for s in range(4)]
        while match.to_move is not None:
            step(match, bots)
        tui.model.table = table = seated(match, 0)
        table.host = "ann"
        assert key_line(tui).startswith("r another match") and "Enter play" not in key_line(tui)
        table.host = "bob"
        assert key_line(tui) == KEY_HINTS["table-over"]
        assert all(width(hint) <= 80 for hint in KEY_HINTS.values())


def drawn_table(columns: int, rows: int) -> list[str]:
    """The table screen of a hand in play (a trick won, the next card played) in a terminal of that size."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=SizedOutput(columns, rows)):
        tui = TuiApp("ws://127.0.0.1:1", name="ann")
        match = Match.new(21)
        bots = [make_policy("heuristic", s) for s in range(4)]
        to_first_trick_won(match, bots)
        step(match, bots)
        tui.model.table = seated(match, 0)
        for i in range(40):
            tui.model.note(f"line {i}", f"table:{tui.model.table.room}")  # this table's own log
        tui.show("table")
        return screen_lines(tui)


def test_a_larger_terminal_gives_the_table_and_the_log_room() -> None:
    small, large = drawn_table(80, 24), drawn_table(120, 40)
    assert all(line[47] == "│" for line in small[1:12])
    assert all(line[67] == "│" for line in large[1:20])  # 46 columns and half of the 40 more
    seats = next(line for line in large if "▸" in line or " 1t" in line[:67])
    assert len(seats[:67].rstrip()) > 60  # the right seat's tag at the table's right edge
    assert sum(1 for line in large if line.startswith("line ")) > sum(
        1 for line in small if line.startswith("line ")
    )
    tags = [i for i, line in enumerate(large) if " 0t" in line[:67] or " 1t" in line[:67]]
    assert tags[-1] - tags[0] > 10  # the seats spread over the taller table


def test_a_long_chat_message_is_read_whole_scrolling_if_needed() -> None:
    table = TableModel(room="1", seat="N")
    screen = BarbuScreen()
    said = "bob: " + " ".join(f"word{i}" for i in range(120))  # longer than the panel's chat lines
    table.chat.extend(["ann: hello", said, "cid: short"])

    def chat() -> list[str]:
        panel = text(side_lines(table, screen, 32, 13)).splitlines()
        head = next(i for i, line in enumerate(panel) if line.startswith("Chat (c to talk"))
        return panel[head + 1 :]

    first = chat()
    assert first == ["cid: short"]  # the newest that fit whole: never the tail of a longer message
    assert "PgUp/PgDn" in text(side_lines(table, screen, 32, 13))
    seen: list[str] = []
    screen.scroll_chat(-100)  # to the oldest kept
    for _ in range(40):
        for line in chat():
            if line not in seen:
                seen.append(line)
        screen.scroll_chat(1)
    assert " ".join(seen) == " ".join(["ann: hello", said, "cid: short"])
    table.chat.clear()
    table.chat.append(said)
    screen.chat_shift = 0
    assert chat()[0].startswith("bob: word0")  # longer than the panel: from its first line


def test_the_lobby_shows_solitaire_rooms_whole_and_explains_its_marks() -> None:
    model = Model("ws://127.0.0.1:1234", name="root")
    model.rooms = [
        {"room": "2", "kind": "solitaire", "name": "Pyramid (root)", "state": "playing",
         "players": {"player": "root"}, "away": True, "game": "pyramid", "daily": "2026-12-01", "moves": 3},
        {"room": "1", "kind": "barbu", "name": "game 12-01 04:57:48", "state": "playing", "hand_number": 3,
         "players": {"N": "bot:x", "E": None, "S": "root", "W": "bot:z"}, "away": ["S"]},
    ]  # fmt: skip
    lines = text(lobby_lines(model, LobbyScreen(), 80)).splitlines()
    assert all(width(line) <= 80 for line in lines)
    solitaire = next(line for line in lines if "Pyramid" in line)
    assert solitaire.startswith("  Pyramid (root) ") and "root? plays the day's deal" in solitaire
    assert "S:root? " in next(line for line in lines if "hand 3/28" in line)
    assert "Marks: ? the player is away   - an empty seat" in lines[-1]
    assert room_seats({"kind": "solitaire", "players": {"player": "ann"}, "winnable": True}) == (
        "ann plays a winnable deal"
    )


def test_watching_ones_own_seat_says_you_in_the_panel_and_the_summary() -> None:
    match = Match.new(8)
    bots = [make_policy("heuristic", s) for s in range(4)]
    while match.hand_number == 1:
        step(match, bots)
    table = TableModel(room="1", seat=None, players={s: f"p{s}" for s in SEATS}, me="pS", state="playing")
    table.set_view(match.view(None), 0)
    panel = text(side_lines(table, BarbuScreen()))
    assert "S you " in panel and "S pS" not in panel
    scored = next(e for e in match.view(0)["history"] if e["hand_number"] == 1)
    event_text({"event": "hand-scored", **scored, "totals": match.view(0)["totals"]}, table)
    drawn = text(table_lines(table))
    assert "Hand 1 scored" in drawn and "S you" in drawn and "S pS" not in drawn

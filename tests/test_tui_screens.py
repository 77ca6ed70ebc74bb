"""The terminal client's screens drawn from real engine views and solitaire states (no network): contract
menus offer only the contracts left, the doubling dialog, the Dominoes rows, the hand's order and colours,
the 80-column score sheet, and the solitaire layouts with won and lost said plainly."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from client.columns import width
from client.sheet import sheet_rows
from client.tui.barbu_screen import TABLE_WIDTH, BarbuScreen, hand_line, side_lines, table_lines
from client.tui.cards import card_fragment, card_label, sort_hand
from client.tui.events import event_text
from client.tui.help import HELP, PAGE_LINES, PAGES, help_hints
from client.tui.model import Model, SolitaireModel, TableModel
from client.tui.solitaire_screen import (
    SolitaireRoom,
    SolitaireScreen,
    pile_rows,
    solitaire_lines,
    status_text,
)
from engine.barbu import Match, action_from_wire, make_policy
from engine.cards import SEATS
from engine.solitaire import GAMES, new_game


def text(fragments: StyleAndTextTuples) -> str:
    """Formatted text as plain text."""
    return fragment_list_to_text(fragments)


def seated(match: Match, seat: int) -> TableModel:
    """A table model holding ``seat``'s view of ``match``."""
    table = TableModel(room="1", name="t", seat=SEATS[seat], state="playing")
    table.players = {s: f"p{s}" for s in SEATS}
    table.set_view(match.view(seat), 0)
    return table


def act(match: Match, wire: dict[str, Any]) -> None:
    """Apply a wire action for the seat to move."""
    seat = match.to_move
    assert seat is not None
    match.apply(seat, action_from_wire(wire))


def play_out_hand(match: Match) -> None:
    """Let bots play until the current hand is scored."""
    number = match.hand_number
    bots = [make_policy("heuristic", s) for s in range(4)]
    while match.hand_number == number and match.to_move is not None:
        seat = match.to_move
        match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))


def test_contract_menu_offers_only_the_contracts_left() -> None:
    match = Match.new(7)
    declarer = match.to_move
    assert declarer is not None
    screen = BarbuScreen()
    labels = [c.label for c in screen.choices(seated(match, declarer))]
    assert len(labels) == 7
    act(match, {"action": "contract", "contract": "no-tricks"})
    play_out_hand(match)
    assert match.to_move == declarer and match.phase == "contract"
    table = seated(match, declarer)
    labels = [c.label for c in BarbuScreen().choices(table)]
    assert len(labels) == 6 and not any("No Tricks" in label for label in labels)
    assert "you choose the contract" in text(table_lines(table))


def test_dominoes_asks_the_rank_then_shows_four_rows() -> None:
    match = Match.new(11)
    declarer = match.to_move
    assert declarer is not None
    table = seated(match, declarer)
    screen = BarbuScreen()
    screen.menu = [c.stage for c in screen.choices(table)].index("rank")
    assert screen.confirm(table) == (None, "") and screen.stage == "rank"
    ranks = [c.action for c in screen.choices(table)]
    assert len(ranks) == 13
    screen.menu = 4
    action, _ = screen.confirm(table)
    assert action == {"action": "contract", "contract": "dominoes", "start_rank": "6"}
    act(match, action)
    while match.phase != "play":
        act(match, match.view(match.to_move)["legal"][0])
    act(match, match.view(match.to_move)["legal"][0])
    drawn = text(table_lines(seated(match, declarer))).splitlines()
    assert "Dominoes from 6" in drawn[0]
    rows = [line for line in drawn if line.strip()[:1] in "♠♥♣♦" and line.strip()]
    assert len(rows) == 4
    assert any(" 6" in row for row in rows)
    other = next(s for s in SEATS if s != table.seat)
    played = event_text({"event": "card-played", "seat": other, "card": "6H"}, table)
    assert played == f"{other} p{other} played {card_label('6H')}."
    assert event_text({"event": "passed", "seat": table.seat}, table) == "You passed (no card to play)."


def test_doubling_dialog_ticks_and_sends() -> None:
    match = Match.new(5)
    act(match, {"action": "contract", "contract": "no-queens"})
    seat = match.to_move
    assert seat is not None
    table = seated(match, seat)
    screen = BarbuScreen()
    drawn = text(side_lines(table, screen))
    assert "Double whom?" in drawn and "You owe" in drawn
    assert "Space ticks, Enter sends." in drawn
    assert max(len(line) for line in drawn.splitlines()) <= 80 - TABLE_WIDTH - 2  # the side panel at 80
    targets = screen.targets(table)
    assert len(targets) == 3
    screen.toggle(table)
    action, _ = screen.confirm(table)
    assert action == {"action": "double", "targets": [targets[0]]}


def test_hand_sorted_by_suit_in_colour_with_playable_marked() -> None:
    assert sort_hand(["2C", "AS", "KH", "3D", "QS"]) == ["AS", "QS", "KH", "2C", "3D"]
    assert card_fragment("QH")[0] == "class:red" and card_fragment("QS")[0] == "class:black"
    assert card_fragment("TD")[1] == "10♦"
    match = Match.new(2)
    act(match, {"action": "contract", "contract": "no-tricks"})
    while match.phase != "play":
        act(match, match.view(match.to_move)["legal"][0])
    act(match, match.view(match.to_move)["legal"][0])
    seat = match.to_move
    assert seat is not None
    table = seated(match, seat)
    fragments = hand_line(table, BarbuScreen())
    styles = [style for style, _, *_ in fragments if "class:red" in style or "class:black" in style]
    assert len(styles) == 13
    playable = {a["card"] for a in match.view(seat)["legal"]}
    assert sum("playable" in s for s in styles) == len(playable)
    assert sum("dim" in s for s in styles) == 13 - len(playable)


def test_score_sheet_fits_80_columns_with_doubles() -> None:
    match = Match.new(9)
    act(match, {"action": "contract", "contract": "barbu"})
    for _ in range(3):
        legal = match.view(match.to_move)["legal"]
        act(match, legal[-1])
    play_out_hand(match)
    history = match.view(0)["history"]
    header, rows = sheet_rows(history, {s: "a-long-player-name" for s in SEATS})
    assert all(len(line) <= 80 for line in header + rows)
    assert "<" in rows[0] and "Barbu" in rows[0] and "Totals" in rows[-1]


def test_help_fits_the_screen() -> None:
    for page in PAGES:
        lines = page.splitlines()
        assert len(lines) <= PAGE_LINES and all(width(line) <= 80 for line in lines), lines[0]
    assert all(width(help_hints(i)) <= 80 for i in range(len(PAGES)))
    assert PAGES[0] == HELP


def test_help_has_a_page_per_contract_doubling_and_the_worked_settlement() -> None:
    titles = [page.splitlines()[0] for page in PAGES]
    for name in ("No Tricks", "No Queens", "No Last Two", "No Hearts", "Barbu (", "Trumps", "Dominoes"):
        assert sum(title.startswith(name) for title in titles) == 1, name
    assert any(title.startswith("Doubling") for title in titles)
    # The pages are docs/rules/barbu.md's own words (client/tui/rules_text.py), its worked example included.
    settlement = " ".join(next(page for page in PAGES if page.startswith("Settling doubles")).split())
    for figure in ("N −8, E −6, S −10, W −2", "E +4, N −4", "W +8, S −8", "N −12, E −2, S −18, W +6"):
        assert figure in settlement


def dealt(game: str, seed: int) -> SolitaireRoom:
    """A solitaire room as the screen sees it, its view that of a fresh deal (nothing is sent)."""
    deal = new_game(game, seed=seed)
    view = {"title": GAMES[game].title, "layout": deal.state(), "legal": deal.legal_moves(), "result": None}
    model = Model("ws://test")
    model.solitaire = SolitaireModel(room="1", seat="player", seq=0, view=view)
    return SolitaireRoom(model, lambda kind, move: None)


def test_solitaire_layouts_and_outcome_words() -> None:
    room = dealt("forty-thieves", 1)
    screen = SolitaireScreen(room)
    drawn = text(solitaire_lines(screen, 20))
    assert "t10" in drawn and "Stock 64" in drawn
    assert all(len(line) <= 80 for line in drawn.splitlines())
    state = room.state()
    assert "you won" in status_text({**state, "won": True, "over": True}, "Forty Thieves")[1]
    assert "lost" in status_text({**state, "over": True}, "Forty Thieves")[1]
    pyramid = dealt("pyramid", 1)
    rows = pile_rows(pyramid.state())
    assert rows[0] == ["p1.1"] and rows[-1][0] == "s" and len(rows) == 8
    assert len(text(solitaire_lines(SolitaireScreen(pyramid), 20)).splitlines()) <= 20


def test_the_log_shows_each_message_once_and_the_notice_apart() -> None:
    model = Model("ws://x")
    model.say("Welcome, ann. Press ? for the keys.")
    model.note("bob says: hi")
    assert model.earlier() == ["bob says: hi"]  # the notice line shows the welcome: not repeated above
    model.say("W bob played 5♥.")
    assert model.earlier() == ["Welcome, ann. Press ? for the keys.", "bob says: hi"]
    model.say("")
    assert model.earlier()[-1] == "W bob played 5♥."


def test_a_hint_says_what_it_is_worth_and_offers_undo_when_lost() -> None:
    room = dealt("forty-thieves", 1)
    screen = SolitaireScreen(room)
    screen.hinted("t3>t5", "sure")
    assert (
        screen.message.startswith("Hint: column 3 → column 5 (Enter) - a sure win")
        and screen.cursor() == "t3"
    )
    screen.hinted("t7>t2", "guess")
    assert screen.message.startswith("No sure win found; a reasonable move: column 7 → column 2")
    assert screen.hint == "t7>t2"
    screen.hinted(None, "lost")  # no move made yet: the deal itself is lost
    start = "This deal cannot be won, from the start: no move of yours lost it."
    assert screen.message == f"{start} x: resign, n: new deal."
    room.view["can_undo"] = True
    room.view["layout"] = {**room.view["layout"], "moves": 3}
    screen.hinted(None, "lost", from_start=True)  # moves made, but they did not lose it: no undo offered
    assert screen.message == f"{start} x: resign, n: new deal."
    screen.hinted(None, "lost", undo=2)
    assert screen.message == (
        "Your moves lost this game: undo 2 moves to get back to a position that can be won."
        " u: undo, x: resign, n: new deal."
    )
    screen.hinted(None, "lost")  # the solver could not tell how far back
    assert screen.message == "This game can no longer be won from here. u: undo, x: resign, n: new deal."
    assert screen.hint is None
    screen.hinted(None, "none")
    assert screen.message.startswith(
        "No new move left: every move left goes back to an earlier position, puts"
    )
    assert "into a lost one. u: undo" in screen.message

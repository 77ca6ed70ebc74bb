"""The terminal client's Barbu table, chat and lobby drawn from real engine views (no network, no timing):
the last trick cleared at the deal, the finished trick kept with its leader marked, the end-of-hand summary
with each settlement, the match's end with the winner said plainly, refusals naming the rule, doubles and
redoubles by seats, when the player declares, one notation, the grace countdown, chat wrapped in the panel,
notices about seats and watchers, the lobby's names whole when they fit, old notices cleared, the games
list's keys and options in 80x21, and a watcher never told "you won"."""

from __future__ import annotations

import time
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from client.columns import width
from client.sheet import contract_label
from client.tui.barbu_screen import (
    TABLE_WIDTH,
    BarbuScreen,
    away_lines,
    away_mark,
    declare_text,
    match_end_lines,
    settlement_lines,
    side_lines,
    table_lines,
)
from client.tui.events import event_text
from client.tui.lobby_screen import (
    GAMES_KEYS,
    LobbyScreen,
    games_lines,
    listed_rooms,
    lobby_columns,
    lobby_lines,
    room_seats,
)
from client.tui.model import Model, TableModel
from client.tui.refusals import refusal_text
from client.tui.session import seat_notices
from client.tui.solitaire_screen import deal_text, status_text
from engine.barbu import Match, make_policy
from engine.cards import SEATS
from engine.solitaire import GAMES
from protocol import Players


def text(fragments: StyleAndTextTuples) -> str:
    """Formatted text as plain text."""
    return fragment_list_to_text(fragments)


def seated(match: Match, seat: int, table: TableModel | None = None) -> TableModel:
    """A table model (a new one, or ``table``) holding ``seat``'s view of ``match``."""
    table = table or TableModel(room="1", name="t", seat=SEATS[seat], state="playing")
    table.players = {s: f"p{s}" for s in SEATS}
    table.set_view(match.view(seat), table.seq + 1)
    return table


def step(match: Match, bots: list[Any]) -> None:
    """One action by a bot for the seat to move."""
    seat = match.to_move
    assert seat is not None
    match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))


def to_first_trick_won(match: Match, bots: list[Any]) -> None:
    """Play until the first trick of the hand is complete (a trick contract is chosen by the bot)."""
    while not match.view(0)["tricks"] or match.view(0)["trick"]["cards"]:
        if match.view(0)["rows"]:  # Dominoes has no tricks: deal the next hand
            number = match.hand_number
            while match.hand_number == number:
                step(match, bots)
            continue
        step(match, bots)


def test_the_finished_trick_stays_with_its_leader_marked_and_a_new_hand_clears_it() -> None:
    match = Match.new(21)
    bots = [make_policy("heuristic", s) for s in range(4)]
    to_first_trick_won(match, bots)
    table = seated(match, 0)
    trick = match.view(0)["tricks"][-1]
    drawn = text(table_lines(table))
    assert f"won by {'you' if trick['winner'] == 'N' else trick['winner'] + ' p' + trick['winner']}" in drawn
    assert f"▸{trick['leader']} " in drawn  # the leader of the trick on the table
    assert "Last trick, won by" in text(side_lines(table, BarbuScreen()))
    step(match, bots)  # the next card: the finished trick leaves the table
    seated(match, 0, table)
    assert table.shown_trick() is None and "won by" not in text(table_lines(table))
    number = match.hand_number
    while match.hand_number == number:
        step(match, bots)
    seated(match, 0, table)  # the deal of the next hand
    assert table.last_trick is None and "No trick yet." in text(side_lines(table, BarbuScreen()))


def test_settlements_of_the_worked_example() -> None:
    row = {
        "doubles": [["E", "N"], ["W", "S"]],
        "redoubles": [["N", "E"]],
        "contract_scores": {"N": -8, "E": -6, "S": -10, "W": -2},
    }
    assert settlement_lines(row) == [
        "E doubled N, N redoubled (stakes x2): E +4, N -4",
        "W doubled S: W +8, S -8",
    ]
    mutual = {"doubles": [["E", "N"], ["N", "E"]], "redoubles": [], "contract_scores": {"N": -2, "E": 0}}
    assert settlement_lines(mutual) == ["E and N doubled each other (stakes x2): E +4, N -4"]
    assert settlement_lines(row, compact=True) == ["N/E x2: E +4", "S/W: W +8"]


def test_the_end_of_hand_summary_until_a_key_or_the_next_card() -> None:
    match = Match.new(8)
    bots = [make_policy("heuristic", s) for s in range(4)]
    table = seated(match, 0)
    while match.hand_number == 1:
        step(match, bots)
    scored = next(e for e in match.view(0)["history"] if e["hand_number"] == 1)
    event = {"event": "hand-scored", **scored, "totals": match.view(0)["totals"]}
    assert "Hand 1 scored" in event_text(event, table)
    seated(match, 0, table)
    assert table.showing_summary()
    drawn = text(table_lines(table))
    assert "Hand 1 scored" in drawn and "contract" in drawn and "Any key" in drawn
    assert all(width(line) <= TABLE_WIDTH for line in drawn.splitlines())
    assert len(drawn.splitlines()) <= 13
    assert ("Settlements:" in drawn) == bool(scored["doubles"])
    table.summary_seen = True  # a key was pressed
    assert not table.showing_summary() and "Hand 2/28" in text(table_lines(table))
    table.summary_seen = False
    while not match.view(0)["trick"]["cards"] and not any(match.view(0)["rows"].values()):
        step(match, bots)  # the next hand's first card
    seated(match, 0, table)
    assert not table.showing_summary()


def test_the_match_end_names_the_winner_and_offers_the_host_another_match() -> None:
    match = Match.new(4)
    bots = [make_policy("random", s) for s in range(4)]
    while match.to_move is not None:
        step(match, bots)
    ranking = match.view(0)["ranking"]
    table = seated(match, SEATS.index(ranking[0][0]))
    table.host = table.me = "ann"
    drawn = text(table_lines(table))
    totals = match.view(0)["totals"]
    assert "the final ranking" in drawn and f"You won with {totals[ranking[0][0]]} points." in drawn
    assert "r: another match with the same players" in drawn
    table.me = "bob"
    assert "The host, ann, may start another match." in text(match_end_lines(table))
    text_out = event_text({"event": "match-over", "totals": totals, "ranking": ranking}, table)
    assert "you won with" in text_out
    assert all(width(line) <= TABLE_WIDTH for line in drawn.splitlines())


def test_refusals_say_the_rule() -> None:
    view = {"trick": {"leader": "E", "cards": ["5D"]}, "trump": "H", "declarer": "N"}
    assert "must follow suit ♦" in refusal_text(
        "must-follow-suit", "must follow suit D", view, {"card": "KS"}
    )
    assert refusal_text("hearts-lead", "x", view, {}).startswith("Hearts may not be led")
    assert refusal_text("not-in-hand", "x", view, {"card": "7C"}) == "You do not hold 7♣."
    assert "trump ♥" in refusal_text("must-ruff", "x", view, {"card": "2S"})
    assert refusal_text("something-new", "a new rule", view, {}) == "A new rule."


def test_doubles_by_seats_declined_redoubles_and_grammar() -> None:
    table = TableModel(room="1", seat="N", players={s: f"p{s}" for s in SEATS})
    assert event_text({"event": "doubled", "seat": "E", "targets": ["N"]}, table) == "E pE doubled you."
    assert event_text({"event": "doubled", "seat": "N", "targets": ["E", "W"]}, table) == (
        "You doubled E pE and W pW."
    )
    assert event_text({"event": "redoubled", "seat": "N", "targets": ["W"]}, table) == "You redoubled W pW."
    assert (
        event_text({"event": "redoubled", "seat": "S", "targets": []}, table) == "S pS declined to redouble."
    )
    assert event_text({"event": "player-out", "seat": "N", "place": 2}, table) == "You are out (place 2)."
    assert event_text({"event": "player-out", "seat": "W", "place": 1}, table) == "W pW is out (place 1)."
    assert event_text({"event": "player-out", "seat": "E", "place": 4}, table) == "E pE is last (place 4)."


def test_one_notation_suit_symbols_and_tens() -> None:
    assert contract_label({"contract": "trumps", "trump": "S"}) == "Trumps ♠"
    assert contract_label({"contract": "dominoes", "start_rank": "T"}) == "Dominoes from 10"
    table = TableModel(room="1", seat="N")
    chosen = {"event": "contract-chosen", "declarer": "N", "contract": "trumps", "trump": "D"}
    assert event_text(chosen, table) == "You chose Trumps ♦."


def test_when_the_player_declares() -> None:
    view = {"hand_number": 1, "declarer": "N", "phase": "contract", "variants": {}}
    assert declare_text(view, "W") == "You declare hands 22–28."
    assert declare_text(view, "E") == "You declare hands 8–14."
    assert declare_text(view, "N") == ""
    assert declare_text({**view, "hand_number": 15, "declarer": "S"}, "N") == "You declared hands 1–7."
    each = {**view, "variants": {"rotation": "each-hand"}, "hand_number": 5}
    assert declare_text(each, "S") == "You declare every 4th hand, next: hand 7."
    table = TableModel(room="1", seat="W", view={**view, "contract_scores": {}, "totals": {}})
    assert "You declare hands 22–28." in text(side_lines(table, BarbuScreen()))


def test_a_dropped_seat_counts_down_to_its_standin() -> None:
    table = TableModel(room="1", seat="N", state="playing", players={s: f"p{s}" for s in SEATS})
    table.spectators_known = True  # a players push came after joining: a new watcher is news
    push = Players(
        room="1",
        state="playing",
        players=table.players,
        away=["E"],
        standin_in={"E": 42.0},
        spectators=["cy"],
    )
    notices = seat_notices(table, push, "pN")
    assert "E pE dropped: a bot plays for them in 42 s." in notices and "cy is watching." in notices
    table.take_players(push)
    assert away_mark(table, "E") == " (away)"  # the name kept beside it; the countdown in the panel
    assert away_lines(table) == ["42 s: a bot takes E pE (away)"]
    assert "42 s: a bot takes E pE (away)" in text(side_lines(table, BarbuScreen()))
    table.standin_at = {"E": time.monotonic() + 3592}
    assert away_lines(table) == ["59 min: a bot takes E pE (away)"]
    table.view, table.turn_ends = {"to_move": "E", "phase": "play"}, time.monotonic() + 11.5
    assert away_lines(table) == ["12 s: the timer plays E pE (away)"]  # it comes first
    table.turn_time = 15
    again = seat_notices(
        TableModel(room="1", seat="N", state="playing", players=table.players, turn_time=15), push, "pN"
    )
    assert (
        "E pE dropped: a bot plays for them in 42 s (meanwhile the 15 s turn timer plays their turns)."
        in again
    )
    table.view = table.turn_ends = None
    table.standin_at = {"E": time.monotonic() - 1}
    assert away_lines(table) == ["0 s: a bot takes E pE (away)"]
    later = Players(room="1", state="playing", players=table.players, away=["E"], standins=["E"])
    assert seat_notices(table, later, "pN") == ["A bot plays for E pE now."]
    table.take_players(later)
    assert away_mark(table, "E") == " (bot)"
    joined = Players(room="1", state="waiting", players={**table.players, "W": None}, away=[])
    table.players = {**table.players, "W": None}
    back = Players(room="1", state="waiting", players={**table.players, "W": "bob"}, away=[])
    assert seat_notices(table, back, "pN") == ["bob joined (seat W)."] and joined.standins == []


def test_a_dropped_seat_at_a_waiting_table_counts_down_to_its_freeing() -> None:
    table = TableModel(
        room="1", seat="E", state="waiting", players={"N": "ann", "E": "pE", "S": None, "W": None}
    )
    push = Players(room="1", state="waiting", players=table.players, away=["N"], freed_in={"N": 42.0})
    assert seat_notices(table, push, "pE") == ["N ann dropped: their seat is kept for 42 s."]
    table.take_players(push)
    assert away_mark(table, "N") == " (away)"
    assert away_lines(table) == ["42 s: seat kept for N ann (away)"]
    assert "42 s: seat kept for N ann (away)" in text(side_lines(table, BarbuScreen()))
    back = Players(room="1", state="waiting", players=table.players, away=[])
    assert seat_notices(table, back, "pE") == ["N ann is back."]
    freed = Players(room="1", state="waiting", players={**table.players, "N": None}, away=[])
    assert seat_notices(table, freed, "pE") == ["ann left seat N."]
    table.take_players(freed)
    assert away_lines(table) == [] and away_mark(table, "N") == ""
    # A kept seat of a rematch whose player has not come yet is away, but nobody dropped.
    kept = TableModel(room="2", seat="E", state="waiting", players=table.players, away=["N"])
    assert seat_notices(kept, Players(room="2", state="waiting", players=kept.players, away=[]), "pE") == []


def test_chat_wraps_in_the_panel_whole() -> None:
    table = TableModel(room="1", seat="N")
    said = "bob: " + " ".join(f"word{i}" for i in range(40))
    table.chat.append(said)
    panel = text(side_lines(table, BarbuScreen(), 34, 30)).splitlines()
    chat = panel[panel.index("Chat (c to talk)") + 1 :]
    assert all(width(line) <= 34 for line in chat) and " ".join(chat) == said
    wide = text(side_lines(table, BarbuScreen(), 70, 30)).splitlines()
    assert len(wide) < len(panel)  # a wider terminal: longer lines


def test_lobby_names_whole_when_they_fit_and_old_notices_clear() -> None:
    room = {"kind": "barbu", "players": {"N": "charlotte", "E": "bot:heuristic", "S": "alexander", "W": None}}
    assert room_seats(room) == "N:charlotte E:bot S:alexander W:-"
    model = Model("ws://x")
    model.say("Table 't' is open: add bots (b, f) or wait for friends.")
    model.screen_changed()  # the screen it was said for
    assert model.notice.startswith("Table")
    model.screen_changed()  # and the next one: it goes (the log keeps it)
    assert model.notice == "" and model.earlier()[-1].startswith("Table")


def test_games_list_shows_its_keys_options_and_fits_80_by_21() -> None:
    model = Model("ws://x")
    model.daily = [
        {
            "game": "pyramid",
            "title": "Pyramid",
            "day": "2026-12-01",
            "seed": None,
            "results": [{"player": "alice", "room": "3", "won": True, "score": 28, "moves": 40}],
        }
    ]
    screen = LobbyScreen(picking=True)
    for game in range(len(GAMES)):
        screen.game = game
        lines = text(games_lines(screen, model)).splitlines()
        assert lines[0] == GAMES_KEYS and len(lines) <= 21, (game, len(lines))
        assert all(width(line) <= 80 for line in lines)
        assert any("seed=N" in line for line in lines)
    screen.game = list(GAMES).index("pyramid")
    drawn = text(games_lines(screen, model))
    assert "draw=1|3" in drawn and "1. alice" in drawn and "40 moves" in drawn


def test_a_watcher_is_never_told_you_won() -> None:
    state = {"won": True, "over": True, "moves": 95}
    assert "you won" not in status_text(state, "Pyramid", "won", watched="alice")[1]
    assert "alice won in 95 moves" in status_text(state, "Pyramid", "won", watched="alice")[1]
    assert "you won" in status_text(state, "Pyramid", "won")[1]
    view = {"game": "pyramid", "options": {"draw": 3, "redeals": 0}, "seed": 12, "daily": None}
    assert deal_text(view) == "seed 12, draw=3"


def test_every_key_hint_line_fits_80_columns() -> None:
    from client.tui.app import KEY_HINTS

    assert all(width(hint) <= 80 for hint in KEY_HINTS.values()), KEY_HINTS


def test_questions_are_not_kept_in_the_log_and_wide_lobbies_show_long_names() -> None:
    model = Model("ws://x")
    model.ask("Give your seat to a bot? (y: yes, any other key: no)")
    assert model.notice.startswith("Give") and model.earlier() == []
    seated = {"N": "charlotte", "E": "alexander", "S": "maximilian", "W": "bot:heuristic"}  # the seats' room
    model.rooms = [{"room": "1", "kind": "barbu", "name": "a" * 40, "state": "waiting", "players": seated}]
    assert "a" * 40 in text(lobby_lines(model, LobbyScreen(), 120))
    narrow = text(lobby_lines(model, LobbyScreen(), 80)).splitlines()
    assert all(width(line) <= 80 for line in narrow) and "…" in narrow[3]


def test_lobby_table_names_take_the_room_the_seats_leave() -> None:
    model = Model("ws://x")
    name = "the long friday evening table"  # 29 columns: cut at 22 before
    model.rooms = [
        {"room": "1", "kind": "barbu", "name": name, "state": "waiting", "players": {"N": "ann"}},
        {
            "room": "2",
            "kind": "solitaire",
            "name": "Pyramid (ann)",
            "players": {"player": "ann"},
            "daily": "x",
        },
    ]
    lines = text(lobby_lines(model, LobbyScreen(), 80)).splitlines()
    assert all(width(line) <= 80 for line in lines)
    assert f"  {name} waiting    N:ann E:- S:- W:-" in lines[3] and "ann plays the day's deal" in lines[4]
    assert lines[2].index("state") == lines[3].index("waiting") and lines[2].index("seats") == lines[3].index(
        "N:"
    )
    assert lobby_columns(listed_rooms(model.rooms), 80) == (29, 32)
    # Four long seat names keep the seats column readable (39 at 80 columns); the name is cut, as before.
    model.rooms[0]["players"] = {"N": "charlotte", "E": "alexander", "S": "maximilian", "W": "bot:heuristic"}
    lines = text(lobby_lines(model, LobbyScreen(), 80)).splitlines()
    assert lobby_columns(listed_rooms(model.rooms), 80) == (22, 39) and "the long f…" in lines[3]
    assert "N:cha" in lines[3] and "S:maxi" in lines[3] and all(width(line) <= 80 for line in lines)


def test_watching_ones_own_seat_still_says_you() -> None:
    table = TableModel(room="1", seat=None, players={s: f"p{s}" for s in SEATS}, me="pS")
    assert event_text({"event": "card-played", "seat": "S", "card": "TH"}, table) == "You played 10♥."
    assert event_text({"event": "card-played", "seat": "N", "card": "TH"}, table) == "N pN played 10♥."


def test_the_summary_stays_through_the_next_contract_and_doubles_until_a_card() -> None:
    match = Match.new(8)
    bots = [make_policy("heuristic", s) for s in range(4)]
    table = seated(match, 0)
    while match.hand_number == 1:
        step(match, bots)
    scored = next(e for e in match.view(0)["history"] if e["hand_number"] == 1)
    event_text({"event": "hand-scored", **scored, "totals": match.view(0)["totals"]}, table)
    seated(match, 0, table)
    assert table.showing_summary()  # the new hand is dealt, no contract yet: the summary is up
    while match.view(0)["phase"] != "play":  # the contract, then every double (a bot or this seat's)
        step(match, bots)
        seated(match, 0, table)
        assert table.showing_summary(), match.view(0)["phase"]
        if table.my_turn:  # this seat's decision shows beside it
            assert "Hand 1 scored" in text(table_lines(table))
    while not match.view(0)["trick"]["cards"] and not any(match.view(0)["rows"].values()):
        step(match, bots)  # the first card
    seated(match, 0, table)
    assert not table.showing_summary()
    while match.hand_number == 2 and not match.view(0)["tricks"] and not match.view(0)["rows"]:
        step(match, bots)  # between tricks of the next hand, nobody having pressed a key
    seated(match, 0, table)
    assert not table.showing_summary()  # gone for good
    table.summary_seen = False
    event_text({"event": "card-played", "seat": "E", "card": "2C"}, table)  # a watcher's next card
    assert table.summary_seen


def test_a_typed_card_refused_by_the_rule_it_breaks() -> None:
    from client.tui.refusals import typed_card_refusal

    view: dict[str, Any] = {
        "seat": "S",
        "phase": "play",
        "hand": ["KS", "TH", "2H", "5C"],
        "trick": {"leader": "W", "cards": ["3H"]},
        "rows": {},
        "legal": [{"action": "play", "card": "TH"}, {"action": "play", "card": "2H"}],
    }
    assert typed_card_refusal("ks", view) == "You must follow suit ♥."
    assert typed_card_refusal("qd", view) == "You do not hold Q♦."
    assert typed_card_refusal("xx", view) == "xx is not a card: type e.g. qs or 10h."
    lead = {**view, "trick": {"leader": "S", "cards": []}, "legal": [{"action": "play", "card": "KS"}]}
    assert typed_card_refusal("10h", lead).startswith("Hearts may not be led")
    assert typed_card_refusal("10h", {**lead, "phase": "contract", "legal": []}) == (
        "10♥ is not a card you can play now."
    )


def test_a_typed_card_refused_by_the_duty_to_trump_names_it() -> None:
    """Trumps ♠, E led 5♦, no diamond held: a club is refused by the duty to ruff, a low trump under the
    overtrump variant by the duty to beat the trumps played (the rule ids ``engine/barbu/hand.py`` raises)."""
    from client.tui.refusals import trick_rule, typed_card_refusal

    view: dict[str, Any] = {
        "seat": "S",
        "phase": "play",
        "contract": "trumps",
        "trump": "S",
        "hand": ["6C", "4S", "QS", "2H"],
        "trick": {"leader": "E", "cards": ["5D"]},
        "rows": {},
        "legal": [{"action": "play", "card": "4S"}, {"action": "play", "card": "QS"}],
    }
    assert trick_rule("6C", view) == "must-ruff"
    assert typed_card_refusal("6c", view) == "You cannot follow suit ♦: you must play a trump ♠."
    over = {
        **view,
        "variants": {"trump-duty": "overtrump"},
        "trick": {"leader": "E", "cards": ["5D", "9S"]},
        "legal": [{"action": "play", "card": "QS"}],
    }
    assert trick_rule("4S", over) == "must-overtrump" and trick_rule("6C", over) == "must-ruff"
    assert typed_card_refusal("4s", over) == "You must play a trump ♠ higher than those in the trick."
    led = {**over, "hand": ["4S", "KS", "6C"], "trick": {"leader": "E", "cards": ["9S"]}}
    led["legal"] = [{"action": "play", "card": "KS"}]
    assert trick_rule("4S", led) == "must-overtrump" and trick_rule("6C", led) == "must-follow-suit"
    assert trick_rule("QS", view) is None and trick_rule("QS", {**view, "legal": []}) is None

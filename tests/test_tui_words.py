"""The terminal client's screens drawn from real engine views (no network, no timing), for what a second
newcomer met: the last hand's summary before the match's end, the rule named when K♥ is led in Barbu, one
notation and the singular ("1 card"), chat read whole, the lobby's solitaire rooms and their marks, the key
line of each state, and a table that grows with the terminal."""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from client.tui.barbu_screen import table_lines
from client.tui.events import event_text
from client.tui.lobby_screen import GAMES_KEYS
from client.tui.model import TableModel
from client.tui.refusals import refusal_text, typed_card_refusal
from engine.barbu import IllegalAction, Match, action_from_wire, make_policy
from engine.cards import SEATS
from tests.test_tui_table import seated, step


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
    row = next(line for line in doc.splitlines() if line.startswith("| solitaire games |"))
    keys = [k for k in GAMES_KEYS.split(":", 1)[1].split("  ") if k.strip()]
    assert len(keys) >= 5
    for key in keys:
        first = key.split()[0]
        assert (f"`{first}`" if len(first) == 1 else first) in row, key

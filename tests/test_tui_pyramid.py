"""Pyramid in the terminal client's words: a removal, a hint and a refusal name their cards (suit symbols,
``10`` for tens, where each lay: ``6♠ (row 7)``, ``5♠ from the waste``), Enter on a covered card is refused
at once without starting a move, ``f`` (remove alone) says why a card is not removed in the same words (and
never turns a stock), and the rules card names rows, wastes and the stock as the screen does; on engine
positions, then by keys against a real server."""

from __future__ import annotations

import re
from typing import Any

from client.tui.cards import card_label
from client.tui.model import Model, SolitaireModel
from client.tui.solitaire_screen import SolitaireRoom, SolitaireScreen
from client.tui.solitaire_words import covered_text, hint_words, moved_text, refusal_words
from engine.solitaire import GAMES, new_game
from server import BarbuServer
from tests.conftest import until
from tests.test_tui import DOWN, ENTER, on_screen, opened_solitaire, running_tui, screen_lines


def pyramid_screen(seed: int) -> tuple[dict[str, Any], list[str], SolitaireScreen]:
    """The Pyramid deal ``seed`` on a screen of its own, with no server: the deal's state, the list that keeps
    what the screen would send (``"move p7.1"``), and the screen."""
    deal = new_game("pyramid", seed=seed)
    state = deal.state()
    sent: list[str] = []
    model = Model("ws://test")
    view = {"title": "Pyramid", "layout": state, "legal": deal.legal_moves(), "result": None}
    model.solitaire = SolitaireModel(room="1", seat="player", seq=0, view=view)
    return (
        state,
        sent,
        SolitaireScreen(SolitaireRoom(model, lambda kind, move: sent.append(f"{kind} {move}"))),
    )


def at(state: dict[str, Any], pile: str) -> str:
    """The card of pyramid pile ``p7.4`` in ``state``, as the screen writes it (``6♠``, ``10♥``)."""
    row, index = (int(n) for n in pile[1:].split("."))
    return card_label(state["pyramid"][row - 1][index - 1])


def test_pyramid_moves_and_hints_name_their_cards() -> None:
    state = {
        "pyramid": [[None] * r for r in range(1, 7)] + [["6S", "7H", "KC", "TD", None, None, None]],
        "waste": ["2C", "3S"],
        "stock": 10,
    }
    assert moved_text("p7.1+p7.2", state) == "Removed 6♠ (row 7) and 7♥ (row 7)."
    assert moved_text("p7.3", state) == "Removed K♣ (row 7)."
    assert moved_text("p7.4+w", state) == "Removed 10♦ (row 7) and 3♠ from the waste."
    assert hint_words("sure", "p7.4+w", state).startswith(
        "Hint: remove 10♦ (row 7) and 3♠ from the waste (Enter)"
    )
    three = {**state, "waste": [["QD"], [], ["AH"]]}
    assert moved_text("w1+w3", three) == "Removed Q♦ from waste 1 and A♥ from waste 3."
    assert refusal_words("p7.1+p7.4: 6S and TD total 16, not 13 (not-thirteen)", state) == (
        "Not allowed: remove 6♠ (row 7) and 10♦ (row 7): 6♠ and 10♦ total 16, not 13."
    )
    assert moved_text("p7.1+p7.2") == "Removed: row 7, card 1 with row 7, card 2."  # no position: places


def test_a_covered_pyramid_card_is_refused_at_once() -> None:
    state, sent, screen = pyramid_screen(3)
    screen.place("p6.2")
    screen.select()
    assert screen.message == (
        f"That card is covered: {at(state, 'p7.2')} (row 7) and {at(state, 'p7.3')} (row 7) lie on "
        f"{at(state, 'p6.2')} (row 6); only uncovered cards are removed."
    )
    assert screen.source is None and sent == []  # no move started, nothing sent
    assert covered_text(state, "p7.2") == "" and covered_text(state, "w") == ""
    screen.place("p7.2")
    screen.select()
    assert screen.source == "p7.2" and screen.message.startswith(f"From {at(state, 'p7.2')} (row 7):")
    screen.place("p1.1")
    screen.select()  # a covered target: refused the same way, the move dropped
    assert screen.message.startswith("That card is covered:") and screen.source is None and sent == []


async def test_a_pyramid_removal_by_keys_names_its_cards(server: BarbuServer) -> None:
    seed = next(s for s in range(100) if any("+p" in m for m in new_game("pyramid", seed=s).legal_moves()))
    async with running_tui(server.url, "pia") as (tui, pipe):
        screen = await opened_solitaire(tui, "pyramid", seed=seed)
        await until(lambda: bool(screen.room.legal()), "the deal")
        state = screen.room.state()
        screen.place("p1.1")
        pipe.send_text(ENTER)
        await until(lambda: on_screen(tui, f"That card is covered: {at(state, 'p2.1')} (row 2)"), "refused")
        assert screen.source is None
        first, second = next(m for m in screen.room.legal() if "+p" in m).split("+")
        screen.place(first)
        pipe.send_text(ENTER)
        await until(lambda: screen.source == first, "the first card chosen")
        screen.place(second)
        pipe.send_text(ENTER)
        said = f"Removed {at(state, first)} (row {first[1]}) and {at(state, second)} (row {second[1]})."
        await until(lambda: screen.room.state()["removed"] == 2 and on_screen(tui, said), said)


def test_f_on_a_pyramid_card_says_why_it_is_not_removed() -> None:
    state, sent, screen = pyramid_screen(1)  # K♠ at row 4, card 2 lies under A♣ and 6♣ of row 5
    assert state["pyramid"][3][1] == "KS"
    screen.place("p4.2")
    screen.to_foundation()
    assert screen.message == (
        f"That card is covered: {at(state, 'p5.2')} (row 5) and {at(state, 'p5.3')} (row 5) lie on "
        "K♠ (row 4); only uncovered cards are removed."
    )
    assert screen.message == covered_text(state, "p4.2") and sent == []  # Enter's words, nothing sent
    queen = next(f"p7.{i}" for i, card in enumerate(state["pyramid"][6], start=1) if not card.startswith("K"))
    screen.place(queen)
    screen.to_foundation()
    assert screen.message == (
        f"Not allowed: remove {at(state, queen)} (row 7): only a King is removed alone; "
        "other cards go in pairs totalling 13 (Enter on each)."
    )
    screen.place("s")
    screen.to_foundation()  # the stock face down: f does not turn it (d does)
    assert screen.message.startswith("A card of the stock is removed once turned") and sent == []
    screen.place("p7.1")
    screen.to_foundation()  # an uncovered King: removed alone
    assert sent == ["move p7.1"] and screen.message == "Removed K♣ (row 7)."


async def test_f_on_a_covered_king_by_keys_says_what_covers_it(server: BarbuServer) -> None:
    async with running_tui(server.url, "pia") as (tui, pipe):
        screen = await opened_solitaire(tui, "pyramid", seed=1)
        await until(lambda: bool(screen.room.legal()), "the deal")
        state = screen.room.state()
        screen.place("p4.2")
        pipe.send_text("f")
        said = f"That card is covered: {at(state, 'p5.2')} (row 5) and {at(state, 'p5.3')} (row 5) lie on K♠"
        await until(lambda: on_screen(tui, said), "the covered King refused with what covers it")
        assert screen.room.state()["moves"] == 0


def test_f_on_the_stock_of_another_game_does_not_turn_it() -> None:
    deal = new_game("forty-thieves", seed=1)
    state = deal.state()
    sent: list[str] = []
    model = Model("ws://test")
    view = {"title": "Forty Thieves", "layout": state, "legal": deal.legal_moves(), "result": None}
    model.solitaire = SolitaireModel(room="1", seat="player", seq=0, view=view)
    screen = SolitaireScreen(SolitaireRoom(model, lambda kind, move: sent.append(f"{kind} {move}")))
    assert "s" in deal.legal_moves()
    screen.place("s")
    screen.to_foundation()  # d turns the stock; f only sends a card to a foundation
    assert sent == [] and screen.message == "The top card of the stock cannot go to a foundation."


async def test_the_pyramid_rules_card_names_the_places_the_screen_shows(server: BarbuServer) -> None:
    rules = " ".join(GAMES["pyramid"].rules.split())
    assert not re.search(r"\bp\d", rules)  # no position of the notation: the screen shows none
    async with running_tui(server.url, "pia") as (tui, pipe):
        pipe.send_text("o" + DOWN * list(GAMES).index("pyramid"))
        await until(lambda: on_screen(tui, "row 1 (the top) to row 7 (the bottom)"), "the rules card")
        assert on_screen(tui, "one onto each waste w1 w2 w3")
        assert on_screen(tui, "a card of the row below lies on it; uncovered cards")
        tui.open_solitaire("pyramid", {"draw": 3, "stock-top": True}, seed=1)
        await until(lambda: tui.solitaire is not None and bool(tui.solitaire.room.legal()), "the deal")
        screen = tui.solitaire
        assert screen is not None
        pipe.send_text("d")
        await until(lambda: screen.room.state()["moves"] == 1, "the turn")
        lines = screen_lines(tui)
        top = next(i for i, line in enumerate(lines) if line.strip() == at(screen.room.state(), "p1.1"))
        assert len(lines[top + 6].split()) == 7  # row 1 drawn at the top, one card; row 7 at the bottom
        wastes = next(line for line in lines if line.startswith("Stock"))
        assert all(f"w{k} " in wastes for k in (1, 2, 3))  # the wastes labelled as the card names them
        screen.place("p4.2")
        pipe.send_text(ENTER)  # the screen's words for a covered card are the card's: covered, lies on, row N
        await until(lambda: on_screen(tui, "(row 5) lie on") and on_screen(tui, "(row 4)"), "covered")


def test_a_refusals_reason_names_pyramid_places_by_their_cards() -> None:
    state = new_game("pyramid", seed=1).state()  # row 5: 5♦ A♣ 6♣ 4♥ Q♥, row 6: 9♣ 10♣ 10♥ 3♣ 2♣ A♠
    assert refusal_words("p5.3+p7.1: p5.3 is not exposed: p6.3 still covers it (covered)", state) == (
        "Not allowed: remove 6♣ (row 5) and K♣ (row 7): 6♣ (row 5) is not exposed: 10♥ (row 6) still covers it."
    )
    assert refusal_words(
        "p6.1+p7.1: p6.1 is covered by p7.1: a card never pairs with a card that covers it (covered)", state
    ) == (
        "Not allowed: remove 9♣ (row 6) and K♣ (row 7): 9♣ (row 6) is covered by K♣ (row 7): "
        "a card never pairs with a card that covers it."
    )
    notation = "p9.1: no pile 'p9.1' in Pyramid (piles: p1.1 .. p7.7, w or w1 w2 w3, s) (no-such-pile)"
    assert refusal_words(notation, state).endswith("(piles: p1.1 .. p7.7, w or w1 w2 w3, s).")  # as typed


async def test_a_typed_pyramid_move_refused_names_its_places_by_their_cards(server: BarbuServer) -> None:
    async with running_tui(server.url, "pia") as (tui, pipe):
        tui.open_solitaire("pyramid", seed=1)
        await until(lambda: tui.solitaire is not None and bool(tui.solitaire.room.legal()), "the deal")
        pipe.send_text(":")
        await until(lambda: tui.input_mode == "move", "the move prompt")
        pipe.send_text("p5.3+p7.1" + ENTER)
        said = "6♣ (row 5) is not exposed: 10♥ (row 6) still covers it."
        await until(lambda: on_screen(tui, said), "the refusal in the screen's words")
        assert not on_screen(tui, "(covered)") and not on_screen(tui, "p6.3")

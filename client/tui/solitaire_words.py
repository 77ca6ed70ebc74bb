"""Solitaire moves and refusals in people's words, for the terminal's notice line: ``column 2 → column 5``
for ``t2>t5``, ``turn the stock`` for ``s``, card symbols (``8♥``, ``10♣``) for the record's ``8H``, ``TC``,
and no rule ids (``docs/formats.md`` gives the notation these come from)."""

from __future__ import annotations

import re
from typing import Any

from client.tui.cards import card_label
from client.tui.events import full_sentence
from engine.solitaire import GAMES
from engine.solitaire.errors import RULE_CODES
from engine.solitaire.hints import NO_NEW_MOVE, hint_text

CARD = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
PILE = re.compile(r"^([stwfp])(\d+(?:\.\d+)?)?$")
#: A move in the notation: piles joined by ``>`` or ``+``, a run's ``*N``.
MOVE = re.compile(r"^[stwfp][0-9.]*(?:[>+][stwfp][0-9.]*)?(?:\*\d+)?$")
#: A Pyramid position of the notation in a refusal's reason (``p6.3``).
POSITION = re.compile(r"\bp[1-7]\.[1-7]\b")
#: A refusal's rule id in brackets at its end (``(column-build)``, ``(covered)``).
RULE_ID = re.compile(r"\s*\(([a-z]+(?:-[a-z]+)*)\)\s*$")


def pile_words(pile: str) -> str:
    """``t2`` -> ``column 2``, ``f`` -> ``a foundation``, ``p7.4`` -> ``row 7, card 4``; unknown: as is."""
    match = PILE.match(pile)
    if match is None:
        return pile
    kind, number = match.groups()
    if kind == "p" and number and "." in number:
        row, card = number.split(".")
        return f"row {row}, card {card}"
    if number is None:
        return {"s": "the stock", "w": "the waste", "f": "a foundation"}.get(kind, pile)
    return f"{ {'s': 'stock', 'w': 'waste', 'f': 'foundation', 't': 'column'}.get(kind, 'pile') } {number}"


def pile_card(state: dict[str, Any], pile: str) -> str | None:
    """The card a Pyramid ``pile`` offers in the position ``state`` (the view's ``layout``): the pyramid card
    ``p7.4`` (covered or not), the top of the waste ``w`` (``w2`` of three), the stock's visible top ``s``;
    None for another game's pile, an empty one or one removed."""
    rows = state.get("pyramid")
    match = PILE.match(pile)
    if rows is None or match is None:
        return None
    kind, number = match.groups()
    card: Any = None
    if kind == "p" and number and "." in number:
        row, index = (int(n) for n in number.split("."))
        if 1 <= row <= len(rows) and 1 <= index <= len(rows[row - 1]):
            card = rows[row - 1][index - 1]
    elif kind == "w":
        waste = state.get("waste") or []
        piles = waste if waste and isinstance(waste[0], list) else [waste]
        k = int(number or 1)
        card = piles[k - 1][-1] if 1 <= k <= len(piles) and piles[k - 1] else None
    elif kind == "s" and number is None:
        card = state.get("stock_top")
    return None if card is None else str(card)


def card_words(pile: str, state: dict[str, Any] | None) -> str | None:
    """A Pyramid pile by the card it offers in ``state``, with where it lies: ``6♠ (row 7)``, ``5♠ from the
    waste``, ``9♦ from waste 2``, ``Q♣ from the stock``; None when ``state`` does not show its card."""
    card = None if state is None else pile_card(state, pile)
    if card is None:
        return None
    if pile.startswith("p"):
        return f"{card_label(card)} (row {pile[1:].split('.')[0]})"
    return f"{card_label(card)} from {pile_words(pile)}"


def move_words(move: str, state: dict[str, Any] | None = None) -> str:
    """``s`` -> ``turn the stock``; ``t2>t5*3`` -> ``column 2 → column 5 (3 cards)``; a Pyramid move by its
    cards in ``state`` (the position it is made in, see ``card_words``): ``p7.4+p7.6`` -> ``remove 6♠ (row 7)
    and 7♥ (row 7)``, ``p7.1`` alone -> ``remove K♣ (row 7)``; by places when the cards are not known
    (``pair row 7, card 4 with row 7, card 6``, ``remove the king at row 7, card 1``)."""
    move = move.strip()
    if move == "s":
        return "turn the stock"
    run = ""
    if "*" in move:
        move, count = move.split("*", 1)
        run = f" ({count} cards)"
    if ">" in move:
        source, target = move.split(">", 1)
        return f"{pile_words(source)} → {pile_words(target)}{run}"
    piles = move.split("+", 1)
    cards = [card_words(pile, state) for pile in piles]
    if all(cards):
        return "remove " + " and ".join(str(c) for c in cards)
    if len(piles) == 2:
        return f"pair {pile_words(piles[0])} with {pile_words(piles[1])}"
    return f"remove the king at {pile_words(move)}"


def moved_text(move: str, state: dict[str, Any] | None = None) -> str:
    """What a move made (in the position ``state``, for Pyramid's cards) is said as: ``Turned the stock.``,
    ``Moved column 2 → column 5.``, ``Removed 6♠ (row 7) and 7♥ (row 7).``"""
    words = move_words(move, state)
    if words == "turn the stock":
        return "Turned the stock."
    if words.startswith(("pair ", "remove the king at ")):  # the cards not known: their places
        return f"Removed: {words.split(' ', 1)[1]}."
    if words.startswith("remove "):
        return f"Removed {words.split(' ', 1)[1]}."
    return f"Moved {words}."


def covered_text(state: dict[str, Any], pile: str) -> str:
    """Why Pyramid ``pile`` cannot be used in ``state``, when a card still covers it: ``That card is covered:
    8♦ (row 2) lies on 6♠ (row 1); only uncovered cards are removed.``; empty when it is not covered (or not
    a pyramid card)."""
    match = PILE.match(pile)
    if match is None or not pile.startswith("p") or pile_card(state, pile) is None:
        return ""
    row, index = (int(n) for n in str(match.group(2)).split("."))
    over = [f"p{row + 1}.{i}" for i in (index, index + 1) if pile_card(state, f"p{row + 1}.{i}")]
    if not over:
        return ""
    covers = " and ".join(str(card_words(p, state)) for p in over)
    return (
        f"That card is covered: {covers} {'lie' if len(over) > 1 else 'lies'} on {card_words(pile, state)}; "
        "only uncovered cards are removed."
    )


def turned_text(before: dict[str, Any], after: dict[str, Any]) -> str:
    """A turn of the stock said once the position after it is known (``before`` and ``after``: the view's
    ``layout``): the card turned, the one to play now (``Turned the stock: 7♣.``), with how many when
    several were turned onto one waste (``Turned the stock: 3 cards, 7♣ on top.``), each waste's top for
    Pyramid's three wastes (``Turned the stock: 4♦ 9♠ 7♣.``), or a redeal (``Turned the waste over into the
    stock.``)."""
    stock_before, stock_after = int(before.get("stock", 0)), int(after.get("stock", 0))
    if stock_after > stock_before:
        return "Turned the waste over into the stock."
    waste = after.get("waste") or []
    if waste and isinstance(waste[0], list):
        tops = " ".join(card_label(pile[-1]) for pile in waste if pile)
        return f"Turned the stock: {tops}." if tops else "Turned the stock."
    if not waste:
        return "Turned the stock."
    turned = stock_before - stock_after
    top = card_label(str(waste[-1]))
    return f"Turned the stock: {turned} cards, {top} on top." if turned > 1 else f"Turned the stock: {top}."


def cards_in_words(text: str) -> str:
    """Every card of the record notation in ``text`` with its suit symbol (``8H`` -> ``8♥``, ``TC`` -> ``10♣``)."""
    return CARD.sub(lambda m: card_label(m.group(0)), text)


def move_example(game: str | None) -> str:
    """A move of ``game`` in the notation, for the help and the refusal of a move too long: a pair of
    Pyramid cards (``p7.1+p7.4``), else a column onto another (``t3>t5``)."""
    return "p7.1+p7.4" if game == "pyramid" else "t3>t5"


def refusal_words(text: str, state: dict[str, Any] | None = None) -> str:
    """A server's refusal of a solitaire request in people's words: its move in words (a Pyramid move by its
    cards in ``state``, the position it was refused in), card symbols, and without the rule id in brackets,
    e.g. ``Not allowed: column 2 → column 5: 8♥ does not go on 8♥: columns build down in the same suit.``; a
    Pyramid position in the reason by its card too (``p5.3 is not exposed: p6.3 still covers it`` ->
    ``10♣ (row 5) is not exposed: 7♥ (row 6) still covers it``), except where the reason explains the
    notation itself (``no-such-pile``, ``not-a-move``); a refusal of no move starts with a capital (``No
    hints on the day's deal: ...``); either ends with a full stop."""
    text = text.strip()
    rule = RULE_ID.search(text)
    code = None
    if rule is not None and ("-" in rule.group(1) or rule.group(1) in RULE_CODES):
        code, text = rule.group(1), text[: rule.start()]
    head, sep, rest = text.partition(": ")
    if sep and MOVE.match(head):
        rest = cards_in_words(rest)
        if code not in ("no-such-pile", "not-a-move"):
            rest = POSITION.sub(lambda m: card_words(m.group(0), state) or pile_words(m.group(0)), rest)
        return full_sentence(f"Not allowed: {move_words(head, state)}: {rest}")
    return full_sentence(cards_in_words(text))  # a sentence on the screen: the server's words end bare


def hint_words(
    status: str,
    move: str | None,
    state: dict[str, Any] | None = None,
    undo: int | None = None,
    from_start: bool = False,
) -> str:
    """A hint (``docs/protocol.md``, reply ``hint``) in words with the key that makes it, a Pyramid move by
    its cards in ``state`` (``move_words``): ``Hint: turn the stock (d) - a sure win: keep following the
    hints.``; a lost game in the engine's words (``hint_text``): lost from the start (``from_start``, or
    before any move), or the ``undo`` moves back to a winnable position."""
    if status == "lost":
        fresh = from_start or (state is not None and state.get("moves") == 0)
        return full_sentence(hint_text(status, move, fresh=fresh, undo=undo))
    if move is None:  # ``none``: the engine's words, so every client says the same
        return f"{NO_NEW_MOVE[0].upper()}{NO_NEW_MOVE[1:]}."
    key = "d" if move == "s" else "Enter"
    if status == "sure":
        return f"Hint: {move_words(move, state)} ({key}) - a sure win: keep following the hints."
    return f"No sure win found; a reasonable move: {move_words(move, state)} ({key})."


def options_refusal(game: str, options: dict[str, Any]) -> str:
    """Why ``options`` (typed after ``:`` in the games list) do not fit solitaire ``game``, in words: ``Forty
    Thieves has no option draw; its options: foundation-back, supermove``; empty when they fit (the server
    checks them again, ``engine.solitaire.catalogue.resolve_options``)."""
    info = GAMES[game]
    known = {o.name: o for o in info.options}
    for key, value in options.items():
        option = known.get(key)
        if option is None:
            names = ", ".join(known)
            return f"{info.title} has no option {key}; " + (
                f"its options: {names}." if names else "it has none."
            )
        if not any(type(value) is type(c) and value == c for c in option.choices):
            choices = " or ".join(f"{key}={option_text(c)}" for c in option.choices)
            return f"{info.title} takes {choices}, not {key}={option_text(value)}."
    return ""


def option_text(value: Any) -> str:
    """An option's value as typed after ``:`` in the games list (``draw=3``, ``foundation-back=true``)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)

"""Notation and rule checks for column-game moves (``docs/formats.md``, ``solitaire/1``).

Pile codes of internal moves ``(source, destination, count)``: a column is its index 0.., the waste
``WASTE``, the stock ``STOCK``, foundation ``i`` is ``FOUNDATION + i`` and "whichever foundation takes it"
``ANY_FOUNDATION``; ``TURN`` turns the stock (or redeals it). ``parse_move`` turns text into a move and says
which rule of ``docs/rules/solitaire.md`` a refused move breaks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import card_text
from engine.solitaire.base import Move
from engine.solitaire.errors import IllegalMove
from engine.solitaire.rules import KING, SUIT, VALUE, Empty, card_of, number

if TYPE_CHECKING:
    from engine.solitaire.columns import ColumnGame

WASTE = -1
STOCK = -2
ANY_FOUNDATION = -3
FOUNDATION = 100
TURN: Move = (STOCK, WASTE, 0)


def pile_name(pile: int) -> str:
    """The notation of a pile code: ``t3``, ``f2``, ``f``, ``w``, ``s``."""
    if 0 <= pile < FOUNDATION:
        return f"t{pile + 1}"
    if pile >= FOUNDATION:
        return f"f{pile - FOUNDATION + 1}"
    return {WASTE: "w", STOCK: "s", ANY_FOUNDATION: "f"}[pile]


def move_text(move: Move) -> str:
    """The canonical notation of an internal column-game move, e.g. ``t1>t2*3``, ``w>f``, ``s``."""
    if move == TURN:
        return "s"
    src, dst, n = move
    run = f"*{n}" if n > 1 else ""
    return f"{pile_name(src)}>{pile_name(dst)}{run}"


def _pile(game: ColumnGame, name: str, text: str) -> int:
    fixed = {"s": STOCK, "w": WASTE, "f": ANY_FOUNDATION}
    if name in fixed:
        if name != "f" and game.rules.turn == 0:
            raise IllegalMove(text, f"{game.title} has no stock or waste", code="no-such-pile")
        return fixed[name]
    k = number(name[1:]) if len(name) >= 2 and name[0] in "tf" else None
    if k is not None:
        if name[0] == "t" and 1 <= k <= game.rules.columns:
            return k - 1
        if name[0] == "f" and 1 <= k <= game.rules.foundations:
            return FOUNDATION + k - 1
    raise IllegalMove(text, f"no pile {name!r} in {game.title}", code="no-such-pile")


def parse_move(game: ColumnGame, text: str) -> Move:
    """The move ``text`` names in ``game``, checked against its rules (``docs/rules/solitaire.md``).

    Raises:
        IllegalMove: not a move of the game, or a move breaking a rule (the ``rule`` says which).
    """
    t = text.strip().lower() if isinstance(text, str) else ""
    if t == "s":
        _check_turn(game, text)
        return TURN
    body, star, count = t.partition("*")
    n = 1
    if star:
        run = number(count)
        if run is None or run < 1:
            raise IllegalMove(
                text, "not a move: a run length is a number of cards, e.g. t1>t2*3", code="not-a-move"
            )
        n = run
    a, sep, b = body.partition(">")
    if not sep:
        raise IllegalMove(text, "not a move (moves are s, A>B or A>B*N, e.g. t3>t5, w>f)", code="not-a-move")
    src, dst = _pile(game, a, text), _pile(game, b, text)
    _check(game, src, dst, n, text)
    return (src, dst, n)


def _check_turn(game: ColumnGame, text: str) -> None:
    if game.rules.turn == 0:
        raise IllegalMove(text, f"{game.title} has no stock", code="no-such-pile")
    if game.stock:
        return
    if not game.waste:
        raise IllegalMove(text, "the stock and the waste are empty", code="empty-pile")
    if game.rules.redeals == 0:
        raise IllegalMove(text, "the stock is empty: it is gone through once, no redeal", code="no-redeal")
    if game.redeals_left == 0:
        raise IllegalMove(
            text, f"the stock is empty and all {game.rules.redeals} redeals are used", code="no-redeal"
        )


def _source_card(game: ColumnGame, src: int, n: int, text: str) -> int:
    if src == ANY_FOUNDATION:
        raise IllegalMove(text, "name the foundation to take from, e.g. f1", code="not-a-move")
    if src == STOCK:
        if game.rules.turn != 1:
            raise IllegalMove(
                text,
                f"the stock is turned {game.rules.turn} at a time onto the waste; play the waste top",
                code="stock-turn",
            )
        if not game.stock:
            raise IllegalMove(text, "the stock is empty", code="empty-pile")
        if n > 1:
            raise IllegalMove(text, "one card at a time comes from the stock", code="one-card")
        return game.stock[-1]
    if src == WASTE:
        if not game.waste:
            raise IllegalMove(text, "the waste is empty", code="empty-pile")
        if n > 1:
            raise IllegalMove(text, "one card at a time comes from the waste", code="one-card")
        return game.waste[-1]
    if src >= FOUNDATION:
        if not game.rules.foundation_back:
            raise IllegalMove(text, "a card on a foundation stays there", code="foundation-stays")
        f = src - FOUNDATION
        if not game.foundation_height[f]:
            raise IllegalMove(text, f"f{f + 1} is empty", code="empty-pile")
        if n > 1:
            raise IllegalMove(text, "one card at a time comes back from a foundation", code="one-card")
        return card_of(game.foundation_suit[f], game.foundation_height[f])
    col = game.columns[src]
    if not col:
        raise IllegalMove(text, f"t{src + 1} is empty", code="empty-pile")
    if n > 1:
        if not game.several_move:
            raise IllegalMove(text, f"only one card moves at a time in {game.title}", code="one-card")
        if n > len(col) - game.down[src]:
            raise IllegalMove(
                text, f"t{src + 1} has only {len(col) - game.down[src]} face-up cards", code="not-face-up"
            )
        if game.run_length(src) < n:
            raise IllegalMove(
                text,
                f"the top {n} cards of t{src + 1} are not a run built {game.rules.build.words}",
                code="not-a-run",
            )
    return col[-n]


def _check(game: ColumnGame, src: int, dst: int, n: int, text: str) -> None:
    if dst == STOCK:
        raise IllegalMove(text, "nothing goes back to the stock", code="wrong-target")
    if dst == WASTE:
        raise IllegalMove(text, "cards reach the waste only by turning the stock (s)", code="wrong-target")
    if src == dst:
        raise IllegalMove(text, "a card cannot move onto its own pile", code="own-pile")
    base = _source_card(game, src, n, text)
    # The stock's top card is face down: a refusal never names it.
    name = "the stock's top card" if src == STOCK else card_text(base)
    if dst == ANY_FOUNDATION or dst >= FOUNDATION:
        if src >= FOUNDATION:
            raise IllegalMove(text, "a foundation card goes back only to a column", code="foundation-stays")
        if n > 1:
            raise IllegalMove(text, "one card at a time goes to a foundation", code="one-card")
        if dst == ANY_FOUNDATION:
            if not game.goes_up(base):
                raise IllegalMove(
                    text,
                    f"no foundation takes {name}: foundations build up in suit from the Ace",
                    code="foundation-build",
                )
            return
        f = dst - FOUNDATION
        height = game.foundation_height[f]
        if height == 0:
            if VALUE[base] != 1:
                raise IllegalMove(text, f"f{f + 1} is empty and takes an Ace only", code="foundation-build")
        elif game.foundation_suit[f] != SUIT[base] or VALUE[base] != height + 1:
            top = card_text(card_of(game.foundation_suit[f], height))
            on = f"f{f + 1} ({top})" if src == STOCK else f"{top} on f{f + 1}"
            raise IllegalMove(
                text, f"{name} does not go on {on}: foundations build up in suit", code="foundation-build"
            )
        return
    dest = game.columns[dst]
    if dest:
        if not game.builds_on[dest[-1] * 52 + base]:
            on = f"t{dst + 1} ({card_text(dest[-1])})" if src == STOCK else card_text(dest[-1])
            raise IllegalMove(
                text,
                f"{name} does not go on {on}: columns build {game.rules.build.words}",
                code="column-build",
            )
    elif game.rules.empty is Empty.NONE:
        raise IllegalMove(text, "an emptied column stays empty", code="empty-stays-empty")
    elif game.rules.empty is Empty.KING and VALUE[base] != KING:
        raise IllegalMove(
            text,
            "an empty column takes a King only" + ("" if src == STOCK else f", not {name}"),
            code="king-to-empty",
        )
    if n > 1 and not game.rules.runs:
        cap = game.max_run(not dest)
        if n > cap:
            raise IllegalMove(
                text,
                f"at most {cap} cards move at once with the empty columns there are",
                code="too-many-cards",
            )

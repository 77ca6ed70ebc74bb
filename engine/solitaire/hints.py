"""Hints that never mislead: a move with what is known about it.

A hint has a status (``HintStatus``):

- ``sure``: the move is the next of a winning line the solver found; following the hints wins. The line is
  shortened first (``engine.solitaire.lines``: no loops, no card moved and later moved back for nothing), and
  does not start by taking back the last move when another winning line does not.
- ``guess``: no win was found within the budget (and no proof of loss either); the move is a reasonable one
  that reaches a position not seen before in this game and never puts a card back on a card it was taken off
  earlier in the game (or back in an empty column, if it was taken from one) unless more cards have gone to
  the foundations since (``puts_back``), nor sends the card of the last move straight back through a
  foundation (up then down, or with ``foundation-back`` down then up: ``through_foundation``): so it never
  undoes a move, never shuffles a card to and fro (between the two 7♠ of a two-deck game, or with a stock
  turn between), and following guesses never goes round in a circle. (Refusing such a move even after progress said "no move" where moves were left:
  Baker's Dozen 8.) Nor does it lead where a short search of its own
  proves the game lost: each candidate is searched briefly with the time left (``_probe``), so a player who
  undoes out of a lost position is not sent back into it.
- ``lost``: the solver proved that no win is left from this position (or no legal move is left); no move.
- ``none``: moves are left, but each returns to a position this game has been in already, puts a card back
  where it was with no progress since, or is proved lost; no move (``NO_NEW_MOVE`` says so).

``advise`` works a hint out (it searches: run it off the event loop, ``server.workers``); ``advise_within``
gives it a budget of CPU time, the measure the winnable lists (``engine.solitaire.winnable``) were proved
in. ``HintLine`` keeps the winning line between hints so that, as long as the player follows it (or undoes
back onto it), the next hint costs nothing and never changes its mind; it also keeps the positions hints
called ``lost``, by key, so that one reached again by any order of moves is ``lost`` at once and a guess never
moves into one. Positions are compared by the solver's canonical key (``position_key``: columns in any
order, so moving a card to and fro between two columns counts as a return).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.solitaire.base import Game
from engine.solitaire.column_moves import FOUNDATION, STOCK, TURN, WASTE
from engine.solitaire.columns import ColumnGame
from engine.solitaire.lines import shorten
from engine.solitaire.record import from_record
from engine.solitaire.rules import card_of
from engine.solitaire.solver import Outcome, Solution, solve


class HintStatus(StrEnum):
    """What a hint's move is worth (the ``status`` field of the protocol's ``hint`` reply)."""

    SURE = "sure"
    GUESS = "guess"
    LOST = "lost"
    NONE = "none"


@dataclass(frozen=True)
class Hint:
    """A hint for one position.

    Attributes:
        status: see ``HintStatus``.
        move: the move to make (notation of ``docs/formats.md``); None for ``lost`` and ``none``.
        line: for ``sure``, the whole winning line from the position, ``move`` first; else empty.
        undo: for ``lost``, how many moves to undo to get back to a position the solver proved winnable
            (the latest it found: perhaps fewer would do); None when none is known.
        from_start: for ``lost``, the deal itself is proved lost: no move of the player's lost it, and no undo
            helps.
    """

    status: HintStatus
    move: str | None = None
    line: tuple[str, ...] = ()
    undo: int | None = None
    from_start: bool = False


#: Share of a hint's time the solver's search gets; shortening its line (``engine.solitaire.lines``) and
#: looking for a line that keeps the last move get the rest.
SEARCH_SHARE = 0.75
#: Wall seconds a hint may run past its budget on a busy machine (``server.workers`` stops a job 1 s past it:
#: the rest of that second is left for what follows the deadline's check, on a machine that runs it slowly).
WALL_SLACK = 0.3
#: Share of the time left after an undecided search that each guess candidate's own search may take.
PROBE_SHARE = 0.3
#: Share of its budget a hint spends searching (the rest is the reply's margin).
BUDGET_SHARE = 0.9
#: Positions called lost a ``HintLine`` remembers, the oldest forgotten first; each hint's search is given
#: them all (``HintLine.lost_keys``), a key pickling to 20-400 bytes, so what goes to the worker stays small.
LOST_KEPT = 128


def position_key(game: Game) -> Hashable:
    """The key positions are remembered by (the solver's canonical key, ``Game._key``): equal exactly when
    two positions of one deal have the same future. It holds every card where it lies (face-down ones and
    their count included), the waste in order, the stock (its length, which fixes it until the first redeal
    since cards only ever leave its top; in full after one) and the redeals left (Pyramid: the cards still
    in the pyramid, each waste pile in order, the stock, and with redeals the order the next redeal deals).
    The foundations follow from the cards left (of each suit, which copies are up). Only the order of the
    columns (and of the foundations) is left out: positions differing in it alone win or lose alike, a
    winning line of one being a winning line of the other with the columns renamed."""
    return game._key()


def hint_clock(cpu: float, wall: float, started: float | None = None) -> Callable[[], float]:
    """A clock for a search allowed ``cpu`` seconds of this process's CPU time but no more than ``wall``
    seconds of wall time counted from ``started`` (a ``time.perf_counter()`` reading; None: now): it reads 0
    now and passes ``cpu`` when either is spent (``solve``'s ``clock``). Counting CPU time keeps a hint as
    strong on a busy machine as the winnable lists were proved on."""
    cpu0, ratio = time.process_time(), cpu / wall
    wall0 = time.perf_counter() if started is None else started

    def clock() -> float:
        return max(time.process_time() - cpu0, (time.perf_counter() - wall0) * ratio)

    return clock


def advise_within(
    game: Game,
    budget: float,
    slack: float | None = WALL_SLACK,
    started: float | None = None,
    lost: frozenset[Hashable] = frozenset(),
) -> Hint:
    """``advise`` for ``game`` in ``budget`` seconds: it spends ``BUDGET_SHARE`` of it in CPU time, and
    stops anyway ``slack`` seconds past ``budget`` of wall time counted from ``started`` (a
    ``time.perf_counter()`` reading, None: now; on a machine busy with other work; ``slack`` None: no wall
    limit, as when the winnable lists are proved). The hint of the server (``ServerConfig.hint_budget``) and
    of ``barbu solitaire play``; ``lost`` as for ``advise``."""
    cpu = budget * BUDGET_SHARE
    clock = time.process_time if slack is None else hint_clock(cpu, budget + slack, started)
    return advise(game, timeout=cpu, clock=clock, lost=lost)


def advise(
    game: Game,
    timeout: float | None = None,
    max_nodes: int | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
    lost: frozenset[Hashable] = frozenset(),
) -> Hint:
    """A hint for ``game``'s current position (``game`` is left unchanged).

    A winning line is shortened (``engine.solitaire.lines.shorten``: no loops, no moves undone later). When
    its first move takes back the game's last move (``takes_back``) and another first move also wins (a
    search from each, in the solver's order, with the time left), the line keeps the last move.

    Args:
        game: a game in progress, with its history (the positions it has been in are avoided by guesses).
        timeout: seconds (on ``clock``) the hint may take, ``SEARCH_SHARE`` of it searching (None: no limit).
        max_nodes: positions each search may expand (None: no limit).
        clock: what ``timeout`` is measured on (``hint_clock`` for CPU time).
        lost: keys (``position_key``) of positions a hint called ``lost`` (``HintLine.lost_keys``): the
            position itself, if one of them, is ``lost`` without a search, and a guess never moves into one.

    Returns:
        ``sure`` with the winning line, ``lost`` when the search proves there is none (or no move is left),
        else ``guess`` with a move to a position the game has not been in that puts no card back where it was
        and that its own short search does not prove lost (``_guess``), or ``none`` when every move goes back
        or is proved lost. A won game gets ``none``. A ``lost`` hint says whether the deal was lost from the
        start or how many moves to undo to get back to a winnable position, as far as short searches of the
        time left decide (``_way_back``).
    """
    if game.won:
        return Hint(HintStatus.NONE)
    deadline = None if timeout is None else clock() + timeout
    hint = _advise(game, max_nodes, clock, deadline, lost)
    return _way_back(game, max_nodes, clock, deadline) if hint.status is HintStatus.LOST else hint


def _advise(
    game: Game,
    max_nodes: int | None,
    clock: Callable[[], float],
    deadline: float | None,
    lost: frozenset[Hashable],
) -> Hint:
    """``advise``'s hint before a ``lost`` one is told the way back (``_way_back``)."""
    if not game._moves(prune=False) or position_key(game) in lost:
        return Hint(HintStatus.LOST)
    timeout = None if deadline is None else deadline - clock()
    result = solve(
        game, timeout=None if timeout is None else timeout * SEARCH_SHARE, max_nodes=max_nodes, clock=clock
    )
    if result.outcome is Outcome.SOLVABLE and result.moves:
        late = _late(clock, deadline)
        line = shorten(game, result.moves, late)
        if takes_back(game, line[0]) and (deadline is not None or max_nodes is not None):
            line = _keeping_last_move(game, max_nodes, clock, deadline) or line
        return Hint(HintStatus.SURE, line[0], tuple(line))
    if result.outcome is Outcome.UNSOLVABLE:
        return Hint(HintStatus.LOST)
    return _guess(game, max_nodes, clock, deadline, lost)


def _way_back(game: Game, max_nodes: int | None, clock: Callable[[], float], deadline: float | None) -> Hint:
    """The ``lost`` hint for ``game``, saying whether its moves lost it: the deal itself proved lost
    (``from_start``; also before any move), or how many moves back a position was proved winnable
    (``undo``), or neither when the time left decided nothing. A game's positions are winnable up to the
    move that lost it and lost from there on, so the last winnable one is searched for by halves between the
    deal (winnable) and now (lost), each search a short one (``_probe``), as long as they decide."""
    moves = len(game.history)

    def after(made: int) -> Game:  # the position after the game's first `made` moves
        return from_record({**game.to_record(), "moves": game.history[:made]})

    start = _probe(after(0), max_nodes, clock, deadline) if moves else None
    if not moves or (start is not None and start.outcome is Outcome.UNSOLVABLE):
        return Hint(HintStatus.LOST, from_start=True)
    if start is None:
        return Hint(HintStatus.LOST)
    won, lost = 0, moves  # the latest position known winnable, the earliest known lost (by moves made)
    while lost - won > 1:
        mid = (won + lost) // 2
        found = _probe(after(mid), max_nodes, clock, deadline)
        if found is None:
            break
        if found.outcome is Outcome.UNSOLVABLE:
            lost = mid
        else:
            won = mid
    return Hint(HintStatus.LOST, undo=moves - won)


def _guess(
    game: Game,
    max_nodes: int | None,
    clock: Callable[[], float],
    deadline: float | None,
    known_lost: frozenset[Hashable] = frozenset(),
) -> Hint:
    """The hint when the search decided nothing: the first fresh move (``fresh_moves``) not into a position
    of ``known_lost`` (keys) that its own short search (``_probe``) does not prove lost, as a ``guess`` — or
    ``sure`` when that search finds a win. When every legal move is lost, ``lost``; when the fresh ones are,
    ``none``."""
    late = _late(clock, deadline)
    lost = 0
    for text, after in fresh_moves(game, positions_seen(game), places_left(game), last_placing(game)):
        if position_key(after) in known_lost:
            lost += 1
            continue
        if after.won:
            return Hint(HintStatus.SURE, text, (text,))
        result = _probe(after, max_nodes, clock, deadline)
        if result is None:
            return Hint(HintStatus.GUESS, text)
        if result.outcome is Outcome.SOLVABLE and result.moves:
            return Hint(HintStatus.SURE, text, (text, *shorten(after, result.moves, late)))
        lost += 1
    if lost and lost == len(game._moves(prune=False)):
        return Hint(HintStatus.LOST)
    return Hint(HintStatus.NONE)


def _probe(
    after: Game, max_nodes: int | None, clock: Callable[[], float], deadline: float | None
) -> Solution | None:
    """A short search from ``after`` (the position a guess would lead to): ``PROBE_SHARE`` of the time left
    (or a quarter of ``max_nodes``); its result when it decided, else None (also when no time is left)."""
    if deadline is None and max_nodes is None:
        return None  # the search before had no limit and decided nothing: no short one would
    left = None if deadline is None else (deadline - clock()) * PROBE_SHARE
    if left is not None and left <= 0:
        return None
    nodes = None if max_nodes is None else max(1, max_nodes // 4)
    result = solve(after, timeout=left, max_nodes=nodes, clock=clock)
    return None if result.outcome is Outcome.UNKNOWN else result


def _late(clock: Callable[[], float], deadline: float | None) -> Callable[[], bool]:
    return lambda: deadline is not None and clock() > deadline


def _keeping_last_move(
    game: Game, max_nodes: int | None, clock: Callable[[], float], deadline: float | None
) -> list[str] | None:
    """A winning line from ``game`` whose first move does not take back the last move: each other first move
    in the solver's order is searched (half the time left each) until one wins; None if none does in time."""
    late = _late(clock, deadline)
    for text in _ordered_moves(game):
        if late():
            return None
        if takes_back(game, text):
            continue
        after = game.copy()
        after.apply(text)
        if after.won:
            return [text]
        left = None if deadline is None else (deadline - clock()) / 2
        result = solve(after, timeout=left, max_nodes=max_nodes, clock=clock)
        if result.outcome is Outcome.SOLVABLE and result.moves:
            return [text, *shorten(after, result.moves, late)]
    return None


def advise_record(record: dict[str, Any], lost: frozenset[Hashable] = frozenset(), *, budget: float) -> Hint:
    """``advise_within`` for the game of a ``solitaire/1`` record (its moves replayed), the keys ``lost`` of
    positions known lost (``HintLine.lost_keys``) and ``budget`` seconds, the replay counted in its
    wall time: the job a server worker runs (``server.workers``)."""
    started = time.perf_counter()
    return advise_within(from_record(record), budget, started=started, lost=lost)


def _replayed(game: Game) -> Iterator[tuple[Game, str]]:
    """``game``'s history replayed from the deal: (the position before each move, that move); the position
    is one object, moved on after each step."""
    replay = from_record({**game.to_record(), "moves": []})
    for move in game.history:
        yield replay, move
        replay.apply(move)


def positions_seen(game: Game) -> set[Hashable]:
    """The canonical keys of every position ``game`` has been in along its history, the current one too."""
    seen = {game._key()}
    for replay, _ in _replayed(game):
        seen.add(replay._key())
    return seen


#: In ``Placing``: the card was alone in its column, or goes to an empty one.
EMPTY = -1


@dataclass(frozen=True)
class Placing:
    """What a move does to one card (the one at the bottom of the cards it moves), for telling a move that
    puts a card back where it was (``left``) from one that takes it somewhere new (``onto``).

    Attributes:
        card: the card (0..51; the two copies of a two-deck game are the same card).
        left: the card it lay on (``EMPTY``: it was alone in its column); None when it came from the waste,
            the stock or a foundation, where no move puts it back.
        onto: the card it goes on (``EMPTY``: an empty column); None when it goes to a foundation.
        down: it comes down from a foundation (rule ``foundation-back``).
    """

    card: int
    left: int | None
    onto: int | None
    down: bool = False


def placing(game: Game, move: str) -> Placing | None:
    """The ``Placing`` of ``move`` (legal in ``game``'s position); None for a game without columns
    (Pyramid) and for a stock turn.

    Raises:
        IllegalMove: ``move`` is not legal in ``game``'s position.
    """
    if not isinstance(game, ColumnGame):
        return None
    src, dst, n = game._parse(move)
    if (src, dst, n) == TURN:
        return None
    left: int | None = None
    if 0 <= src < FOUNDATION:
        column = game.columns[src]
        card = column[-n]
        left = column[-n - 1] if len(column) > n else EMPTY
    elif src == WASTE:
        card = game.waste[-1]
    elif src == STOCK:
        card = game.stock[-1]
    else:
        card = card_of(game.foundation_suit[src - FOUNDATION], game.foundation_height[src - FOUNDATION])
    onto = (game.columns[dst][-1] if game.columns[dst] else EMPTY) if 0 <= dst < FOUNDATION else None
    return Placing(card, left, onto, down=src >= FOUNDATION)


def places_left(game: Game) -> dict[tuple[int, int], int]:
    """Every ``(card, the card it lay on)`` (``Placing.left``) some move of ``game``'s history took a card
    off, with the cards on the foundations just after the latest such move (``foundation_cards``): where a
    guess puts that card back only once more cards have gone home since (``puts_back``)."""
    left: dict[tuple[int, int], int] = {}
    for replay, move in _replayed(game):
        step = placing(replay, move)
        if step is not None and step.left is not None:
            left[(step.card, step.left)] = foundation_cards(replay) + (step.onto is None)
    return left


def foundation_cards(game: Game) -> int:
    """The cards on the foundations of a column game (Lucas's aces dealt there counted); 0 for Pyramid,
    where no move puts a card back (``placing``)."""
    return sum(game.foundation_height) if isinstance(game, ColumnGame) else 0


def puts_back(game: Game, move: str, left: dict[tuple[int, int], int]) -> bool:
    """True when ``move`` puts its card back on a card (or in an empty column) it was taken off (``left``,
    from ``places_left``) and no more cards are on the foundations than just after it was taken off: a
    shuffle to and fro. Once more have gone home the move is progress, not a detour: the position differs
    in what matters, and ``positions_seen`` still keeps guesses out of circles. A card going up to a
    foundation never goes back."""
    step = placing(game, move)
    if step is None or step.onto is None:
        return False
    then = left.get((step.card, step.onto))
    return then is not None and foundation_cards(game) <= then


def through_foundation(game: Game, move: str, last: Placing | None) -> bool:
    """True when ``move`` (legal in ``game``'s position) sends back through a foundation the card that
    ``game``'s last move (``last``, its ``Placing``; None: no last move) sent through one: the last move put
    the card up and ``move`` takes it down again, or the last move took it down (rule ``foundation-back``)
    and ``move`` puts it straight back up. In a two-deck game either copy counts: up from one column and
    down onto another is the card moved between them by a round trip, not progress (Indian 2: ``t5>f`` then
    ``f1>t10``, the same 3♣; Maria 6: ``t9>f`` then ``f2>t7``)."""
    if last is None or not (last.down or last.onto is None):
        return False
    step = placing(game, move)
    if step is None or step.card != last.card:
        return False
    return step.down if last.onto is None else step.onto is None


def last_placing(game: Game) -> Placing | None:
    """The ``Placing`` of ``game``'s last move (None without a move, or for a stock turn or Pyramid)."""
    before = _before_last(game)
    return None if before is None else placing(before, game.history[-1])


def _before_last(game: Game) -> Game | None:
    """The position before ``game``'s last move, replayed from the deal (None without a move)."""
    if not game.history:
        return None
    return from_record({**game.to_record(), "moves": game.history[:-1]})


def takes_back(game: Game, move: str) -> bool:
    """True when ``move`` (legal in ``game``'s position) takes back ``game``'s last move: it comes back to
    the position before it, puts the card that move took off a card (or an empty column) back there, or
    sends the card that move sent through a foundation back through one (``through_foundation``)."""
    before = _before_last(game)
    if before is None:
        return False
    after = game.copy()
    after.apply(move)
    if after._key() == before._key():
        return True
    step = placing(before, game.history[-1])
    return step is not None and (
        through_foundation(game, move, step)
        or (step.left is not None and puts_back(game, move, {(step.card, step.left): foundation_cards(game)}))
    )


def _ordered_moves(game: Game) -> list[str]:
    """Every legal move, the solver's preferred ones first (in its order)."""
    pruned = game._moves(prune=True)
    return [game._text(m) for m in pruned + [m for m in game._moves(prune=False) if m not in pruned]]


def fresh_moves(
    game: Game,
    seen: set[Hashable],
    left: dict[tuple[int, int], int] | None = None,
    last: Placing | None = None,
) -> Iterator[tuple[str, Game]]:
    """The moves, in the solver's order of preference (then any other legal move), that lead to a position
    not in ``seen``, put no card back on a card they were taken off with no card gone home since
    (``left``, from ``places_left``; ``puts_back``) and do not send the card of the last move (``last``,
    from ``last_placing``) back through a foundation (``through_foundation``), each with the position it
    leads to (a copy)."""
    for text in _ordered_moves(game):
        if (left and puts_back(game, text, left)) or through_foundation(game, text, last):
            continue
        after = game.copy()
        after.apply(text)
        if after._key() not in seen:
            yield text, after


def fresh_move(game: Game, seen: set[Hashable], left: dict[tuple[int, int], int] | None = None) -> str | None:
    """The first of ``fresh_moves``; None when there is none."""
    return next((text for text, _ in fresh_moves(game, seen, left)), None)


#: What a client says for a ``none`` hint (the terminal client and ``barbu solitaire play`` with this text,
#: the browser, ``web/js/solitaire.js``, and ``docs/protocol.md`` in the same words).
NO_NEW_MOVE = "no new move left: every move left goes back to an earlier position, puts a card back where it was, or leads into a lost one"


def hint_text(status: str, move: str | None, fresh: bool = False, undo: int | None = None) -> str:
    """What a client says for a hint of ``status`` (a ``HintStatus`` value) and ``move``: one sentence;
    for ``lost``, ``fresh``: the deal was never winnable (no move made yet, or the hint's ``from_start``),
    ``undo``: the moves to undo back to a winnable position (the hint's ``undo``), so that a lost game
    offers undo only when it helps.

    >>> hint_text("guess", "t3>t5")
    'no sure win found; a reasonable move: t3>t5'
    >>> hint_text("lost", None, undo=2)
    'your moves lost this game: undo 2 moves to get back to a position that can be won'
    """
    if status == HintStatus.LOST:
        if fresh:
            return "this deal cannot be won, from the start: no move of yours lost it"
        if undo:
            moves = "1 move" if undo == 1 else f"{undo} moves"
            return f"your moves lost this game: undo {moves} to get back to a position that can be won"
        return "this game can no longer be won from here"
    if move is None:
        return NO_NEW_MOVE
    if status == HintStatus.SURE:
        return f"hint: {move} (a sure win: keep following the hints)"
    return f"no sure win found; a reasonable move: {move}"


class HintLine:
    """The winning line of the last ``sure`` hint, kept between hints of one game, and the positions hints
    called ``lost``.

    ``known(history, key)`` gives the next move of the line when ``history`` (the game's moves, oldest first)
    is the history the line was found from followed by the line's first moves; ``keep`` stores a new hint's
    line. A position a hint called ``lost`` is remembered by its key (``position_key``; the ``LOST_KEPT``
    latest): ``known`` says ``lost`` again at once wherever the game reaches it, by whatever order of moves,
    and ``lost_keys`` gives a hint's search the latest of them, so its guess never moves into one (a player
    who undoes out of a lost position is not sent back by a search too short to prove it again).
    """

    def __init__(self) -> None:
        self._start: list[str] = []
        self._line: tuple[str, ...] = ()
        self._lost: dict[Hashable, None] = {}
        self._winnable: list[str] = []  # moves after which a lost hint found the position winnable
        self._lost_from_start = False  # a lost hint proved the deal itself lost

    def known(self, history: list[str], key: Hashable) -> Hint | None:
        """The hint for the position after ``history`` (whose ``position_key`` is ``key``) that needs no
        search: ``lost`` if a hint called that position lost (saying the deal was lost from the start, or
        the moves to undo back to a position known winnable, as the hints kept tell), else the ``sure``
        hint of the kept line; None if neither applies (the game has left the line, or it is spent)."""
        if key in self._lost:
            if self._lost_from_start or not history:
                return Hint(HintStatus.LOST, from_start=True)
            back = self._winnable_moves(history)
            return Hint(HintStatus.LOST, undo=None if back is None else len(history) - back)
        n = len(self._start)
        if not self._line or history[:n] != self._start:
            return None
        done = history[n:]
        k = len(done)
        if k >= len(self._line) or list(self._line[:k]) != done:
            return None
        return Hint(HintStatus.SURE, self._line[k], self._line[k:])

    def keep(self, history: list[str], key: Hashable, hint: Hint) -> None:
        """Remember ``hint``, found after ``history`` (position ``key``): its line if it is ``sure``, the
        position if it is ``lost``; other hints leave the kept line alone (the player may still come back
        onto it with undo)."""
        if hint.status is HintStatus.SURE:
            self._start, self._line = list(history), hint.line
        elif hint.status is HintStatus.LOST:
            self._lost_from_start = self._lost_from_start or hint.from_start
            if hint.undo is not None:
                self._winnable = list(history[: len(history) - hint.undo])
            self._lost.pop(key, None)
            self._lost[key] = None
            while len(self._lost) > LOST_KEPT:
                del self._lost[next(iter(self._lost))]

    def _winnable_moves(self, history: list[str]) -> int | None:
        """How many of ``history``'s first moves lead to a position known winnable (the start of the kept
        line and the line's moves followed from there, or where a lost hint found one); None if none is
        known along ``history``."""
        known = []
        if self._winnable and history[: len(self._winnable)] == self._winnable:
            known.append(len(self._winnable))
        n = len(self._start)
        if self._line and history[:n] == self._start:
            followed = 0
            while (
                n + followed < len(history)
                and followed < len(self._line)
                and history[n + followed] == self._line[followed]
            ):
                followed += 1
            known.append(n + followed)
        return max(known, default=None)

    def lost_keys(self) -> frozenset[Hashable]:
        """The keys of the positions called lost that are kept (``advise``'s ``lost``)."""
        return frozenset(self._lost)

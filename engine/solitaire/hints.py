"""Hints that never mislead: a move with what is known about it.

A hint has a status (``HintStatus``):

- ``sure``: the move is the next of a winning line the solver found; following the hints wins.
- ``guess``: no win was found within the budget (and no proof of loss either); the move is a reasonable one
  that reaches a position not seen before in this game, so it never undoes the previous move and following
  guesses never goes round in a circle.
- ``lost``: the solver proved that no win is left from this position (or no legal move is left); no move.
- ``none``: moves are left, but each returns to a position this game has been in already; no move.

``advise`` works a hint out (it searches: run it off the event loop, ``server.workers``); ``HintLine`` keeps
the winning line between hints so that, as long as the player follows it (or undoes back onto it), the next
hint costs nothing and never changes its mind. Positions are compared by the solver's canonical key
(``Game._key``: columns in any order, so moving a card to and fro between two columns counts as a return).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.solitaire.base import Game
from engine.solitaire.record import from_record
from engine.solitaire.solver import Outcome, solve


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
    """

    status: HintStatus
    move: str | None = None
    line: tuple[str, ...] = ()


def advise(game: Game, timeout: float | None = None, max_nodes: int | None = None) -> Hint:
    """A hint for ``game``'s current position (``game`` is left unchanged).

    Args:
        game: a game in progress, with its history (the positions it has been in are avoided by guesses).
        timeout: seconds the solver may search (None: no limit).
        max_nodes: positions the solver may expand (None: no limit).

    Returns:
        ``sure`` with the winning line, ``lost`` when the search proves there is none (or no move is left),
        else ``guess`` with a move to a position the game has not been in, or ``none`` when every move goes
        back to one. A won game gets ``none``.
    """
    if game.won:
        return Hint(HintStatus.NONE)
    if not game._moves(prune=False):
        return Hint(HintStatus.LOST)
    result = solve(game, timeout=timeout, max_nodes=max_nodes)
    if result.outcome is Outcome.SOLVABLE and result.moves:
        return Hint(HintStatus.SURE, result.moves[0], tuple(result.moves))
    if result.outcome is Outcome.UNSOLVABLE:
        return Hint(HintStatus.LOST)
    move = fresh_move(game, positions_seen(game))
    return Hint(HintStatus.NONE) if move is None else Hint(HintStatus.GUESS, move)


def advise_record(record: dict[str, Any], *, budget: float) -> Hint:
    """``advise`` for the game of a ``solitaire/1`` record (its moves replayed) within ``budget`` seconds:
    the job a server worker runs (``server.workers``; the search stops at 90 % of the budget)."""
    return advise(from_record(record), timeout=budget * 0.9)


def positions_seen(game: Game) -> set[Hashable]:
    """The canonical keys of every position ``game`` has been in along its history, the current one too."""
    replay = from_record({**game.to_record(), "moves": []})
    seen = {replay._key()}
    for move in game.history:
        replay.apply(move)
        seen.add(replay._key())
    return seen


def fresh_move(game: Game, seen: set[Hashable]) -> str | None:
    """The first move, in the solver's order of preference (then any other legal move), that leads to a
    position not in ``seen``; None when there is none."""
    pruned = game._moves(prune=True)
    for move in pruned + [m for m in game._moves(prune=False) if m not in pruned]:
        token = game._do(move)
        try:
            new = game._key() not in seen
        finally:
            game._undo(token)
        if new:
            return game._text(move)
    return None


def hint_text(status: str, move: str | None) -> str:
    """What a client says for a hint of ``status`` (a ``HintStatus`` value) and ``move``: one sentence.

    >>> hint_text("guess", "t3>t5")
    'no sure win found; a reasonable move: t3>t5'
    """
    if status == HintStatus.LOST:
        return "this game can no longer be won"
    if move is None:
        return "no move left that does not go back to an earlier position"
    if status == HintStatus.SURE:
        return f"hint: {move} (a sure win: keep following the hints)"
    return f"no sure win found; a reasonable move: {move}"


class HintLine:
    """The winning line of the last ``sure`` hint, kept between hints of one game.

    ``known(history)`` gives the next move of the line when ``history`` (the game's moves, oldest first) is
    the history the line was found from followed by the line's first moves; ``keep`` stores a new hint's line.
    """

    def __init__(self) -> None:
        self._start: list[str] = []
        self._line: tuple[str, ...] = ()

    def known(self, history: list[str]) -> Hint | None:
        """The ``sure`` hint for the position after ``history`` from the kept line, or None if the game has
        left the line (or it is spent)."""
        n = len(self._start)
        if not self._line or history[:n] != self._start:
            return None
        done = history[n:]
        k = len(done)
        if k >= len(self._line) or list(self._line[:k]) != done:
            return None
        return Hint(HintStatus.SURE, self._line[k], self._line[k:])

    def keep(self, history: list[str], hint: Hint) -> None:
        """Remember ``hint``'s line if it is ``sure`` (found after ``history``); other hints leave the kept
        line alone (the player may still come back onto it with undo)."""
        if hint.status is HintStatus.SURE:
            self._start, self._line = list(history), hint.line

"""Shorter winning lines: the detours of a solver's line taken out, the win kept.

The solver's line is the path its depth-first search happened to take: it wanders (Forty Thieves seed 5 moves
the 6♠ between the two 7♠ with a stock turn between, again and again). ``shorten`` cuts three kinds of detour:

- loops and shortcuts: the line comes back to a position it was in (equal canonical keys, ``Game._key``),
  or one legal move reaches a position the line only reaches later; the moves between are cut. The key
  sorts the columns, so the position may come back with its columns in another order: the moves after the
  cut are renamed onto the columns as they stand.
- moves undone later: a card (or run) goes from pile A to column B and later leaves B for pile C with no
  move between touching B; the first move is dropped and the second made from A (dropped too when C is A).
- moves taken back later whatever happens between: cards go from column A to column B and the same cards
  later go back from B to A, other moves using A or B between (Lucas 402390572: the 4♣ goes to an empty
  column, a card is put on it and taken off, and the 4♣ goes back); both are dropped when the line without
  them, replayed to its end, still wins.

The first two cuts are checked by replaying the moves they change and comparing the exact position after
them with the one the line had there, the third by replaying the rest of the line to a win. The passes are
repeated until one cuts nothing (a cut may open the way to another: Indian 41 needed eight), and the whole
shortened line is then replayed from the start, the line as given returned if it does not win. So
``shorten`` never returns a line that does not win, and given the time (``late`` never True) it returns
one with no move followed later by its exact reverse that the line could do without.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from engine.solitaire.base import Game
from engine.solitaire.column_moves import FOUNDATION, WASTE, move_text
from engine.solitaire.columns import ColumnGame
from engine.solitaire.errors import IllegalMove

#: Most moves between a move and the one that undoes it for the pair to be tried as a cut.
WINDOW = 60

_COLUMN = re.compile(r"t(\d+)")


def shorten(game: Game, line: Sequence[str], late: Callable[[], bool] = lambda: False) -> list[str]:
    """``line`` (moves that win from ``game``'s position) with its loops and undone moves taken out.

    Args:
        game: the position the line starts from (left unchanged).
        line: moves in ``docs/formats.md`` notation that replay from ``game`` to a win.
        late: asked before each pass over the line (a pass takes up to a few tenths of a second on a line of
            two thousand moves) and before each pair of moves tried by replaying the rest of the line; once it
            says True, the shortest line so far is returned.

    Returns:
        A line that replays from ``game`` to a win, never longer than ``line``; ``line`` itself (as a list)
        when it does not replay to a win, or when no shorter one is found. Passes are made until one cuts
        nothing (each cuts at least one move, so they end), or ``late``.
    """
    best = list(line)
    if not wins(game, best):
        return best
    while not late():
        shorter = _cut_loops(game, best)
        if isinstance(game, ColumnGame):
            shorter = _drop_undone(game, shorter)
            if wins(game, shorter):
                shorter = _drop_reversed(game, shorter, late)
        if len(shorter) >= len(best) or not wins(game, shorter):
            break
        best = shorter
    return best


def wins(game: Game, line: Sequence[str]) -> bool:
    """True when ``line`` replays from ``game``'s position (left unchanged) to a win, every move legal."""
    replay = game.copy()
    try:
        for move in line:
            replay.apply(move)
    except IllegalMove:
        return False
    return replay.won


def _columns(game: Game) -> tuple[tuple[int, ...], ...] | None:
    """The columns as they stand, face-down counts first (None for a game without columns)."""
    if not isinstance(game, ColumnGame):
        return None
    return tuple((game.down[i], *col) for i, col in enumerate(game.columns))


def _renaming(was: tuple[tuple[int, ...], ...] | None, now: tuple[tuple[int, ...], ...] | None) -> list[int]:
    """For each column of ``was`` the index of a column of ``now`` holding the same cards (equal columns
    taken in order); ``now`` is ``was`` reordered (equal canonical keys). Empty for a game without columns."""
    if was is None or now is None:
        return []
    free: dict[tuple[int, ...], list[int]] = {}
    for i, col in enumerate(now):
        free.setdefault(col, []).append(i)
    return [free[col].pop(0) for col in was]


def _rename(move: str, renaming: list[int]) -> str:
    if not renaming:
        return move
    return _COLUMN.sub(lambda m: f"t{renaming[int(m[1]) - 1] + 1}", move)


def _cut_loops(game: Game, line: list[str]) -> list[str]:
    """``line`` with every stretch between two visits of one position cut (the later visit's moves renamed
    onto the columns as they stand); ``line`` when a move does not replay."""
    replay = game.copy()
    keys: list[Hashable] = [replay._key()]
    columns = [_columns(replay)]
    try:
        for move in line:
            replay.apply(move)
            keys.append(replay._key())
            columns.append(_columns(replay))
    except IllegalMove:
        return line
    last = {key: i for i, key in enumerate(keys)}
    out: list[str] = []
    replay = game.copy()
    renaming = _renaming(columns[0], columns[0])
    i = 0
    try:
        while i < len(line):
            j = last[keys[i]]
            if j > i:
                renaming = _renaming(columns[j], _columns(replay))
                i = j
                continue
            skip, j = _shortcut(replay, last, i + 1)
            move = _rename(line[i], renaming) if skip is None else skip
            replay.apply(move)
            out.append(move)
            if j > i + 1:
                renaming = _renaming(columns[j], _columns(replay))
            i = j
    except (IllegalMove, KeyError, IndexError):
        # A renamed move did not replay (columns the canonical key holds equal told apart wrongly): cut only
        # the loops that come back to the very same piles, which need no renaming.
        return _cut_returns(game, line)
    return out


def _cut_returns(game: Game, line: list[str]) -> list[str]:
    """``line`` with every stretch between two visits of the very same position (piles in place: ``_exact``,
    or the key of a game without columns) cut, the moves after it unchanged; ``line`` when a move does not
    replay. Forty Thieves 35 with foundation-back made 26 such two-move returns (``t10>f`` then ``f1>t10``)
    that ``_cut_loops`` had to leave, as one renamed move of its cut line did not replay."""
    replay = game.copy()

    def here() -> Hashable:
        return _exact(replay) if isinstance(replay, ColumnGame) else replay._key()

    keys = [here()]
    try:
        for move in line:
            replay.apply(move)
            keys.append(here())
    except IllegalMove:
        return line
    last = {key: i for i, key in enumerate(keys)}
    out: list[str] = []
    i = 0
    while i < len(line):
        i = last[keys[i]]
        if i < len(line):
            out.append(line[i])
            i += 1
    return out


def _shortcut(game: Game, last: dict[Hashable, int], nxt: int) -> tuple[str | None, int]:
    """The legal move from ``game``'s position reaching the latest position of the line (``last``: each
    position's last index) past ``nxt``, with that index; ``(None, nxt)`` when no move skips ahead."""
    best: tuple[str | None, int] = (None, nxt)
    for move in game._moves(prune=False):
        token = game._do(move)
        try:
            j = last.get(game._key(), -1)
        finally:
            game._undo(token)
        if j > best[1]:
            best = (game._text(move), j)
    return best


def _exact(game: ColumnGame) -> tuple[Any, ...]:
    """Everything a column game's future depends on, piles in place (not only the canonical key)."""
    return (
        _columns(game),
        tuple(game.waste),
        tuple(game.stock),
        game.redeals_left,
        tuple(game.foundation_height),
        tuple(game.foundation_suit),
    )


def _drop_undone(game: ColumnGame, line: list[str]) -> list[str]:
    """``line`` with each move whose cards later leave their new column (no move between touching that
    column) merged into that later move; each merge is checked by replaying the moves between."""
    line = list(line)
    replay = game.copy()
    i = 0
    while i < len(line):
        merged = _merge_at(replay, line, i)
        if merged is not None:
            line = merged
            continue
        try:
            replay.apply(line[i])
        except IllegalMove:
            return line
        i += 1
    return line


def _merge_at(game: ColumnGame, line: list[str], i: int) -> list[str] | None:
    """The line with move ``i`` (made from ``game``'s position) merged into the later move that takes its
    cards off again, if there is one within ``WINDOW`` moves and the merge replays to the same position;
    else None. ``game`` is left unchanged."""
    try:
        src, dst, n = game._parse(line[i])
    except IllegalMove:
        return None
    if not (0 <= dst < FOUNDATION and (0 <= src < FOUNDATION or src == WASTE)):
        return None
    after = game.copy()
    after.apply(line[i])
    for k in range(i + 1, min(len(line), i + 1 + WINDOW)):
        try:
            s, d, m = after._parse(line[k])
        except IllegalMove:
            return None
        if s == dst and m == n:
            if d == src:
                return _checked(game, line, i, k, [])
            return _checked(game, line, i, k, [move_text((src, d, n))])
        if dst in (s, d) or (src == WASTE and WASTE in (s, d)):
            return None  # the column (or the waste the card came from) is used meanwhile
        after.apply(line[k])
    return None


def _checked(game: ColumnGame, line: list[str], i: int, k: int, instead: list[str]) -> list[str] | None:
    """``line`` with moves ``i`` and ``k`` replaced by ``instead`` (at ``k``'s place) if, from ``game``'s
    position (before move ``i``), the new moves replay to exactly the position the old ones reach."""
    old, new = game.copy(), game.copy()
    try:
        for move in line[i : k + 1]:
            old.apply(move)
        for move in line[i + 1 : k] + instead:
            new.apply(move)
    except IllegalMove:
        return None
    if _exact(old) != _exact(new):
        return None
    return line[:i] + line[i + 1 : k] + instead + line[k + 1 :]


def _column_step(game: ColumnGame, move: str) -> tuple[int, int, tuple[int, ...]] | None:
    """``(source, destination, cards moved)`` of ``move`` (legal in ``game``'s position) when it goes from a
    column to a column; else None."""
    src, dst, n = game._parse(move)
    if not (0 <= src < FOUNDATION and 0 <= dst < FOUNDATION):
        return None
    return src, dst, tuple(game.columns[src][-n:])


def _drop_reversed(game: ColumnGame, line: list[str], late: Callable[[], bool]) -> list[str]:
    """``line`` (moves that win from ``game``'s position) without each pair of moves where cards go from
    column A to column B and the same cards later go back from B to A, whatever moves come between, when
    the line without both still replays to a win; ``late`` is asked before each pair is tried."""
    line = list(line)
    replay = game.copy()
    steps = _steps_from(replay, line, 0)
    if steps is None:
        return line
    i = 0
    while i < len(line):
        shorter = None
        first = steps[i]
        if first is not None:
            src, dst, cards = first
            for j in range(i + 1, len(line)):
                if steps[j] != (dst, src, cards):
                    continue
                if late():
                    return line
                candidate = line[:i] + line[i + 1 : j] + line[j + 1 :]
                if wins(replay, candidate[i:]):
                    shorter = candidate
                    break
        rest = None if shorter is None else _steps_from(replay, shorter, i)
        if shorter is not None and rest is not None:
            line, steps = shorter, steps[:i] + rest
            continue  # the move now at ``i`` may have a reverse of its own
        replay.apply(line[i])
        i += 1
    return line


def _steps_from(
    game: ColumnGame, line: list[str], i: int
) -> list[tuple[int, int, tuple[int, ...]] | None] | None:
    """The ``_column_step`` of each move of ``line`` from move ``i`` on, the first made from ``game``'s
    position (left unchanged); None when a move does not replay."""
    replay = game.copy()
    steps: list[tuple[int, int, tuple[int, ...]] | None] = []
    try:
        for move in line[i:]:
            steps.append(_column_step(replay, move))
            replay.apply(move)
    except IllegalMove:
        return None
    return steps

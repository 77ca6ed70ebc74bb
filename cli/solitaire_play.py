"""``barbu solitaire play GAME``: play a solitaire game at a plain line prompt (no full-screen terminal
needed, and it reads moves from a pipe as well as from a person)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TextIO

from engine.solitaire import IllegalMove, RecordError, new_game
from engine.solitaire.base import Game
from engine.solitaire.hints import HintLine, advise_within, hint_text, position_key
from engine.solitaire.winnable import is_winnable, pick_winnable

#: Seconds the solver may search for one hint.
HINT_BUDGET = 2.0

HELP = """Moves are written as in the records: s (turn the stock), t3>t5, w>f, t1>f2, s>t4, t1>t2*3,
p7.1+w (two cards totalling 13), p7.1 (a King alone). Commands:
  l  list the legal moves      h  hint               a  safe moves to the foundations
  u  undo                      r  redo               ?  this help
  q  quit (with --out, the record so far is written)"""


def run_play(args: argparse.Namespace, options: dict[str, object]) -> int:
    """Play ``args.game`` from ``args.seed`` (random when absent; with ``args.winnable`` one the solver proved
    winnable) on stdin/stdout; 0 when the session ends (won, lost, or quit), 1 for a bad game option or a
    winnable deal that cannot be had."""
    winnable = bool(getattr(args, "winnable", False))
    try:
        seed = args.seed
        if seed is None and winnable:
            seed = pick_winnable(args.game, options, random.SystemRandom())
            if seed is None:
                raise RecordError(
                    "options",
                    f"no deal of {args.game} with these options is known winnable: play it without --winnable"
                    " (a server finds winnable deals for any options: open it there)",
                )
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        game = new_game(args.game, options, seed=seed)
        if winnable and not is_winnable(game):
            raise RecordError("seed", f"deal {seed} of {args.game} is not one the solver proved winnable")
    except RecordError as err:
        print(str(err), file=sys.stderr)
        return 1
    note = " (winnable)" if is_winnable(game) else ""
    print(f"{args.game}, seed {seed}{note}. Type ? for help.")
    play_session(game, sys.stdin, sys.stdout)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(game.to_record(), f)
            f.write("\n")
        print(f"record written to {args.out}")
    return 0


def play_session(game: Game, read: TextIO, write: TextIO) -> None:
    """Show ``game``, read one command or move a line from ``read`` until it is over or the player quits."""
    print(game.render(), file=write)
    hints = HintLine()
    while not game.over:
        write.write(f"move {game.moves + 1}> ")
        write.flush()
        line = read.readline()
        if not line:
            print(file=write)
            return
        command = line.strip()
        if command in ("q", "quit"):
            return
        if not command:
            continue
        print(_command(game, command, hints), file=write)
    if game.won:
        print(f"Won in {game.moves} moves.", file=write)
    else:
        print(f"No moves left: the game is lost after {game.moves} moves.", file=write)


def _command(game: Game, command: str, hints: HintLine) -> str:
    """Carry out one line and say what happened (the layout after a change, or why nothing changed);
    ``hints`` keeps the winning line of the hints between commands."""
    if command in ("?", "help"):
        return HELP
    if command == "l":
        return " ".join(game.legal_moves()) or "no legal move"
    if command == "h":
        return _hint(game, hints)
    if command in ("u", "r"):
        done = game.undo() if command == "u" else game.redo()
        if done is None:
            return f"nothing to {'undo' if command == 'u' else 'redo'}"
        return game.render()
    if command == "a":
        moved = game.auto_moves()
        return game.render() if moved else "no safe move to the foundations"
    try:
        game.apply(command)
    except IllegalMove as err:
        return f"refused: {err.rule}"
    return game.render()


def _hint(game: Game, line: HintLine) -> str:
    """The hint for the position (``engine.solitaire.hints``): from the kept winning line, else a search of
    ``HINT_BUDGET`` seconds; a hint without a move offers undo."""
    key = position_key(game)
    hint = line.known(game.history, key)
    if hint is None:
        hint = advise_within(game, HINT_BUDGET, lost=line.lost_keys())
        line.keep(game.history, key, hint)
    fresh = not game.moves or hint.from_start
    words = hint_text(hint.status, hint.move, fresh=fresh, undo=hint.undo)
    return f"{words} (u: undo)" if hint.move is None and not fresh else words

"""``barbu solitaire``: deal, replay and solve the solitaire games (``docs/rules/solitaire.md``).

Sub-commands:
    ``deal GAME [--seed N] [--option K=V ...]``: print the layout as text.
    ``replay FILE``: print the state after the record's moves as JSON (``docs/formats.md``), or one line on
        stderr naming the 0-based move index, the move and the rule broken (or the malformed field).
    ``play GAME [--seed N] [--winnable] [--out FILE] [--option K=V ...]``: play at a line prompt.
    ``solve (FILE | --game G --seed N [--option K=V ...]) [--timeout S]``: print ``solvable`` and a winning
        ``solitaire/1`` record, ``unsolvable``, or ``unknown``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from cli.args import seconds
from cli.textfile import read_text
from engine.jsontext import JsonTextError
from engine.solitaire import (
    GAMES,
    MAX_SEED,
    IllegalMove,
    Outcome,
    RecordError,
    from_record,
    new_game,
    parse_record,
    solve,
)
from engine.solitaire.base import Game
from engine.solitaire.lines import shorten

_SOLVE_HELP = """Search for a win from a record's last position, or from a fresh deal.
Output: the first line is the verdict, one of
  solvable     a win exists; the second line is a solitaire/1 record (JSON, one line): the input's game,
               options and deck or seed, with the winning moves appended after the record's own moves,
               so `barbu solitaire replay` on it prints a state with "won": true (the solver's line with
               its detours cut, as a hint's: no card moved and later moved back for nothing);
  unsolvable   the search went through every reachable position: no win exists;
  unknown      the timeout came first.
Exit status 0 for any verdict; 1 for a refused record or option, or for FILE and --game given together
(or neither); 2 for an unreadable file, or for an argument the parser refuses (an unknown flag or game,
a bad --seed or --timeout), after a usage line."""

#: The longest ``solve --timeout``: a day, in seconds.
_MAX_TIMEOUT = 86400


def _seed(text: str) -> int:
    """An argparse type: a deal's seed, an integer from 0 to ``engine.solitaire.MAX_SEED`` (2**53)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text} must be from 0 to 2**53 ({MAX_SEED})")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``solitaire`` and its sub-commands (``deal``, ``replay``, ``solve``) to the ``barbu`` parser."""
    p = sub.add_parser(
        "solitaire",
        help="deal, replay and solve solitaire games",
        description="Solitaire games: " + " ".join(GAMES),
    )
    games = p.add_subparsers(dest="solitaire_command", required=True, metavar="SUBCOMMAND")

    deal = games.add_parser("deal", help="print a game's layout", description="Print the layout of a deal.")
    deal.add_argument("game", metavar="GAME", choices=list(GAMES), help="one of: " + " ".join(GAMES))
    deal.add_argument("--seed", type=_seed, help="the deal's seed (default: a random one, printed)")
    _add_option_arg(deal)
    deal.set_defaults(func=run_deal)

    replay = games.add_parser(
        "replay",
        help="check a solitaire/1 record and print the final state",
        description="Replay a solitaire/1 record and print the state after its last move as JSON. A refused "
        "record: one line on stderr (the 0-based move index, the move and the rule broken, or the malformed "
        "field and why) and exit status 1; an unreadable file: exit status 2.",
    )
    replay.add_argument("file", metavar="FILE", help="the record file, or - for standard input")
    replay.set_defaults(func=run_replay)

    play = games.add_parser(
        "play",
        help="play a game at a line prompt",
        description="Play GAME at a line prompt: type moves (t3>t5, s, w>f ...) or ? for the commands.",
    )
    play.add_argument("game", metavar="GAME", choices=list(GAMES), help="one of: " + " ".join(GAMES))
    play.add_argument("--seed", type=_seed, help="the deal's seed (default: a random one, printed)")
    play.add_argument("--out", metavar="FILE", help="write the game's solitaire/1 record here at the end")
    play.add_argument(
        "--winnable",
        action="store_true",
        help="deal only a deal the solver proved winnable (with --seed: refuse a seed not proved so)",
    )
    _add_option_arg(play)
    play.set_defaults(func=run_play)

    solver = games.add_parser(
        "solve",
        help="search for a win",
        description=_SOLVE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solver.add_argument(
        "file", metavar="FILE", nargs="?", help="a solitaire/1 record, or - for standard input"
    )
    solver.add_argument(
        "--game", choices=list(GAMES), metavar="GAME", help="deal this game instead of a FILE"
    )
    solver.add_argument("--seed", type=_seed, help="the deal's seed (with --game)")
    _add_option_arg(solver)
    solver.add_argument(
        "--timeout",
        type=seconds(0, _MAX_TIMEOUT, above_low=True),
        default=60.0,
        metavar="S",
        help=f"seconds before answering unknown (more than 0, at most {_MAX_TIMEOUT}; default 60)",
    )
    solver.set_defaults(func=run_solve)


def _add_option_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="K=V",
        help="a named game option, e.g. draw=3, kings=stay, build=any-suit (V is read as JSON if it can be)",
    )


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["draw=3", "kings=stay"]`` as ``{"draw": 3, "kings": "stay"}``; values are JSON when they parse.

    Raises:
        RecordError: field ``options``, for a pair without ``=``.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if not eq or not key:
            raise RecordError("options", f"{pair!r} is not K=V")
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


def _read(path: str) -> str:
    """The text of ``path`` (``-``: stdin); raises ``OSError``, or ``RecordError`` for bytes that are not UTF-8."""
    try:
        return read_text(path)
    except JsonTextError as err:
        raise RecordError("record", str(err)) from None


def _load(path: str) -> tuple[dict[str, Any], Game]:
    """The record of ``path`` and the game it plays (raises ``OSError``, ``RecordError``, ``IllegalMove``)."""
    record = parse_record(_read(path))
    return record, from_record(record)


def _refused(err: RecordError | IllegalMove) -> int:
    print(str(err).replace("\n", " "), file=sys.stderr)
    return 1


def run_deal(args: argparse.Namespace) -> int:
    """Print the layout of ``args.game`` dealt from ``args.seed``; 0, or 1 for a bad option."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    try:
        game = new_game(args.game, parse_options(args.option), seed=seed)
    except RecordError as err:
        return _refused(err)
    print(f"Seed: {seed}")
    print(game.render())
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Play ``args.game`` at a line prompt (:mod:`cli.solitaire_play`)."""
    from cli.solitaire_play import run_play as play

    try:
        options = parse_options(args.option)
    except RecordError as err:
        return _refused(err)
    return play(args, options)


def run_replay(args: argparse.Namespace) -> int:
    """Replay ``args.file``; print the final state as JSON. 0 valid, 1 refused, 2 unreadable."""
    try:
        _, game = _load(args.file)
    except OSError as err:
        print(f"{args.file}: cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    except (RecordError, IllegalMove) as err:
        return _refused(err)
    print(json.dumps(game.state()))
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """Solve a record or a fresh deal; print the verdict (and a winning record). 0, 1 refused, 2 unreadable."""
    try:
        if args.file is not None:
            if args.game is not None or args.seed is not None or args.option:
                raise RecordError("arguments", "give either FILE or --game/--seed/--option, not both")
            record, game = _load(args.file)
        else:
            if args.game is None or args.seed is None:
                raise RecordError("arguments", "give a FILE, or --game and --seed")
            game = new_game(args.game, parse_options(args.option), seed=args.seed)
            record = game.to_record()
    except OSError as err:
        print(f"{args.file}: cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    except (RecordError, IllegalMove) as err:
        return _refused(err)
    result = solve(game, timeout=args.timeout)
    print(result.outcome.value)
    if result.outcome is Outcome.SOLVABLE:
        winning = dict(record)
        winning["moves"] = list(record.get("moves", [])) + shorten(game, result.moves)
        print(json.dumps(winning))
    return 0

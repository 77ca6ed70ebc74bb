"""``barbu selfplay``: whole matches between built-in bots, written as ``barbu-match/1`` records."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from client.sheet import score_sheet
from engine.barbu import POLICIES, Match, PolicySpecError, make_policy, parse_policy_spec
from engine.cards import SEATS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``selfplay`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "selfplay",
        help="play whole matches between built-in bots",
        description="Play N matches between built-in bots. Prints each match's totals and winner (and, with "
        "--sheet or a single match, the score sheet); --out writes the barbu-match/1 records (one JSON object "
        "a line when N > 1).",
    )
    p.add_argument("--matches", type=int, default=1, metavar="N", help="how many matches (default 1)")
    p.add_argument(
        "--seed", type=int, default=1, metavar="S", help="seed of the first match; match i uses S+i"
    )
    p.add_argument("--out", metavar="FILE", help="write the match records here")
    p.add_argument(
        "--players",
        default="heuristic,heuristic,heuristic,heuristic",
        metavar="P,P,P,P",
        help=f"the policy specs of N,E,S,W (NAME[:KEY=VALUE...], NAME one of {', '.join(POLICIES)}, e.g. "
        "search:playouts=200); default heuristic for all",
    )
    p.add_argument("--sheet", action="store_true", help="print every match's score sheet")
    p.set_defaults(func=run)


def play_match(seed: int, policies: list[str]) -> Match:
    """A full match with ``seed`` between the named policies (by seat N, E, S, W)."""
    match = Match.new(seed)
    bots = [make_policy(name, seed * 4 + s) for s, name in enumerate(policies)]
    while not match.over:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
    return match


def run(args: argparse.Namespace) -> int:
    """Play the matches; exit status 0, 2 on bad arguments, or 1 (one line on stderr, before any match is
    played) when ``--out`` cannot be written. An existing ``--out`` file is replaced only once every match
    is played."""
    policies = args.players.split(",")
    if len(policies) != 4:
        print(
            f"barbu: --players: need four policies ({', '.join(POLICIES)}) separated by commas",
            file=sys.stderr,
        )
        return 2
    try:
        policies = [str(parse_policy_spec(p)) for p in policies]
    except PolicySpecError as exc:
        print(f"barbu: --players: {exc}", file=sys.stderr)
        return 2
    if args.matches < 1:
        print("barbu: --matches: must be at least 1", file=sys.stderr)
        return 2
    out = None
    if args.out:
        # Opened before the first match, so a path that cannot be written fails at once; in append mode, so
        # an existing file is kept as it was until the records are ready to replace it.
        existed = os.path.exists(args.out)
        try:
            out = open(args.out, "a", encoding="utf-8")  # noqa: SIM115 - open across the matches, closed below
        except OSError as exc:
            print(f"barbu: {args.out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
            return 1
    try:
        records = _play(args, policies)
    except BaseException:
        if out is not None:
            out.close()
            if not existed:
                os.unlink(args.out)
        raise
    if out is not None:
        try:
            with out:
                if os.path.isfile(args.out):  # a device such as /dev/null has nothing to truncate
                    out.seek(0)
                    out.truncate()
                if len(records) == 1:
                    json.dump(records[0], out, indent=1)
                    out.write("\n")
                else:
                    for record in records:
                        out.write(json.dumps(record) + "\n")
        except OSError as exc:
            print(f"barbu: {args.out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
            return 1
        print(f"wrote {len(records)} record(s) to {args.out}")
    return 0


def _play(args: argparse.Namespace, policies: list[str]) -> list[dict[str, Any]]:
    """Play the matches, printing each one's totals (and sheet); returns their records."""
    players = {SEATS[s]: f"bot:{p}" for s, p in enumerate(policies)}
    records = []
    for i in range(args.matches):
        match = play_match(args.seed + i, policies)
        view = match.view(None)
        if args.sheet or args.matches == 1:
            print(score_sheet(view["history"], players))
        totals = " ".join(f"{s} {match.totals[n]:+d}" for n, s in enumerate(SEATS))
        winners = ",".join(SEATS[s] for s in match.ranking()[0])
        print(f"match {i + 1} seed {args.seed + i}: {totals}  winner {winners}")
        records.append(match.to_record(players))
    return records

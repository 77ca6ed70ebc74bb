"""``barbu replay FILE``: check a ``barbu-deal/1`` or ``barbu-match/1`` record (or a file of JSON lines, one
record each) and print its result, or one line saying where and why it is refused (``shared/formats.md``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.barbu import RecordError, deal_result, match_result, read_deal, read_match


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "replay",
        help="check a Barbu deal or match record and print its scores",
        description="Check a barbu-deal/1 or barbu-match/1 record (a JSON object, or JSON lines: one record a "
        "line) against the rules and print the result as JSON, one line per record. A refused record: one "
        "line on stderr naming where, the seat, the action and the rule, and exit status 1.",
    )
    p.add_argument("file", metavar="FILE", help="the record file, or - for standard input")
    p.set_defaults(func=run)


def load_records(path: str) -> list[tuple[str, Any]]:
    """The JSON records of ``path`` (``-`` for stdin) as ``(label, object)`` pairs; the label is ``""`` for a
    single-object file or ``"line N: "`` for JSON lines.

    Raises:
        OSError: the file cannot be read.
        RecordError: the text is neither one JSON value nor JSON lines.
    """
    if path == "-":
        text = sys.stdin.read()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    try:
        return [("", json.loads(text))]
    except json.JSONDecodeError as whole:
        records: list[tuple[str, Any]] = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append((f"line {n}: ", json.loads(line)))
            except json.JSONDecodeError as err:
                first = whole if len(records) == 0 and n == 1 else err
                raise RecordError(f"line {n}", f"not JSON: {first.msg} at column {first.colno}") from None
        if not records:
            raise RecordError("", "the file holds no record") from None
        return records


def check(record: Any) -> dict[str, Any]:
    """The ``barbu replay`` output for one record, by its ``format``.

    Raises:
        RecordError: the record is malformed or breaks a rule.
    """
    fmt = record.get("format") if isinstance(record, dict) else None
    if fmt == "barbu-match/1":
        return match_result(read_match(record))
    if fmt == "barbu-deal/1":
        return deal_result(read_deal(record))
    raise RecordError("format", f"must be 'barbu-deal/1' or 'barbu-match/1', not {fmt!r}")


def run(args: argparse.Namespace) -> int:
    """Replay each record of ``args.file``; 0 when all are valid, 1 at the first refused one, 2 unreadable."""
    try:
        records = load_records(args.file)
    except OSError as err:
        print(f"{args.file}: cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    except RecordError as err:
        print(f"{args.file}: {err}", file=sys.stderr)
        return 1
    for label, record in records:
        try:
            result = check(record)
        except RecordError as err:
            print(f"{label}{err}", file=sys.stderr)
            return 1
        print(json.dumps(result))
    return 0

"""``barbu replay FILE``: check a ``barbu-deal/1`` or ``barbu-match/1`` record (or a file of JSON lines, one
record each) and print its result, or one line saying where and why it is refused (``docs/formats.md``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cli.textfile import read_text
from engine.barbu import RecordError, deal_result, match_result, read_deal, read_match
from engine.jsontext import JsonTextError, loads, show


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
    single-record file or ``"line N: "`` for JSON lines (one record a line).

    Raises:
        OSError: the file cannot be read.
        JsonTextError: the text is not UTF-8, or neither one JSON value nor JSON lines (naming the line).
    """
    text = read_text(path)
    try:
        return [("", loads(text))]
    except JsonTextError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if not lines:
            raise JsonTextError("the file holds no record") from None
        try:
            first = loads(lines[0][1])
        except JsonTextError:
            raise whole from None  # not JSON lines: report the error where the whole text breaks
        records: list[tuple[str, Any]] = [(f"line {lines[0][0]}: ", first)]
        for n, line in lines[1:]:
            try:
                records.append((f"line {n}: ", loads(line)))
            except JsonTextError as err:
                raise JsonTextError(f"line {n}: {err}") from None
        return records


def check(record: Any) -> dict[str, Any]:
    """The ``barbu replay`` output for one record, by its ``format``.

    Raises:
        RecordError: the record is malformed or breaks a rule.
    """
    if not isinstance(record, dict):
        raise RecordError("", "a record must be a JSON object")
    fmt = record.get("format")
    if fmt == "barbu-match/1":
        return match_result(read_match(record))
    if fmt == "barbu-deal/1":
        return deal_result(read_deal(record))
    raise RecordError("format", f"must be 'barbu-deal/1' or 'barbu-match/1', not {show(fmt)}")


def run(args: argparse.Namespace) -> int:
    """Check every record of ``args.file``, then print their results; 0 when all are valid, 1 (and no
    result printed) at the first refused one, 2 when the file cannot be read."""
    try:
        records = load_records(args.file)
    except OSError as err:
        print(f"{args.file}: cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    except JsonTextError as err:
        print(f"{args.file}: {err}", file=sys.stderr)
        return 1
    results = []
    for label, record in records:
        try:
            results.append(check(record))
        except RecordError as err:
            print(f"{label}{err}", file=sys.stderr)
            return 1
    for result in results:
        print(json.dumps(result))
    return 0

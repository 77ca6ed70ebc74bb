"""``barbu replay`` and ``barbu selfplay`` (``docs/formats.md``): the printed result object, one-line
refusals with a non-zero exit status, JSON lines, and self-play records that replay to the same totals."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from tests.barbu_helpers import deal_record, follow_tricks, scripted

ROOT = Path(__file__).resolve().parent.parent

EXPECTED_EXAMPLE = {
    "contract_scores": {"N": -8, "E": -6, "S": -10, "W": -2},
    "settlements": {"N": -4, "E": 4, "S": -8, "W": 8},
    "scores": {"N": -12, "E": -2, "S": -18, "W": 6},
}


def example_record() -> dict[str, Any]:
    """The rules' settlement example: No Tricks, N declarer; E doubled N, N redoubled E; W doubled S."""
    hands, cards, _ = scripted("N", follow_tricks("N", "NNNNEEEWSSSSS"))
    return deal_record(
        hands, cards, "N", "no-tricks", doubles=[("E", "N"), ("W", "S")], redoubles=[("N", "E")]
    )


def kh_record() -> dict[str, Any]:
    """A deal whose play[17] is E's KH on a diamond lead, E holding diamonds."""
    hands, cards, _ = scripted("N", follow_tricks("N", "NNNNNNSSSSWWW", suit_order="SDHC"))
    record = deal_record(hands, cards, "N", "no-tricks")
    record["play"][17] = "KH"
    return record


def write(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


def replay(path: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["replay", path])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_replay_prints_the_result_object_of_a_valid_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = replay(write(tmp_path, "deal.json", example_record()), capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert set(result) == {"contract_scores", "settlements", "scores", "tricks", "finish_order"}
    for key, value in EXPECTED_EXAMPLE.items():
        assert result[key] == value
    assert result["finish_order"] is None
    assert len(result["tricks"]) == 13
    assert all(set(t) == {"leader", "cards", "winner"} for t in result["tricks"])
    assert result["tricks"][4] == {"leader": "N", "cards": ["7H", "TH", "9H", "8H"], "winner": "E"}


def test_replay_refuses_illegal_play_with_one_line_naming_index_seat_card_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = replay(write(tmp_path, "bad.json", kh_record()), capsys)
    assert status != 0
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert re.fullmatch(r"play\[17\]:? E KH: must follow suit D", lines[0]), lines[0]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.update(colour="red"), "colour"),
        (lambda r: r["hands"]["N"].__setitem__(0, "ZZ"), "hands.N[0]"),
        (lambda r: r["hands"]["E"].pop(), "hands.E"),
        (lambda r: r["hands"]["W"].__setitem__(5, r["hands"]["S"][5]), "hands.W[5]"),
    ],
    ids=["unknown-top-level-key", "bad-card-text", "12-cards", "duplicate-card"],
)
def test_replay_malformed_record_one_line_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, field: str
) -> None:
    record = example_record()
    change(record)
    status, out, err = replay(write(tmp_path, "bad.json", record), capsys)
    assert status != 0 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(field + ":") or lines[0].startswith(field + " "), lines[0]


def test_replay_bad_json_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = replay(write(tmp_path, "bad.json", '{"format": "barbu-deal/1", '), capsys)
    assert status != 0 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert "JSON" in lines[0] and "line 1" in lines[0]


def test_replay_missing_file_exits_non_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = replay(str(tmp_path / "nope.json"), capsys)
    assert status != 0
    assert len(err.splitlines()) == 1


def test_replay_json_lines_one_result_per_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = example_record()
    text = json.dumps(record) + "\n\n" + json.dumps(record) + "\n"
    status, out, err = replay(write(tmp_path, "deals.jsonl", text), capsys)
    assert status == 0 and err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 2
    assert all(r["scores"] == EXPECTED_EXAMPLE["scores"] for r in results)


def test_replay_json_lines_prints_nothing_when_a_record_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(example_record()) + "\n" + json.dumps(kh_record()) + "\n"
    status, out, err = replay(write(tmp_path, "deals.jsonl", text), capsys)
    assert status != 0
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert "line 2" in lines[0] and "play[17]" in lines[0] and "must follow suit D" in lines[0]


def test_replay_json_lines_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(example_record()) + "\n{oops\n"
    status, _, err = replay(write(tmp_path, "deals.jsonl", text), capsys)
    assert status != 0
    lines = err.splitlines()
    assert len(lines) == 1 and "line 2" in lines[0]


def test_replay_through_a_subprocess(tmp_path: Path) -> None:
    good = write(tmp_path, "deal.json", example_record())
    bad = write(tmp_path, "bad.json", kh_record())
    barbu = ROOT / ".venv" / "bin" / "barbu"
    command = [str(barbu)] if barbu.exists() else [sys.executable, "-m", "cli.main"]
    ok = subprocess.run([*command, "replay", good], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ok.returncode == 0, ok.stderr
    result = json.loads(ok.stdout)
    for key, value in EXPECTED_EXAMPLE.items():
        assert result[key] == value
    refused = subprocess.run([*command, "replay", bad], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert refused.returncode != 0
    assert refused.stdout == ""
    assert len(refused.stderr.splitlines()) == 1
    assert "play[17]" in refused.stderr and "E KH" in refused.stderr


def test_selfplay_records_replay_with_the_same_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = str(tmp_path / "matches.jsonl")
    assert main(["selfplay", "--matches", "3", "--seed", "1", "--out", out_file]) == 0
    printed = capsys.readouterr().out
    records = [json.loads(line) for line in Path(out_file).read_text(encoding="utf-8").splitlines()]
    assert len(records) == 3
    for i, record in enumerate(records):
        assert record["format"] == "barbu-match/1"
        assert len(record["deals"]) == 28
        totals = " ".join(f"{s} {record['totals'][s]:+d}" for s in "NESW")
        assert f"match {i + 1} seed {i + 1}: {totals}" in printed
    status, out, err = replay(out_file, capsys)
    assert status == 0, err
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 3
    for record, result in zip(records, results, strict=True):
        assert result["totals"] == record["totals"]
        assert len(result["deals"]) == 28
        sums = {s: sum(d["scores"][s] for d in result["deals"]) for s in "NESW"}
        assert sums == record["totals"]


def test_replay_match_record_with_wrong_totals_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = str(tmp_path / "match.json")
    assert (
        main(
            [
                "selfplay",
                "--matches",
                "1",
                "--seed",
                "5",
                "--players",
                "random,random,random,random",
                "--out",
                out_file,
            ]
        )
        == 0
    )
    capsys.readouterr()
    record = json.loads(Path(out_file).read_text(encoding="utf-8"))
    record["totals"]["W"] += 5
    status, out, err = replay(write(tmp_path, "wrong.json", record), capsys)
    assert status != 0 and out == ""
    assert err.splitlines()[0].startswith("totals.W")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\xff\xfe{}", "not UTF-8 text"),
        (b'{"totals": 1' + b"0" * 4400 + b"}", "too many digits"),
        (b"[" * 1000 + b"]" * 1000, "nested too deeply"),
        (b'{"format": "barbu-deal/1", "format": "barbu-deal/1"}', "appears twice"),
        (b"[]", "must be a JSON object"),
    ],
)
def test_unreadable_json_gets_one_line_never_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, expected: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_pretty_printed_record_reports_the_line_where_json_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "one.json"
    assert main(["selfplay", "--matches", "1", "--seed", "2", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    broken = next(i for i, line in enumerate(lines) if line.endswith(",") and i > 5)
    lines[broken] = lines[broken][:-1]
    out.write_text("\n".join(lines))
    capsys.readouterr()
    assert main(["replay", str(out)]) == 1
    assert f"line {broken + 2} column" in capsys.readouterr().err

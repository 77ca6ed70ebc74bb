"""The ``barbu-deal/1`` and ``barbu-match/1`` readers and writers (``docs/formats.md``): every field
checked, every action replayed through the rules, errors naming where and why."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.barbu import Match, RecordError, deal_record, deal_result, match_result, read_deal, read_match
from tests.barbu_helpers import (
    DOMINOES_PASSES,
    DOMINOES_PASSES_PLAY,
    E,
    N,
    declare_and_double,
    first_card_play,
    fixed_match,
    follow_tricks,
    play_match,
    scripted,
)
from tests.barbu_helpers import deal_record as write_deal

EXAMPLE_WINNERS = "NNNNEEEWSSSSS"


def example_record() -> dict[str, Any]:
    """The rules' settlement example as a deal record: No Tricks, N declarer, N -8 E -6 S -10 W -2,
    E doubled N, N redoubled E, W doubled S."""
    hands, cards, _ = scripted("N", follow_tricks("N", EXAMPLE_WINNERS))
    return write_deal(
        hands, cards, "N", "no-tricks", doubles=[("E", "N"), ("W", "S")], redoubles=[("N", "E")]
    )


def kh_not_following_record() -> dict[str, Any]:
    """A deal whose play[17] is E playing KH on a diamond lead while holding diamonds."""
    hands, cards, _ = scripted("N", follow_tricks("N", "NNNNNNSSSSWWW", suit_order="SDHC"))
    record = write_deal(hands, cards, "N", "no-tricks")
    assert cards[16][1] == "D" and "KH" in record["hands"]["E"]
    record["play"][17] = "KH"
    return record


def refusal(record: Any) -> RecordError:
    with pytest.raises(RecordError) as err:
        read_deal(record)
    return err.value


def test_settlement_example_record_result() -> None:
    result = deal_result(read_deal(example_record()))
    assert result["contract_scores"] == {"N": -8, "E": -6, "S": -10, "W": -2}
    assert result["settlements"] == {"N": -4, "E": 4, "S": -8, "W": 8}
    assert result["scores"] == {"N": -12, "E": -2, "S": -18, "W": 6}
    assert result["finish_order"] is None
    assert len(result["tricks"]) == 13
    assert result["tricks"][0] == {"leader": "N", "cards": ["AS", "KS", "QS", "JS"], "winner": "N"}
    assert [t["winner"] for t in result["tricks"]] == list(EXAMPLE_WINNERS)
    assert set(result) == {"contract_scores", "settlements", "scores", "tricks", "finish_order"}


def test_record_mutual_doubles_count_as_redoubled() -> None:
    record = example_record()
    record["doubles"] = [["E", "N"], ["N", "E"]]
    record["redoubles"] = []
    # N is the declarer and doubles nobody: use S and E instead
    record["doubles"] = [["E", "S"], ["S", "E"]]
    result = deal_result(read_deal(record))
    assert result["settlements"] == {"N": 0, "E": 8, "S": -8, "W": 0}


def test_record_doubles_and_redoubles_optional() -> None:
    record = example_record()
    del record["doubles"], record["redoubles"]
    assert deal_result(read_deal(record))["settlements"] == {"N": 0, "E": 0, "S": 0, "W": 0}


def test_dominoes_record_result_has_no_tricks_and_a_finish_order() -> None:
    plays = " ".join(DOMINOES_PASSES_PLAY).split()
    record = write_deal(DOMINOES_PASSES, plays, "N", "dominoes", start_rank="7")
    result = deal_result(read_deal(record))
    assert result["tricks"] == []
    assert result["finish_order"] == ["N", "W", "E", "S"]
    assert result["contract_scores"] == {"N": 45, "E": 5, "S": -5, "W": 20}


def test_engine_writer_round_trips() -> None:
    hand = read_deal(example_record())
    written = deal_record(hand, hand.variants)
    assert json.loads(json.dumps(written)) == written
    assert deal_result(read_deal(written)) == deal_result(hand)
    assert written["play"] == example_record()["play"]


def test_illegal_play_names_index_seat_card_and_rule() -> None:
    err = refusal(kh_not_following_record())
    assert err.where == "play[17]"
    assert str(err) == "play[17] E KH: must follow suit D"
    assert "\n" not in str(err)


def test_card_after_early_end_is_an_error() -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", "NNNEWWWWSSSSS"))
    record = write_deal(hands, cards[:17], "N", "barbu")  # Barbu ends after the 4th trick: 16 cards
    err = refusal(record)
    assert err.where == "play[16]"
    assert "over" in str(err)
    record["play"] = cards[:16]
    assert deal_result(read_deal(record))["scores"] == {"N": 0, "E": -20, "S": 0, "W": 0}


def test_missing_card_is_an_error() -> None:
    record = example_record()
    record["play"] = record["play"][:-1]
    err = refusal(record)
    assert err.where == "play"
    assert "not finished" in str(err)


def test_dominoes_out_of_sequence_card_instead_of_pass_is_an_error() -> None:
    plays = " ".join(DOMINOES_PASSES_PLAY).split()
    plays[1] = "2S"
    record = write_deal(DOMINOES_PASSES, plays, "N", "dominoes", start_rank="7")
    err = refusal(record)
    assert err.where == "play[1]"
    assert "E 2S" in str(err) and "does not fit a row" in str(err)


def test_dominoes_pass_with_a_playable_card_is_an_error() -> None:
    plays = " ".join(DOMINOES_PASSES_PLAY).split()
    plays[0] = "pass"
    record = write_deal(DOMINOES_PASSES, plays, "N", "dominoes", start_rank="7")
    err = refusal(record)
    assert err.where == "play[0]"
    assert "N pass" in str(err)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r.update(colour="red"), "colour"),
        (lambda r: r.update(format="barbu-deal/2"), "format"),
        (lambda r: r["hands"]["N"].__setitem__(3, "XS"), "hands.N[3]"),
        (lambda r: r["hands"]["E"].pop(), "hands.E"),
        (lambda r: r["hands"]["S"].__setitem__(0, r["hands"]["N"][0]), "hands.S[0]"),
        (lambda r: r["hands"].pop("W"), "hands"),
        (lambda r: r.update(declarer="X"), "declarer"),
        (lambda r: r.update(contract="misere"), "contract"),
        (lambda r: r.update(trump="H"), "trump"),
        (lambda r: r.update(variants={"speed": "fast"}), "variants.speed"),
        (lambda r: r.update(variants={"trump-duty": "sometimes"}), "variants.trump-duty"),
        (lambda r: r.update(doubles=[["N", "E"]]), "doubles"),
        (lambda r: r.update(doubles=[["E", "E"]]), "doubles"),
        (lambda r: r.update(doubles="E N"), "doubles"),
        (lambda r: r.update(redoubles=[["S", "E"]]), "redoubles"),
        (lambda r: r.update(play="AS"), "play"),
        (lambda r: r["play"].__setitem__(0, "1S"), "play[0]"),
    ],
    ids=[
        "unknown-key",
        "format",
        "bad-card-text",
        "12-cards",
        "duplicate-card",
        "missing-seat",
        "bad-declarer",
        "unknown-contract",
        "trump-outside-trumps",
        "unknown-variant",
        "bad-variant-value",
        "declarer-doubles",
        "double-oneself",
        "doubles-not-a-list",
        "redouble-without-double",
        "play-not-a-list",
        "bad-play-text",
    ],
)
def test_malformed_deal_record_names_the_field(change: Any, where: str) -> None:
    record = example_record()
    change(record)
    err = refusal(record)
    assert err.where == where or err.where.startswith(where + "[") or err.where.startswith(where + ".")
    assert "\n" not in str(err)


def test_trumps_record_doubling_a_non_declarer_is_refused() -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", EXAMPLE_WINNERS), trump="H")
    record = write_deal(hands, cards, "N", "trumps", trump="H", doubles=[("E", "S")])
    err = refusal(record)
    assert err.where == "doubles" and "only the declarer" in str(err)
    record["doubles"] = [["E", "N"], ["S", "N"]]
    record["redoubles"] = [["N", "E"]]
    result = deal_result(read_deal(record))
    assert result["contract_scores"] == {"N": 20, "E": 15, "S": 20, "W": 10}
    # N/E redoubled: 2 * (20 - 15); N/S: 20 - 20
    assert result["settlements"] == {"N": 10, "E": -10, "S": 0, "W": 0}


def test_readers_accept_10_and_lower_case_cards() -> None:
    record = example_record()
    record["hands"] = {k: [c.lower().replace("t", "10") for c in v] for k, v in record["hands"].items()}
    record["play"] = [c.lower() for c in record["play"]]
    assert deal_result(read_deal(record))["scores"] == {"N": -12, "E": -2, "S": -18, "W": 6}


def test_variants_in_a_deal_record_apply() -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", "NNNEWWWWSSSSS"))
    record = write_deal(hands, cards, "N", "barbu", variants={"early-end": False})
    assert len(deal_result(read_deal(record))["tricks"]) == 13
    record["variants"] = {}
    assert refusal(record).where == "play[16]"


# ---------------------------------------------------------------------- match records


def seven_hand_record() -> dict[str, Any]:
    match = fixed_match(hands_total=7)
    for contract in ("no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu", "trumps", "dominoes"):
        declare_and_double(match, contract)
        first_card_play(match)
    assert match.over
    return match.to_record({"N": "a", "E": "b", "S": "c", "W": "d"})


def test_match_record_replays_to_the_same_totals() -> None:
    record = seven_hand_record()
    match = Match.from_record(copy.deepcopy(record))
    assert {"NESW"[s]: match.totals[s] for s in range(4)} == record["totals"]
    assert match_result(match)["totals"] == record["totals"]
    assert len(match_result(match)["deals"]) == 7


def test_match_record_from_a_selfplay_match() -> None:
    match = play_match(11, ["heuristic", "random", "heuristic", "random"])
    record = json.loads(json.dumps(match.to_record()))
    assert read_match(record).totals == match.totals


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r["deals"][3].update(declarer="E"), "deals[3].declarer"),
        (lambda r: r.update(first_declarer="E"), "deals[0].declarer"),
        (lambda r: r["totals"].update(N=r["totals"]["N"] + 1), "totals.N"),
        (lambda r: r.update(extra=1), "extra"),
        (lambda r: r["deals"][2].update(colour="red"), "deals[2].colour"),
        (lambda r: r["deals"][4]["hands"]["N"].pop(), "deals[4].hands.N"),
        (lambda r: r["deals"][1]["play"].append("AS"), "deals[1].play"),
        (lambda r: r.update(players={"N": "a"}), "players"),
        (lambda r: r.update(deals=r["deals"] * 5), "deals"),
        (lambda r: r["deals"][1].update(variants={"early-end": False}), "deals[1].variants"),
    ],
    ids=[
        "declarer-out-of-turn",
        "wrong-first-declarer",
        "totals-mismatch",
        "unknown-key",
        "deal-unknown-key",
        "deal-12-cards",
        "deal-card-after-end",
        "players",
        "over-28-deals",
        "deal-variants-differ",
    ],
)
def test_malformed_match_record_names_the_field(change: Any, where: str) -> None:
    record = seven_hand_record()
    change(record)
    with pytest.raises(RecordError) as err:
        read_match(record)
    assert err.value.where == where or err.value.where.startswith(where + "[")


def test_match_record_with_a_contract_declared_twice_is_refused() -> None:
    record = seven_hand_record()
    record["deals"][6] = copy.deepcopy(record["deals"][0])
    record.pop("totals")
    with pytest.raises(RecordError) as err:
        read_match(record)
    assert err.value.where == "deals[6].contract"
    assert "already played" in str(err.value)


def test_match_record_may_stop_before_28_deals() -> None:
    record = seven_hand_record()
    record["deals"] = record["deals"][:3]
    record.pop("totals")
    match = read_match(record)
    assert len(match.history) == 3 and match.over
    assert match.hand.declarer == N
    assert E == 1


@pytest.mark.parametrize("trump", [5, None, ["H"]])
def test_non_text_trump_is_refused_naming_the_field(trump: Any) -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", EXAMPLE_WINNERS), trump="H")
    record = write_deal(hands, cards, "N", "trumps", trump="H")
    record["trump"] = trump
    err = refusal(record)
    assert err.where == "trump"


@pytest.mark.parametrize("start_rank", [7, None, ["7"]])
def test_non_text_start_rank_is_refused_naming_the_field(start_rank: Any) -> None:
    record = example_record()
    record.update(contract="dominoes", start_rank=start_rank, doubles=[], redoubles=[], play=[])
    err = refusal(record)
    assert err.where == "start_rank"


def test_match_record_with_no_finished_hand_is_accepted() -> None:
    record = Match.new(3).to_record({"N": "a", "E": "b", "S": "c", "W": "d"})
    assert record["deals"] == []
    match = read_match(record)
    assert match.totals == [0, 0, 0, 0] and match.history == []


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("doubles", None, "doubles"),
        ("redoubles", None, "redoubles"),
        ("variants", None, "variants"),
        ("declarer", "n", "declarer"),
        ("declarer", " N", "declarer"),
    ],
)
def test_null_and_loose_values_are_refused_not_guessed(field: str, value: Any, where: str) -> None:
    record = example_record()
    record[field] = value
    assert refusal(record).where == where


def test_cards_with_spaces_are_refused() -> None:
    record = example_record()
    record["play"][0] = record["play"][0][0] + " " + record["play"][0][1]
    assert refusal(record).where == "play[0]"


def test_totals_must_be_whole_numbers() -> None:
    record = Match.new(3).to_record()
    record["totals"] = {"N": 0.0, "E": 0, "S": 0, "W": 0}
    with pytest.raises(RecordError) as err:
        read_match(record)
    assert err.value.where == "totals.N"

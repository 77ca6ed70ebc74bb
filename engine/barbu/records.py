"""Reading, checking and writing the ``barbu-deal/1`` and ``barbu-match/1`` records (``docs/formats.md``).

Readers replay every action through the engine, so a record is accepted only if the rules accept each of
its actions; anything else raises :class:`RecordError` naming where (``deals[3].play[17]``), the seat, the
action and the rule broken. Unknown keys are an error; nothing is guessed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.barbu.actions import PASS, Action, ChooseContract, Double, IllegalAction, Play, Redouble
from engine.barbu.hand import CONTRACT, DOUBLE, OVER, REDOUBLE, Hand
from engine.barbu.rules import CONTRACTS, DOMINOES, HANDS_PER_MATCH, TRUMPS, RuleSetError, Variants
from engine.barbu.scoring import settle
from engine.cards import (
    DECK_SIZE,
    RANKS,
    SEATS,
    SUITS,
    NotationError,
    card_text,
    parse_card,
    parse_rank,
    parse_seat,
    parse_suit,
    texts,
)
from engine.jsontext import show

if TYPE_CHECKING:
    from engine.barbu.match import Match

DEAL_FORMAT = "barbu-deal/1"
MATCH_FORMAT = "barbu-match/1"
_DEAL_KEYS = {
    "format",
    "variants",
    "declarer",
    "hands",
    "contract",
    "trump",
    "start_rank",
    "doubles",
    "redoubles",
    "play",
}
_MATCH_KEYS = {"format", "variants", "players", "first_declarer", "deals", "totals"}


class RecordError(ValueError):
    """A record the reader refuses. ``where`` is the path of the offending field (``deals[3].play[17]``);
    ``str()`` is the one-line report: where, then the seat and action when there is one, then the rule."""

    def __init__(self, where: str, message: str, action: str = "") -> None:
        head = f"{where} {action}" if action else where
        super().__init__(f"{head}: {message}" if head else message)
        self.where = where


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix and not name.startswith("[") else prefix + name


def _seat(value: Any, where: str) -> int:
    try:
        return parse_seat(value)
    except NotationError as err:
        raise RecordError(where, str(err)) from None


def _variants(record: dict[str, Any], where: str) -> Variants:
    if "variants" not in record:
        return Variants()
    value = record["variants"]
    if not isinstance(value, dict):
        raise RecordError(_join(where, "variants"), "must be an object of switches (or absent)")
    try:
        return Variants.from_dict(value)
    except RuleSetError as err:
        raise RecordError(
            _join(where, f"variants.{err.key}" if err.key else "variants"), str(err).split(": ", 1)[1]
        ) from None


def _check_keys(obj: Any, allowed: set[str], fmt: str, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise RecordError(where, f"a {fmt} record must be a JSON object")
    for key in obj:
        if key not in allowed:
            raise RecordError(_join(where, str(key)), f"unknown field in a {fmt} record")
    if obj.get("format") != fmt:
        raise RecordError(_join(where, "format"), f"must be {fmt!r}, not {show(obj.get('format'))}")
    return obj


def read_hands(deal: Any, where: str) -> list[int]:
    """The four dealt hands of a deal record (bitmasks by seat): 13 distinct cards each, 52 in all.

    Raises:
        RecordError: missing seats, a card that is not a card, a wrong count, or a card dealt twice.
    """
    hands = deal.get("hands") if isinstance(deal, dict) else None
    here = _join(where, "hands")
    if not isinstance(hands, dict) or sorted(hands) != sorted(SEATS):
        raise RecordError(here, "must map each of N E S W to its 13 cards")
    out = [0, 0, 0, 0]
    seen = 0
    for s in range(4):
        cards = hands[SEATS[s]]
        if not isinstance(cards, list) or len(cards) != 13:
            raise RecordError(f"{here}.{SEATS[s]}", "must be a list of 13 cards")
        for i, text in enumerate(cards):
            try:
                c = parse_card(text)
            except NotationError as err:
                raise RecordError(f"{here}.{SEATS[s]}[{i}]", str(err)) from None
            if (seen >> c) & 1:
                raise RecordError(f"{here}.{SEATS[s]}[{i}]", f"{card_text(c)} is dealt twice")
            seen |= 1 << c
            out[s] |= 1 << c
    assert seen.bit_count() == DECK_SIZE
    return out


def _pairs(deal: dict[str, Any], key: str, where: str) -> list[tuple[int, int]]:
    if key not in deal:
        return []
    value = deal[key]
    if not isinstance(value, list):
        raise RecordError(where, "must be a list of [seat, seat] pairs")
    out: list[tuple[int, int]] = []
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise RecordError(f"{where}[{i}]", "must be a [seat, seat] pair")
        a, b = _seat(pair[0], f"{where}[{i}]"), _seat(pair[1], f"{where}[{i}]")
        if (a, b) in out:
            raise RecordError(f"{where}[{i}]", f"{SEATS[a]} {SEATS[b]} is listed twice")
        out.append((a, b))
    return out


def _apply(hand: Hand, action: Action, where: str, what: str) -> None:
    seat = hand.to_move
    try:
        hand.apply(seat if seat is not None else hand.declarer, action)
    except IllegalAction as err:
        raise RecordError(where, str(err), f"{SEATS[seat] if seat is not None else '-'} {what}") from None


def replay_into(hand: Hand, deal: Any, where: str = "") -> Hand:
    """Play a deal record's contract, doubles, redoubles and play into ``hand`` (fresh, in its contract phase).

    Raises:
        RecordError: any field malformed or any action the rules refuse.
    """
    assert hand.phase == CONTRACT
    contract = deal.get("contract")
    if contract not in CONTRACTS:
        raise RecordError(_join(where, "contract"), f"{show(contract)} is not one of {', '.join(CONTRACTS)}")
    trump = start = None
    try:
        if "trump" in deal:
            if not isinstance(deal["trump"], str):
                raise RecordError(
                    _join(where, "trump"), f"not a suit: {show(deal['trump'])} (suits are {SUITS})"
                )
            trump = parse_suit(deal["trump"])
        if "start_rank" in deal:
            if not isinstance(deal["start_rank"], str):
                raise RecordError(
                    _join(where, "start_rank"), f'not a rank: {show(deal["start_rank"])} (a text, e.g. "7")'
                )
            start = parse_rank(deal["start_rank"])
    except NotationError as err:
        raise RecordError(_join(where, "trump" if "suit" in str(err) else "start_rank"), str(err)) from None
    if (trump is None) == (contract == TRUMPS):
        raise RecordError(_join(where, "trump"), "present for Trumps (a suit), and only for Trumps")
    if (start is None) == (contract == DOMINOES):
        raise RecordError(_join(where, "start_rank"), "present for Dominoes (a rank), and only for Dominoes")
    _apply(hand, ChooseContract(contract, trump, start), _join(where, "contract"), contract)

    doubles = _pairs(deal, "doubles", _join(where, "doubles"))
    for a, _b in doubles:
        if a == hand.declarer:
            raise RecordError(
                _join(where, "doubles"), f"{SEATS[a]} is the declarer, and the declarer doubles nobody"
            )
    while hand.phase == DOUBLE:
        seat = hand.to_move
        targets = frozenset(b for a, b in doubles if a == seat)
        names = " ".join(SEATS[t] for t in sorted(targets)) or "nobody"
        _apply(hand, Double(targets), _join(where, "doubles"), f"doubles {names}")

    redoubles = _pairs(deal, "redoubles", _join(where, "redoubles"))
    done: set[tuple[int, int]] = set()
    while hand.phase == REDOUBLE:
        seat = hand.to_move
        targets = frozenset(b for a, b in redoubles if a == seat)
        names = " ".join(SEATS[t] for t in sorted(targets)) or "nobody"
        _apply(hand, Redouble(targets), _join(where, "redoubles"), f"redoubles {names}")
        done.update((a, b) for a, b in redoubles if a == seat)
    for i, (a, b) in enumerate(redoubles):
        if (a, b) not in done:
            raise RecordError(
                f"{_join(where, 'redoubles')}[{i}]",
                f"{SEATS[a]} redoubles {SEATS[b]}: only a player doubled by {SEATS[b]} (and not doubling back) may",
            )

    play = deal.get("play")
    here = _join(where, "play")
    if not isinstance(play, list):
        raise RecordError(here, "must be a list of cards (and 'pass' in Dominoes)")
    for i, item in enumerate(play):
        if hand.phase == OVER:
            raise RecordError(f"{here}[{i}]", "the hand is already over", str(item))
        seat = hand.to_move
        assert seat is not None
        action: Action
        if item == "pass":
            action = PASS
        else:
            try:
                action = Play(parse_card(item))
            except NotationError as err:
                raise RecordError(f"{here}[{i}]", str(err), f"{SEATS[seat]} {show(item)}") from None
        try:
            hand.apply(seat, action)
        except IllegalAction as err:
            raise RecordError(f"{here}[{i}]", str(err), f"{SEATS[seat]} {item}") from None
    if hand.phase != OVER:
        raise RecordError(here, f"the hand is not finished: {SEATS[hand.to_move or 0]} is still to play")
    return hand


def read_deal(deal: Any) -> Hand:
    """Check a ``barbu-deal/1`` record and return the finished :class:`~engine.barbu.hand.Hand`.

    Raises:
        RecordError: see the module docstring.
    """
    _check_keys(deal, _DEAL_KEYS, DEAL_FORMAT, "")
    variants = _variants(deal, "")
    declarer = _seat(deal.get("declarer"), "declarer")
    return replay_into(Hand(declarer, read_hands(deal, ""), variants), deal)


def deal_record(hand: Hand, variants: Variants) -> dict[str, Any]:
    """The ``barbu-deal/1`` record of ``hand`` (played so far)."""
    record: dict[str, Any] = {
        "format": DEAL_FORMAT,
        "variants": variants.to_dict(),
        "declarer": SEATS[hand.declarer],
        "hands": {SEATS[s]: texts(hand.dealt[s]) for s in range(4)},
        "contract": hand.contract,
    }
    if hand.trump is not None:
        record["trump"] = SUITS[hand.trump]
    if hand.start_rank is not None:
        record["start_rank"] = RANKS[hand.start_rank]
    record["doubles"] = [[SEATS[a], SEATS[b]] for a, b in hand.doubles]
    record["redoubles"] = [[SEATS[a], SEATS[b]] for a, b in hand.redoubles]
    record["play"] = ["pass" if c is None else card_text(c) for c in hand.play]
    return record


def deal_result(hand: Hand) -> dict[str, Any]:
    """What ``barbu replay`` prints for a finished deal: contract scores, settlements, scores, tricks,
    finish order (``docs/formats.md``, ``barbu-deal/1``)."""
    settlements = settle(hand.contract_scores, hand.doubles, hand.redoubles)

    def by_seat(values: list[int]) -> dict[str, int]:
        return {SEATS[s]: values[s] for s in range(4)}

    return {
        "contract_scores": by_seat(hand.contract_scores),
        "settlements": by_seat(settlements),
        "scores": by_seat([c + s for c, s in zip(hand.contract_scores, settlements, strict=True)]),
        "tricks": [
            {"leader": SEATS[leader], "cards": [card_text(c) for c in cards], "winner": SEATS[winner]}
            for leader, cards, winner in hand.tricks
        ],
        "finish_order": [SEATS[s] for s in hand.finish_order] if hand.contract == DOMINOES else None,
    }


def match_record(match: Match, players: dict[str, str] | None = None) -> dict[str, Any]:
    """The ``barbu-match/1`` record of ``match``'s finished hands, with ``totals`` over them."""
    record: dict[str, Any] = {"format": MATCH_FORMAT, "variants": match.variants.to_dict()}
    if players is not None:
        record["players"] = dict(players)
    record["first_declarer"] = SEATS[match.first_declarer]
    record["deals"] = [deal_record(h, match.variants) for h in match.history]
    record["totals"] = {SEATS[s]: match.totals[s] for s in range(4)}
    return record


def read_match(record: Any) -> Match:
    """Check a ``barbu-match/1`` record (every deal, the rotation, each declarer's contracts once, the
    must-double rule, ``totals``) and return the replayed :class:`~engine.barbu.match.Match`.

    Raises:
        RecordError: see the module docstring.
    """
    from engine.barbu.match import Match, seeded_deals

    _check_keys(record, _MATCH_KEYS, MATCH_FORMAT, "")
    variants = _variants(record, "")
    players = record.get("players")
    if players is not None and (
        not isinstance(players, dict)
        or sorted(players) != sorted(SEATS)
        or not all(isinstance(v, str) for v in players.values())
    ):
        raise RecordError("players", "must map each of N E S W to a player name")
    first = _seat(record.get("first_declarer"), "first_declarer")
    deals = record.get("deals")
    if not isinstance(deals, list) or len(deals) > HANDS_PER_MATCH:
        raise RecordError("deals", f"must be a list of up to {HANDS_PER_MATCH} barbu-deal/1 records")

    def source(index: int, dealer: int) -> list[int]:
        where = f"deals[{index}]"
        deal = _check_keys(deals[index], _DEAL_KEYS, DEAL_FORMAT, where)
        return read_hands(deal, where)

    # No deals: a match that has not finished a hand yet (its record still says who declares first).
    match = Match(variants, first, source if deals else seeded_deals(0), hands_total=len(deals))
    for index, deal in enumerate(deals):
        where = f"deals[{index}]"
        if "variants" in deal and _variants(deal, where) != variants:
            raise RecordError(f"{where}.variants", "differ from the match's variants")
        declarer = _seat(deal.get("declarer"), f"{where}.declarer")
        if declarer != match.hand.declarer:
            raise RecordError(
                f"{where}.declarer",
                f"{SEATS[declarer]} declares out of turn: hand {index + 1} is {SEATS[match.hand.declarer]}'s "
                f"({variants.rotation} rotation from {SEATS[first]})",
            )
        replay_into(match.hand, deal, where)
        match.step()
    if "totals" in record:
        totals = record["totals"]
        if not isinstance(totals, dict) or sorted(totals) != sorted(SEATS):
            raise RecordError("totals", "must map each of N E S W to a whole number")
        for s in range(4):
            value = totals[SEATS[s]]
            if not isinstance(value, int) or isinstance(value, bool):
                raise RecordError(f"totals.{SEATS[s]}", f"must be a whole number, not {show(value)}")
            if value != match.totals[s]:
                raise RecordError(
                    f"totals.{SEATS[s]}",
                    f"is {value} but the deals' scores add up to {match.totals[s]}",
                )
    return match


def match_result(match: Match) -> dict[str, Any]:
    """What ``barbu replay`` prints for a match: each deal's result and the totals."""
    return {
        "deals": [deal_result(h) for h in match.history],
        "totals": {SEATS[s]: match.totals[s] for s in range(4)},
    }


def match_replay(record: Any) -> dict[str, Any]:
    """A ``barbu-match/1`` record laid out to be watched again, hand by hand and card by card, all four hands
    face up: ``players``, ``variants``, ``totals``, ``ranking`` (places, each a list of seats), and ``hands``,
    one map per deal: ``hand_number``, ``declarer``, ``dealer``, ``hands`` (seat -> the 13 cards dealt),
    ``events`` (the deal's public events in order, as a spectator received them: ``contract-chosen``,
    ``doubled``, ``redoubled``, ``card-played``, ``passed``, ``trick-won``, ``player-out``), what
    :func:`deal_result` gives, and ``totals`` after the deal.

    Raises:
        RecordError: the record does not replay (see :func:`read_match`).
    """
    from engine.barbu.events import Event

    match = read_match(record)
    totals = [0, 0, 0, 0]
    hands = []
    for index, (deal, hand) in enumerate(zip(record["deals"], match.history, strict=True)):
        events: list[Event] = []
        replay_into(Hand(hand.declarer, list(hand.dealt), match.variants, events=events), deal)
        result = deal_result(hand)
        for s in range(4):
            totals[s] += result["scores"][SEATS[s]]
        hands.append(
            {
                "hand_number": index + 1,
                "declarer": SEATS[hand.declarer],
                "dealer": SEATS[hand.dealer],
                "hands": {SEATS[s]: texts(hand.dealt[s]) for s in range(4)},
                "events": [event.to_wire() for event in events if event.to is None],
                **result,
                "totals": {SEATS[s]: totals[s] for s in range(4)},
            }
        )
    return {
        "players": record.get("players"),
        "variants": match.variants.to_dict(),
        "hands": hands,
        "totals": {SEATS[s]: match.totals[s] for s in range(4)},
        "ranking": [[SEATS[s] for s in place] for place in match.ranking()],
    }

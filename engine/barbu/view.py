"""What one seat may see of a match: the only way game state leaves the engine for a player.

A seat sees its own unplayed cards and public information (contract, doubles, cards played, tricks won,
scores); never another seat's unplayed cards. A spectator (seat ``None``) sees public information only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.barbu.actions import action_to_wire
from engine.barbu.hand import DOUBLE, PLAY, Hand
from engine.barbu.rules import CONTRACTS, DOMINOES
from engine.cards import RANKS, SEATS, SUITS, card_text

if TYPE_CHECKING:
    from engine.barbu.match import Match


def _by_seat(values: list[int]) -> dict[str, int]:
    return {SEATS[s]: values[s] for s in range(4)}


def _pairs(pairs: list[tuple[int, int]]) -> list[list[str]]:
    return [[SEATS[a], SEATS[b]] for a, b in pairs]


def hand_summary(number: int, hand: Hand, result: tuple[list[int], list[int], list[int]]) -> dict[str, Any]:
    """One row of the score sheet: who declared what, the doubles, and the hand's scores by seat; with the
    finishing order (Dominoes, else None) and the number of tricks played (fewer than 13 when the hand
    stopped early), so that a client that did not see the hand end can still tell how it ended."""
    contract_scores, settlements, scores = result
    return {
        "hand_number": number,
        "declarer": SEATS[hand.declarer],
        "contract": hand.contract,
        "trump": None if hand.trump is None else SUITS[hand.trump],
        "start_rank": None if hand.start_rank is None else RANKS[hand.start_rank],
        "doubles": _pairs(hand.doubles),
        "redoubles": _pairs(hand.redoubles),
        "contract_scores": _by_seat(contract_scores),
        "settlements": _by_seat(settlements),
        "scores": _by_seat(scores),
        "finish_order": [SEATS[s] for s in hand.finish_order] if hand.contract == DOMINOES else None,
        "tricks_played": len(hand.tricks),
    }


def _trick(leader: int, cards: list[int] | tuple[int, ...], winner: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"leader": SEATS[leader], "cards": [card_text(c) for c in cards]}
    if winner is not None:
        out["winner"] = SEATS[winner]
    return out


def match_view(match: Match, seat: int | None) -> dict[str, Any]:
    """The snapshot ``seat`` (0..3, ``None`` for a spectator) may see, as a msgpack/JSON-ready map.

    Keys: ``seat``, ``phase`` (``contract double redouble play over``), ``hand_number`` (1..28),
    ``hands_total``, ``declarer``, ``dealer``, ``to_move``, ``contract``, ``trump``, ``start_rank``,
    ``contracts_left`` (seat -> contracts that seat has left to declare), ``doubles`` / ``redoubles``
    (``[a, b]`` pairs), ``doubles_owed`` (seat -> doubles still owed to the current declarer), ``hand`` (own
    unplayed cards; ``[]`` for a spectator), ``hand_sizes``, ``trick`` (``{leader, cards}``), ``tricks`` (this
    hand's finished tricks with ``winner``), ``tricks_won``, ``rows`` (Dominoes: suit -> cards low to high),
    ``plays`` (Dominoes: ``[seat, card or None]`` in order, passes included; ``[]`` otherwise),
    ``finish_order``, ``contract_scores`` (this hand so far), ``totals`` (before this hand), ``history`` (score
    sheet rows), ``variants``, ``ranking`` (places, each a list of seats; None until the match is over), and
    ``legal`` (wire actions; None unless ``seat`` is to move), ``double_targets`` (seats) and ``must_double``
    (bool) (both None unless ``seat`` is to move in the doubling round), and ``unplayable`` (card -> the rule
    code that keeps it from being played now, ``must-follow-suit`` say, for each card of the hand that is not
    legal; None unless ``seat`` is to play a card). Every key is always present.
    """
    hand = match.hand
    over = match.over
    to_move = match.to_move
    view: dict[str, Any] = {
        "seat": None if seat is None else SEATS[seat],
        "phase": match.phase,
        "hand_number": match.hand_number,
        "hands_total": match.hands_total,
        "declarer": SEATS[hand.declarer],
        "dealer": SEATS[hand.dealer],
        "to_move": None if to_move is None else SEATS[to_move],
        "contract": hand.contract,
        "trump": None if hand.trump is None else SUITS[hand.trump],
        "start_rank": None if hand.start_rank is None else RANKS[hand.start_rank],
        "contracts_left": {
            SEATS[s]: [c for c in CONTRACTS if c not in match.contracts_played[s]] for s in range(4)
        },
        "doubles": _pairs(hand.doubles),
        "redoubles": _pairs(hand.redoubles),
        "doubles_owed": {
            SEATS[s]: match.doubles_owed(s, hand.declarer) for s in range(4) if s != hand.declarer
        },
        "hand": [] if seat is None else hand.hand_texts(seat),
        "hand_sizes": _by_seat([h.bit_count() for h in hand.hands]),
        "trick": _trick(hand.leader, hand.trick),
        "tricks": [_trick(leader, cards, winner) for leader, cards, winner in hand.tricks],
        "tricks_won": _by_seat(hand.tricks_won),
        "rows": hand.rows() if hand.start_rank is not None else {},
        # Dominoes: the order of plays and passes is public and tells who lacked which cards (search bots).
        "plays": [[SEATS[s], None if c is None else card_text(c)] for s, c in hand.plays()]
        if hand.contract == DOMINOES
        else [],
        "finish_order": [SEATS[s] for s in hand.finish_order],
        "contract_scores": _by_seat(hand.contract_scores),
        "totals": _by_seat(match.totals),
        "history": [
            hand_summary(i + 1, h, r)
            for i, (h, r) in enumerate(zip(match.history, match.results, strict=True))
        ],
        "variants": match.variants.to_dict(),
    }
    # Every key is always there (``docs/protocol.md``: nil for a value that does not apply).
    view["ranking"] = [[SEATS[s] for s in place] for place in match.ranking()] if over else None
    view["legal"] = view["double_targets"] = view["must_double"] = view["unplayable"] = None
    if seat is not None and seat == to_move:
        view["legal"] = [action_to_wire(a) for a in match.legal_actions(seat)]
        if hand.phase == PLAY:
            view["unplayable"] = {card_text(c): exc.code for c, exc in hand.unplayable(seat).items()}
        if hand.phase == DOUBLE:
            view["double_targets"] = [SEATS[s] for s in sorted(hand.double_targets(seat))]
            view["must_double"] = seat in hand.must_double
    return view

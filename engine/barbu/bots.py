"""Built-in Barbu bot policies: ``random`` and ``heuristic`` (and ``heuristic-2026``, today's play kept for
the benchmarks: :class:`Heuristic2026Policy`).

A policy sees exactly what its seat may see (``Match.view(seat)``) and the legal actions, and picks one:
``policy.choose(view, legal) -> Action``. The same policies play in ``barbu selfplay``, as server bots, and
as stand-ins for a human who dropped.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.barbu.actions import Action, ChooseContract, Double, Pass, Play, Redouble
from engine.barbu.dominoes_play import dominoes_card
from engine.barbu.rules import (
    BARBU,
    CONTRACT_TOTALS,
    DOMINOES,
    HEARTS,
    KING_OF_HEARTS,
    NEGATIVE_CONTRACTS,
    NO_HEARTS,
    NO_LAST_TWO,
    NO_QUEENS,
    NO_TRICKS,
    TRUMPS,
)
from engine.barbu.tricks import beats, winning_card
from engine.barbu.trumps_play import trumps_card
from engine.cards import SEATS, SUIT_MASKS, SUITS, mask_of, parse_card, parse_seat


class Policy(Protocol):
    """Chooses an action from ``legal`` (never empty) given the seat's ``view`` (``Match.view``)."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """One of ``legal``."""
        ...


class RandomPolicy:
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """A legal action drawn uniformly."""
        return self.rng.choice(legal)


# ---------------------------------------------------------------------- hand evaluation

# How much each rank (2..A) tends to cost in tricks when one is trying not to take them.
_DANGER = (0, 0, 0, 0, 0, 0, 0, 0.1, 0.25, 0.45, 0.65, 0.85, 1.0)


def _suit_cards(hand: int, suit: int) -> list[int]:
    m = hand & SUIT_MASKS[suit]
    return [c % 13 for c in range(suit * 13, suit * 13 + 13) if (m >> c) & 1]


def _danger(hand: int) -> float:
    """Expected tricks taken by a player trying to duck, from high cards not covered by low ones."""
    total = 0.0
    for s in range(4):
        ranks = _suit_cards(hand, s)
        low = sum(1 for r in ranks if r <= 5)
        for r in ranks:
            total += _DANGER[r] * (0.5 if low >= 3 else 1.0)
    return total


def _trump_strength(hand: int, suit: int) -> float:
    """Expected tricks with ``suit`` as trumps: high cards, plus length in trumps."""
    tricks = 0.0
    for s in range(4):
        ranks = _suit_cards(hand, s)
        tricks += sum(1.0 if r == 12 else 0.6 if r == 11 else 0.3 if r == 10 else 0 for r in ranks)
        if s == suit:
            tricks += max(0, len(ranks) - 3) * 0.9
    return tricks


def _dominoes_start(hand: int) -> tuple[int, float]:
    """The starting rank that best suits ``hand`` and how well (cards near it count more)."""
    best = (6, -1.0)
    for r in range(13):
        value = 0.0
        for s in range(4):
            for x in _suit_cards(hand, s):
                value += 1.0 / (1 + abs(x - r))
        if value > best[1]:
            best = (r, value)
    return best


def estimate(hand: int, contract: str, declarer: bool) -> float:
    """A rough expected contract score for a 13-card ``hand`` in ``contract``."""
    hearts = _suit_cards(hand, HEARTS)
    d = _danger(hand)
    if contract == NO_TRICKS:
        return -2 * (1.5 + 1.4 * d)
    if contract == NO_QUEENS:
        risk = 0.0
        for s in range(4):
            ranks = _suit_cards(hand, s)
            if 10 in ranks:
                risk += 0.9 if sum(1 for r in ranks if r < 10) < 3 else 0.5
        return -6 * (0.7 + risk + 0.15 * d)
    if contract == NO_LAST_TWO:
        return -7.5 * (0.4 + 0.25 * d)
    if contract == NO_HEARTS:
        return -2 * (2 + sum(1 for r in hearts if r >= 8) + 0.4 * d)
    if contract == BARBU:
        if (hand >> KING_OF_HEARTS) & 1:
            return -20 * (0.8 if len(hearts) <= 3 else 0.45)
        return -20 * (0.25 if 12 in hearts and len(hearts) <= 2 else 0.2)
    if contract == TRUMPS:
        return 5 * (2 + max(_trump_strength(hand, s) for s in range(4)))
    return 5 + 2.5 * _dominoes_start(hand)[1] + (5 if declarer else 0)


def _advantage(hand: int, contract: str, declarer: bool) -> float:
    return estimate(hand, contract, declarer) - CONTRACT_TOTALS[contract] / 4


class HeuristicPolicy:
    """Plays each contract sensibly: ducks in the negative contracts, manages its trumps and wins tricks
    cheaply in Trumps (:mod:`.trumps_play`), keeps its stoppers and frees its own runs in Dominoes
    (:mod:`.dominoes_play`), chooses the contract its hand suits best, and doubles when its hand is good,
    paying the must-double rule's debt before it falls due (the legal actions enforce the rule itself)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """The action this policy prefers among ``legal``."""
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        hand = mask_of(parse_card(c) for c in view["hand"])
        if isinstance(first, ChooseContract):
            return self._contract(hand, legal)
        if isinstance(first, Double):
            return self._double(view, hand, legal)
        if isinstance(first, Redouble):
            return self._redouble(view, hand, legal)
        if isinstance(first, Pass):
            return first
        cards = [a.card for a in legal if isinstance(a, Play)]
        if view["contract"] == DOMINOES:
            return Play(self._domino(view, hand, cards))
        if view["contract"] == TRUMPS:
            return Play(self._trumps(view, hand, cards))
        return Play(self._card(view, hand, cards))

    # ------------------------------------------------------------------ contract and doubles

    def _contract(self, hand: int, legal: list[Action]) -> Action:
        contracts = {a.contract for a in legal if isinstance(a, ChooseContract)}
        best = max(sorted(contracts), key=lambda c: _advantage(hand, c, True))
        if best == TRUMPS:
            suit = max(range(4), key=lambda s: _trump_strength(hand, s))
            return ChooseContract(TRUMPS, trump=suit)
        if best == DOMINOES:
            return ChooseContract(DOMINOES, start_rank=_dominoes_start(hand)[0])
        return ChooseContract(best)

    def _double(self, view: dict[str, Any], hand: int, legal: list[Action]) -> Action:
        seat = parse_seat(view["seat"])
        declarer = parse_seat(view["declarer"])
        contract = view["contract"]
        adv = _advantage(hand, contract, False)
        owed = view["doubles_owed"].get(SEATS[seat], 0)
        left = 7 - (6 - len(view["contracts_left"][SEATS[declarer]]))  # this hand included
        urgency = owed / max(left, 1)
        targets: set[int] = set()
        if adv > 4 - 6 * urgency or (owed and self.rng.random() < urgency):
            targets.add(declarer)
        if contract in NEGATIVE_CONTRACTS and adv > 8:
            targets.update(s for s in range(4) if s not in (seat, declarer))
        return _closest(legal, targets, declarer)

    def _redouble(self, view: dict[str, Any], hand: int, legal: list[Action]) -> Action:
        seat = parse_seat(view["seat"])
        adv = _advantage(hand, view["contract"], seat == parse_seat(view["declarer"]))
        return _closest(legal, set(range(4)) if adv > 5 else set(), None)

    # ------------------------------------------------------------------ card play

    def _card(self, view: dict[str, Any], hand: int, cards: list[int]) -> int:
        contract = view["contract"]
        trick = [parse_card(c) for c in view["trick"]["cards"]]
        tricks_done = len(view["tricks"])
        if contract == NO_LAST_TWO and tricks_done < 9:
            return max(cards, key=lambda c: (c % 13, -_suit_len(hand, c)))
        return _play_to_duck(contract, trick, cards, hand)

    def _trumps(self, view: dict[str, Any], hand: int, cards: list[int]) -> int:
        return trumps_card(view, cards)

    def _domino(self, view: dict[str, Any], hand: int, cards: list[int]) -> int:
        return dominoes_card(view, cards)


class Heuristic2026Policy(HeuristicPolicy):
    """``heuristic`` as it played Trumps and Dominoes until issue 29 (kept for the benchmarks, not offered
    to players): in Trumps it leads its top trump with four or more, then aces, else its lowest card, and
    wins a trick when it can (cheaply only when last); in Dominoes it plays the card with most of its own
    cards on one side of it in its suit. Contracts, doubles and the other contracts as ``heuristic``."""

    def _trumps(self, view: dict[str, Any], hand: int, cards: list[int]) -> int:
        trick = [parse_card(c) for c in view["trick"]["cards"]]
        return _play_to_win(trick, cards, SUITS.index(view["trump"]), hand)

    def _domino(self, view: dict[str, Any], hand: int, cards: list[int]) -> int:
        def behind(c: int) -> tuple[int, int]:
            ranks = _suit_cards(hand, c // 13)
            r = c % 13
            return (max(sum(1 for x in ranks if x > r), sum(1 for x in ranks if x < r)), -abs(r - 6))

        return max(cards, key=behind)


def _closest(legal: list[Action], wanted: set[int], must: int | None) -> Action:
    """The double/redouble in ``legal`` whose targets are nearest ``wanted``."""

    def distance(a: Action) -> int:
        assert isinstance(a, Double | Redouble)
        return len(a.targets ^ wanted)

    return min(legal, key=distance)


def _suit_len(hand: int, c: int) -> int:
    return (hand & SUIT_MASKS[c // 13]).bit_count()


def _play_to_win(trick: list[int], cards: list[int], trump: int | None, hand: int) -> int:
    if not trick:
        trumps = [c for c in cards if c // 13 == trump]
        if len(trumps) >= 4:
            return max(trumps)
        aces = [c for c in cards if c % 13 == 12 and c // 13 != trump]
        if aces:
            return aces[0]
        return min(cards, key=lambda c: (c % 13, _suit_len(hand, c)))
    best = winning_card(trick, trump)
    winners = [c for c in cards if beats(c, best, trump)]
    if winners:
        if len(trick) == 3:
            return min(winners, key=lambda c: (c // 13 == trump, c % 13))
        return max(winners, key=lambda c: (c // 13 != trump, c % 13))
    return min(cards, key=lambda c: (c // 13 == trump, c % 13))


def _penalty(contract: str, c: int) -> int:
    """How much a card hurts whoever takes it in ``contract`` (used to choose discards)."""
    if contract == BARBU:
        return 20 if c == KING_OF_HEARTS else 3 if c // 13 == HEARTS and c % 13 == 12 else 0
    if contract == NO_QUEENS:
        return 6 if c % 13 == 10 else 2 if c % 13 > 10 else 0
    if contract == NO_HEARTS:
        return (6 if c % 13 == 12 else 2) if c // 13 == HEARTS else 0
    return 0


def _play_to_duck(contract: str, trick: list[int], cards: list[int], hand: int) -> int:
    if not trick:
        return min(cards, key=lambda c: (_penalty(contract, c) > 0, c % 13, _suit_len(hand, c)))
    best = winning_card(trick, None)
    led = trick[0] // 13
    following = cards[0] // 13 == led
    if not following:
        return max(cards, key=lambda c: (_penalty(contract, c), c % 13, -_suit_len(hand, c)))
    under = [c for c in cards if c < best]
    if under:
        return max(under)
    trick_penalty = sum(_penalty(contract, c) for c in trick)
    if len(trick) == 3 and (trick_penalty == 0 or contract == NO_TRICKS):
        safe = [c for c in cards if _penalty(contract, c) == 0]
        return max(safe or cards)
    return min(cards, key=lambda c: (_penalty(contract, c), c))

"""The ``search`` policy: perfect-information Monte Carlo over deals sampled from the seat's information set.

Every decision samples deals of the unseen cards that agree with the seat's view (:mod:`.infer`,
:mod:`.sample`), plays each candidate on each deal, finishes the hand with fast playouts (:mod:`.rollout`) and
keeps the candidate with the best mean **hand result**: the seat's contract score plus the settlements of the
doubles in force (``docs/rules/barbu.md``, "Settling doubles").

- Card play: every legal card on the same sampled deals.
- Doubling and redoubling: the mean contract-score difference with each possible target over sampled
  deals; double (redouble) a target when it favours the seat by :data:`MARGIN` points, less when doubles are
  still owed to the declarer; the must-double rule is kept (the legal actions enforce it, and the choice
  always includes a required declarer).
- Contract choice: each contract left (the likeliest trump suits and starting ranks) simulated on sampled
  deals, minus what that contract is worth to a declarer on an average hand (:data:`AVERAGE`), since every
  contract must be declared once: the contract this hand suits best compared with a later, average hand.

The budget is ``playouts`` simulated hands per decision (deterministic: the random draws are seeded from the
policy's seed and the position, never the clock) or ``time`` seconds per decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from engine.barbu.actions import Action, ChooseContract, Double, Play, Redouble
from engine.barbu.bots import _trump_strength
from engine.barbu.hand import PLAY, Hand
from engine.barbu.rules import DOMINOES, TRUMPS
from engine.barbu.search.infer import Knowledge, read_view
from engine.barbu.search.kernels import Position, result_weights
from engine.barbu.search.sample import DealSampler, NoConsistentDeal
from engine.cards import SEATS, SUIT_MASKS

#: Seconds per decision when neither ``time`` nor ``playouts`` is given.
DEFAULT_TIME = 0.5
#: Points of expected advantage over a player needed to double or redouble them.
MARGIN = 4.0
#: Mean contract score of the declarer with an average hand (the best trump suit or starting rank taken),
#: under the rollout rules: measured by ``benchmarks/contract_values.py`` (300 hands x 20 deals).
AVERAGE = {
    "no-tricks": -6.7,
    "no-queens": -6.0,
    "no-last-two": -7.3,
    "no-hearts": -8.0,
    "barbu": -4.7,
    "trumps": 21.9,
    "dominoes": 24.9,
}
#: Candidate trump suits and Dominoes starting ranks simulated at the contract choice (the best by a quick
#: count), so that a small budget is not spread over 22 choices.
TRUMP_CANDIDATES = 2
START_CANDIDATES = 3


class Budget:
    """A decision's budget: ``playouts`` simulated hands (exact, deterministic) or ``seconds`` of wall time."""

    def __init__(self, playouts: int | None, seconds: float) -> None:
        self.playouts = playouts
        self.deadline = time.perf_counter() + seconds
        self.done = 0

    def more(self) -> bool:
        """Whether another round of playouts fits (at least one round always runs)."""
        if self.done == 0:
            return True
        if self.playouts is not None:
            return self.done < self.playouts
        return time.perf_counter() < self.deadline


class SearchPolicy:
    """The ``search`` policy (see the module docstring).

    Args:
        seed: fixes every random draw, together with the position.
        seconds: the time budget per decision (ignored when ``playouts`` is given).
        playouts: simulated hands per decision; deterministic on every machine.
        exact: the last cards of each simulated hand (of a trick contract) played exactly, with perfect
            information, instead of by the rollout rules (0: none; at most ``kernels.MAX_EXACT``).
    """

    def __init__(
        self, seed: int = 0, seconds: float = DEFAULT_TIME, playouts: int | None = None, exact: int = 0
    ) -> None:
        self.seed = seed
        self.seconds = seconds
        self.playouts = playouts
        self.exact = exact

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """The action with the best simulated hand result among ``legal`` (never empty)."""
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"search:{self.seed}:{_position(view)}")
        budget = Budget(self.playouts, self.seconds)
        know, base = read_view(view)
        sampler = _sampler(know)
        first = legal[0]
        if isinstance(first, Play):
            return _card(know, base, sampler, legal, rng, budget, self.exact)
        if isinstance(first, ChooseContract):
            return _contract(know, base, sampler, legal, rng, budget, self.exact)
        return _double(view, know, base, sampler, legal, rng, budget, self.exact)


def _position(view: dict[str, Any]) -> str:
    """What identifies the decision: the hand, the phase, the seat, its cards and what has been played."""
    return "|".join(
        str(x)
        for x in (
            view["hand_number"],
            view["phase"],
            view["seat"],
            "".join(view["hand"]),
            len(view["tricks"]),
            "".join(view["trick"]["cards"]),
            len(view["plays"]),
            view["doubles"],
        )
    )


def _sampler(know: Knowledge) -> DealSampler:
    try:
        return DealSampler(know.allowed(), know.sizes)
    except NoConsistentDeal:  # a view this engine did not make: sample ignoring the inferences
        return DealSampler([0 if s == know.seat else know.unseen for s in range(4)], know.sizes)


def _card(
    know: Knowledge,
    base: Hand,
    sampler: DealSampler,
    legal: list[Action],
    rng: random.Random,
    budget: Budget,
    exact: int,
) -> Action:
    cards = [a.card for a in legal if isinstance(a, Play)]
    totals = [0] * len(cards)
    position = Position(base, exact=exact)
    w0, w1, w2, w3 = result_weights(base, know.seat)
    seed = rng.getrandbits
    while budget.more():
        deal = sampler.sample(rng)
        for i, c in enumerate(cards):
            s0, s1, s2, s3 = position.playout(deal, c, seed(64))
            totals[i] += w0 * s0 + w1 * s1 + w2 * s2 + w3 * s3
        budget.done += len(cards)
    best = max(range(len(cards)), key=lambda i: totals[i])
    return Play(cards[best])


def _from_start(hand: Hand, exact: int = 0) -> Position:
    """A hand whose contract is chosen, at its first trick (the doubling skipped), ready for playouts."""
    hand.phase = PLAY
    hand.to_move = hand.leader = hand.declarer
    return Position(hand, exact=exact)


def _double(
    view: dict[str, Any],
    know: Knowledge,
    base: Hand,
    sampler: DealSampler,
    legal: list[Action],
    rng: random.Random,
    budget: Budget,
    exact: int,
) -> Action:
    seat = know.seat
    diffs = [0, 0, 0, 0]
    n = 0
    position = _from_start(base.copy(), exact)
    while budget.more():
        scores = position.playout(sampler.sample(rng), -1, rng.getrandbits(64))
        for s in range(4):
            diffs[s] += scores[seat] - scores[s]
        n += 1
        budget.done += 1
    declarer = base.declarer
    threshold = [MARGIN] * 4
    if isinstance(legal[0], Double) and seat != declarer:
        owed = view["doubles_owed"].get(SEATS[seat], 0)
        left = len(view["contracts_left"][SEATS[declarer]])  # this hand's contract is still among them
        # Doubles still owed will be forced later on whatever hand comes: pay them on a fair hand now.
        threshold[declarer] -= 12.0 * owed / max(left, 1)
    chosen = {s for s in range(4) if s != seat and diffs[s] / n > threshold[s]}
    kind = type(legal[0])
    options = [a for a in legal if isinstance(a, kind)]

    def distance(a: Action) -> int:
        assert isinstance(a, Double | Redouble)
        return len(a.targets ^ chosen)

    return min(options, key=distance)


def _contract_options(hand: int, legal: Sequence[Action]) -> list[ChooseContract]:
    """The legal contract choices worth simulating: every contract, the best trump suits and start ranks."""
    options = [a for a in legal if isinstance(a, ChooseContract)]
    trumps = sorted(
        (a for a in options if a.contract == TRUMPS), key=lambda a: -_trump_strength(hand, a.trump or 0)
    )
    starts = sorted(
        (a for a in options if a.contract == DOMINOES),
        key=lambda a: -_start_value(hand, a.start_rank or 0),
    )
    others = [a for a in options if a.contract not in (TRUMPS, DOMINOES)]
    return others + trumps[:TRUMP_CANDIDATES] + starts[:START_CANDIDATES]


def _start_value(hand: int, rank: int) -> float:
    """How well a Dominoes starting rank suits ``hand``: its cards near the rank count more."""
    value = 0.0
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        for r in range(13):
            if (m >> (s * 13 + r)) & 1:
                value += 1.0 / (1 + abs(r - rank))
    return value


def _contract(
    know: Knowledge,
    base: Hand,
    sampler: DealSampler,
    legal: list[Action],
    rng: random.Random,
    budget: Budget,
    exact: int,
) -> Action:
    seat = know.seat
    options = _contract_options(know.hand, legal)
    if len(options) == 1:
        return options[0]
    totals = [0] * len(options)
    positions = []
    for option in options:
        hand = base.copy()
        hand.apply(seat, option)  # the choice's checks and effects do not depend on the unseen cards
        positions.append(_from_start(hand, exact))
    n = 0
    while budget.more():
        deal = sampler.sample(rng)
        for i, position in enumerate(positions):
            totals[i] += position.playout(deal, -1, rng.getrandbits(64))[seat]
        n += 1
        budget.done += len(options)
    several = len({o.contract for o in options}) > 1
    best = max(
        range(len(options)),
        key=lambda i: totals[i] / n - (AVERAGE[options[i].contract] if several else 0.0),
    )
    return options[best]

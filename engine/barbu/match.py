"""A match of Barbu: 28 hands, the declarer rotation, the must-double bookkeeping, running totals
(``docs/rules/barbu.md``, "The match: 28 hands" and "Doubling", rule 4).

A :class:`Match` is the game object the server and the bots talk to: ``to_move``, ``legal_actions(seat)``,
``apply(seat, action) -> events``, ``view(seat)``, ``over``, ``totals``, ``to_record()`` / ``from_record()``.
Randomness comes in only as the seed: the same seed and actions give the same match on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.barbu.actions import Action, IllegalAction
from engine.barbu.events import Event
from engine.barbu.hand import OVER, Hand
from engine.barbu.rules import (
    CONTRACTS,
    DOMINOES,
    DOUBLES_OWED,
    HANDS_PER_DECLARER,
    HANDS_PER_MATCH,
    Variants,
)
from engine.cards import DECK_SIZE, SEATS, deal_hands, texts

#: Gives the four 13-card hands (bitmasks by seat) of hand ``index`` (0-based) dealt by ``dealer``.
DealSource = Callable[[int, int], list[int]]


def seeded_deals(seed: int) -> DealSource:
    """The product's own deals: hand ``index`` of the match with ``seed`` is shuffled by its own
    ``random.Random`` keyed on the seed and the index, and dealt one card at a time from the dealer's left."""

    def deal(index: int, dealer: int) -> list[int]:
        draw = random.Random(f"barbu:{seed}:{index}").random
        # Sorting on random keys is a uniform shuffle (ties have probability ~0) and much faster than shuffle().
        deck = sorted(range(DECK_SIZE), key=lambda _: draw())
        return deal_hands(deck, first=(dealer + 1) % 4)

    return deal


def first_declarer_for(seed: int) -> int:
    """The first declarer drawn at random (from ``seed``): a seat 0..3."""
    return random.Random(f"barbu:{seed}:first-declarer").randrange(4)


class Match:
    """A 28-hand match of Barbu.

    Args:
        variants: the table's rule set.
        first_declarer: the seat (0..3) that declares the first seven hands (or, with ``rotation:
            each-hand``, the first hand).
        deals: where each hand's cards come from (:func:`seeded_deals`, or a record's deals).
        hands_total: how many hands to play: 28, or fewer when a record stops early.

    ``hand`` is the current :class:`~engine.barbu.hand.Hand`; ``history`` the finished ones, and ``results``
    their ``(contract_scores, settlements, scores)``; ``totals`` the running totals by seat.
    """

    def __init__(
        self,
        variants: Variants,
        first_declarer: int,
        deals: DealSource,
        hands_total: int = HANDS_PER_MATCH,
    ) -> None:
        self.variants = variants
        self.first_declarer = first_declarer
        self.hands_total = hands_total
        self.seed: int | None = None
        self._deals = deals
        self.totals = [0, 0, 0, 0]
        self.history: list[Hand] = []
        self.results: list[tuple[list[int], list[int], list[int]]] = []
        self.contracts_played: list[set[str]] = [set(), set(), set(), set()]
        # doubles_made[doubler][declarer]: doubles of that declarer so far (the must-double rule).
        self.doubles_made = [[0] * 4 for _ in range(4)]
        self.hand = self._deal(0, None)

    @classmethod
    def new(cls, seed: int, variants: Variants | None = None, first_declarer: int | None = None) -> Match:
        """A new match whose deals and (unless given) first declarer come from ``seed``."""
        first = first_declarer_for(seed) if first_declarer is None else first_declarer
        match = cls(variants or Variants(), first, seeded_deals(seed))
        match.seed = seed
        return match

    # ------------------------------------------------------------------ rotation and bookkeeping

    def declarer_of(self, index: int) -> int:
        """The declarer of hand ``index`` (0-based) under the table's rotation."""
        step = index if self.variants.rotation == "each-hand" else index // HANDS_PER_DECLARER
        return (self.first_declarer + step) % 4

    def hands_left_for(self, declarer: int) -> int:
        """How many of ``declarer``'s seven hands remain, counting the current one if it is theirs."""
        return HANDS_PER_DECLARER - len(self.contracts_played[declarer])

    def doubles_owed(self, seat: int, declarer: int) -> int:
        """How many more times ``seat`` must double ``declarer`` during that declarer's seven hands."""
        return 0 if seat == declarer else max(0, DOUBLES_OWED - self.doubles_made[seat][declarer])

    def _deal(self, index: int, events: list[Event] | None) -> Hand:
        declarer = self.declarer_of(index)
        left = self.hands_left_for(declarer)
        must = frozenset(s for s in range(4) if s != declarer and 0 < self.doubles_owed(s, declarer) >= left)
        hand = Hand(
            declarer,
            self._deals(index, (declarer + 3) % 4),
            self.variants,
            frozenset(c for c in CONTRACTS if c not in self.contracts_played[declarer]),
            must,
            events,
        )
        if events is not None:
            for seat in range(4):
                events.append(
                    Event(
                        "hand-dealt",
                        {
                            "hand_number": index + 1,
                            "declarer": SEATS[declarer],
                            "dealer": SEATS[hand.dealer],
                            "hand": texts(hand.hands[seat]),
                        },
                        seat,
                    )
                )
        return hand

    # ------------------------------------------------------------------ the game-object interface

    @property
    def hand_number(self) -> int:
        """The current hand's number, 1 to 28 (the last hand's number once the match is over)."""
        return len(self.history) + (0 if self.over else 1)

    @property
    def over(self) -> bool:
        """Whether every hand has been played."""
        return len(self.history) >= self.hands_total

    @property
    def to_move(self) -> int | None:
        """The seat whose action is awaited, or ``None`` when the match is over."""
        return None if self.over else self.hand.to_move

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (``[]`` when it is not their turn or the match is over)."""
        return [] if self.over else self.hand.legal_actions(seat)

    def check(self, seat: int, action: Action) -> None:
        """Raise the :class:`IllegalAction` that ``apply(seat, action)`` would raise, if any; changes nothing.

        Raises:
            IllegalAction: the rules refuse the action (``code`` says which rule).
        """
        if self.over:
            raise IllegalAction("match-over", "the match is over")
        self.hand.check(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Take ``action`` for ``seat``; returns the events it caused, in order.

        When the action ends a hand, the hand is scored (``hand-scored``) and the next one dealt
        (``hand-dealt``, one private event per seat) or the match ends (``match-over``). The last event is
        ``turn``, naming the seat to act next.

        Raises:
            IllegalAction: the rules refuse the action (``code`` says which rule); the match is unchanged.
        """
        if self.over:
            raise IllegalAction("match-over", "the match is over")
        events: list[Event] = []
        hand = self.hand
        hand.events = events
        try:
            hand.apply(seat, action)
        finally:
            hand.events = None
        if hand.phase == OVER:
            self._finish_hand(events)
        to_move = self.to_move
        events.append(
            Event(
                "turn",
                {"seat": None if to_move is None else SEATS[to_move], "phase": self.phase},
            )
        )
        return events

    def step(self) -> None:
        """After a fast unchecked play on ``self.hand`` (bots' playouts), score and deal when the hand ended."""
        if self.hand.phase == OVER:
            self._finish_hand(None)

    @property
    def phase(self) -> str:
        """``contract``, ``double``, ``redouble``, ``play``, or ``over`` once the match is over."""
        return OVER if self.over else self.hand.phase

    def _finish_hand(self, events: list[Event] | None) -> None:
        hand = self.hand
        index = len(self.history)
        settlements = hand.settlements()
        scores = [c + s for c, s in zip(hand.contract_scores, settlements, strict=True)]
        for s in range(4):
            self.totals[s] += scores[s]
        assert hand.contract is not None
        self.contracts_played[hand.declarer].add(hand.contract)
        for doubler, doubled in hand.doubles:
            if doubled == hand.declarer:
                self.doubles_made[doubler][doubled] += 1
        self.history.append(hand)
        self.results.append((list(hand.contract_scores), settlements, scores))
        if events is not None:
            events.append(
                Event(
                    "hand-scored",
                    {
                        "hand_number": index + 1,
                        "declarer": SEATS[hand.declarer],
                        "contract": hand.contract,
                        "contract_scores": _by_seat(hand.contract_scores),
                        "settlements": _by_seat(settlements),
                        "scores": _by_seat(scores),
                        "totals": _by_seat(self.totals),
                        # Who went out first: a page that came in after the players-out events says it too.
                        "finish_order": [SEATS[s] for s in hand.finish_order]
                        if hand.contract == DOMINOES
                        else None,
                    },
                )
            )
        if self.over:
            if events is not None:
                events.append(
                    Event(
                        "match-over",
                        {
                            "totals": _by_seat(self.totals),
                            "ranking": [[SEATS[s] for s in p] for p in self.ranking()],
                        },
                    )
                )
            return
        self.hand = self._deal(index + 1, events)

    def ranking(self) -> list[list[int]]:
        """Places from first to last, each a list of seats; tied totals share a place ("highest total wins")."""
        places: list[list[int]] = []
        for seat in sorted(range(4), key=lambda s: -self.totals[s]):
            if places and self.totals[places[-1][0]] == self.totals[seat]:
                places[-1].append(seat)
            else:
                places.append([seat])
        return places

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (0..3, or ``None`` for a spectator) may see: see :func:`engine.barbu.view.match_view`."""
        from engine.barbu.view import match_view

        return match_view(self, seat)

    def to_record(self, players: dict[str, str] | None = None) -> dict[str, Any]:
        """The ``barbu-match/1`` record of the hands finished so far (``docs/formats.md``)."""
        from engine.barbu.records import match_record

        return match_record(self, players)

    @classmethod
    def from_record(cls, record: Any) -> Match:
        """Replay a ``barbu-match/1`` record, checking every rule.

        Raises:
            RecordError: naming where (``deals[3].play[17]``), the seat, the action and the rule broken.
        """
        from engine.barbu.records import read_match

        return read_match(record)


def _by_seat(values: list[int]) -> dict[str, int]:
    return {SEATS[s]: values[s] for s in range(4)}

"""One hand of Barbu as a state machine: contract choice, doubling, redoubling, then play
(``docs/rules/barbu.md``).

Cards and card sets are the ints and bitmasks of :mod:`engine.cards`; seats are 0..3 (N E S W). The match
(:mod:`engine.barbu.match`) builds a :class:`Hand` for each deal, telling it which contracts the declarer has
left and who must double. :meth:`Hand.apply` checks an action completely before changing anything, so an
:class:`~engine.barbu.actions.IllegalAction` leaves the hand exactly as it was.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from engine.barbu.actions import (
    PASS,
    Action,
    ChooseContract,
    Double,
    IllegalAction,
    Pass,
    Play,
    Redouble,
)
from engine.barbu.events import Event
from engine.barbu.rules import (
    ACE_OF_HEARTS,
    BARBU,
    CONTRACTS,
    DECLARER_ONLY_DOUBLES,
    DOMINOES,
    HEARTS,
    HEARTS_MASK,
    KING_OF_HEARTS,
    NO_HEARTS,
    NO_LAST_TWO,
    NO_QUEENS,
    NO_TRICKS,
    QUEENS_MASK,
    TRUMPS,
    Variants,
)
from engine.barbu.scoring import settle
from engine.cards import RANKS, SEATS, SUIT_MASKS, SUITS, card_list, card_text, texts

CONTRACT, DOUBLE, REDOUBLE, PLAY, OVER = "contract", "double", "redouble", "play", "over"

# Every contract choice, made once: the legal ones are a filter of this list (bots ask for it often).
_CONTRACT_ACTIONS: tuple[ChooseContract, ...] = tuple(
    a
    for contract in CONTRACTS
    for a in (
        [ChooseContract(TRUMPS, trump=s) for s in range(4)]
        if contract == TRUMPS
        else [ChooseContract(DOMINOES, start_rank=r) for r in range(13)]
        if contract == DOMINOES
        else [ChooseContract(contract)]
    )
)


@cache
def _subsets(
    kind: type[Double] | type[Redouble], targets: frozenset[int], required: int
) -> tuple[Action, ...]:
    """Every ``kind`` action over a subset of ``targets`` that includes ``required`` (-1: none required)."""
    ordered = sorted(targets)
    return tuple(
        kind(frozenset(chosen))
        for n in range(len(ordered) + 1)
        for chosen in combinations(ordered, n)
        if required < 0 or required in chosen
    )


# double_targets, made once: a seat may double the three others, or only the declarer in some contracts.
_OTHERS = tuple(frozenset(s for s in range(4) if s != seat) for seat in range(4))
_ONLY = tuple(frozenset({seat}) for seat in range(4))

# Hand.copy: the slots holding immutable values (ints, strings, tuples, frozensets, the variants), shared.
_SHARED_SLOTS = (
    "_lead_rule",
    "_playable",
    "contract",
    "contracts_left",
    "dealer",
    "dealt",
    "declarer",
    "duty",
    "hearts_broken",
    "leader",
    "must_double",
    "phase",
    "played",
    "start_rank",
    "to_move",
    "trump",
    "variants",
)

_KH_BIT = 1 << KING_OF_HEARTS
_AH_BIT = 1 << ACE_OF_HEARTS


def trick_winner(trick: list[int], leader: int, trump: int | None) -> int:
    """The seat that wins the four cards ``trick`` led by ``leader``: the highest trump, else the highest
    card of the suit led ("Trick play" in ``docs/rules/barbu.md``; ``trump`` ``None`` outside Trumps)."""
    # The winning card so far, its suit: a card of that suit beats it by rank, a first trump beats it.
    best, best_card, best_suit = 0, trick[0], trick[0] // 13
    for i in (1, 2, 3):
        c = trick[i]
        suit = c // 13
        if suit == best_suit:
            if c > best_card:
                best, best_card = i, c
        elif suit == trump:
            best, best_card, best_suit = i, c, suit
    return (leader + best) % 4


class Hand:
    """One deal of Barbu, from the contract choice to the hand's end.

    Args:
        declarer: the declarer's seat (0..3); the dealer is the seat to their right.
        hands: four 13-card bitmasks, indexed by seat.
        variants: the table's rule set.
        contracts_left: the contracts this declarer has not yet played ("The match: 28 hands").
        must_double: seats that must double the declarer in this hand ("Doubling", rule 4).
        events: a list to append :class:`Event` objects to, or ``None`` to record none (fast playouts).

    ``phase`` is one of ``contract double redouble play over``; ``to_move`` the seat whose action is awaited
    (``None`` once over). ``play`` is the record's play list: a card, or ``None`` for a pass in Dominoes.
    """

    __slots__ = (
        "_double_queue",
        "_lead_rule",
        "_playable",
        "_redouble_queue",
        "contract",
        "contract_scores",
        "contracts_left",
        "dealer",
        "dealt",
        "declarer",
        "doubles",
        "duty",
        "events",
        "finish_order",
        "hands",
        "hearts_broken",
        "high",
        "leader",
        "low",
        "must_double",
        "phase",
        "play",
        "played",
        "redoubles",
        "start_rank",
        "to_move",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
        "variants",
    )

    def __init__(
        self,
        declarer: int,
        hands: list[int],
        variants: Variants,
        contracts_left: frozenset[str] = frozenset(CONTRACTS),
        must_double: frozenset[int] = frozenset(),
        events: list[Event] | None = None,
    ) -> None:
        self.declarer = declarer
        self.dealer = (declarer + 3) % 4
        self.dealt: tuple[int, ...] = tuple(hands)
        self.hands = list(hands)
        self.variants = variants
        self.duty = variants.trump_duty
        self.contracts_left = contracts_left
        self.must_double = must_double
        self.events = events
        self.phase = CONTRACT
        self.to_move: int | None = declarer
        self.contract: str | None = None
        self.trump: int | None = None
        self.start_rank: int | None = None
        self.doubles: list[tuple[int, int]] = []
        self.redoubles: list[tuple[int, int]] = []
        self._double_queue = [(declarer + i) % 4 for i in (1, 2, 3)]
        self._redouble_queue: list[int] = []
        self._lead_rule: str | None = None
        self.play: list[int | None] = []
        self.played = 0
        self.trick: list[int] = []
        self.leader = declarer
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.tricks_won = [0, 0, 0, 0]
        self.contract_scores = [0, 0, 0, 0]
        self.hearts_broken = False
        self.low: list[int | None] = [None] * 4
        self.high: list[int | None] = [None] * 4
        self._playable = 0
        self.finish_order: list[int] = []

    def copy(self) -> Hand:
        """A copy sharing nothing mutable with this hand, without events: what a search bot plays its
        determinized playouts on (cheaper than building and replaying a new hand)."""
        new = Hand.__new__(Hand)
        for name in _SHARED_SLOTS:
            setattr(new, name, getattr(self, name))
        new.events = None
        new.hands = self.hands[:]
        if self.phase == PLAY:  # the doubles are settled: nothing in the play changes them, so share
            new.doubles, new.redoubles = self.doubles, self.redoubles
            new._double_queue, new._redouble_queue = self._double_queue, self._redouble_queue
        else:
            new.doubles = self.doubles[:]
            new.redoubles = self.redoubles[:]
            new._double_queue = self._double_queue[:]
            new._redouble_queue = self._redouble_queue[:]
        new.play = self.play[:]
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.tricks_won = self.tricks_won[:]
        new.contract_scores = self.contract_scores[:]
        new.low = self.low[:]
        new.high = self.high[:]
        new.finish_order = self.finish_order[:]
        return new

    def plays(self) -> list[tuple[int, int | None]]:
        """This hand's play so far as ``(seat, card)`` pairs in order, ``card`` ``None`` for a Dominoes pass."""
        out: list[tuple[int, int | None]] = []
        if self.contract == DOMINOES:
            seat = self.declarer
            left = [13, 13, 13, 13]
            for c in self.play:
                out.append((seat, c))
                if c is not None:
                    left[seat] -= 1
                seat = (seat + 1) % 4
                while not left[seat] and any(left):
                    seat = (seat + 1) % 4
            return out
        for leader, cards, _ in self.tricks:
            out.extend(((leader + i) % 4, c) for i, c in enumerate(cards))
        out.extend(((self.leader + i) % 4, c) for i, c in enumerate(self.trick))
        return out

    # ------------------------------------------------------------------ queries

    @property
    def lead_rule(self) -> str | None:
        """The lead restriction in force: ``None`` (free), ``king`` (K♥ only when it is the leader's last
        card), ``strict`` (no heart lead unless only hearts) or ``broken`` (not until hearts are broken)."""
        return self._lead_rule

    @property
    def playable(self) -> int:
        """Dominoes: the cards that fit a row now, whoever holds them (a bitmask)."""
        return self._playable

    @property
    def over(self) -> bool:
        """Whether the hand has ended (all tricks played, an early end, or the third player out)."""
        return self.phase == OVER

    def settlements(self) -> list[int]:
        """Each seat's settlement of doubles from the contract scores so far ("Settling doubles")."""
        return settle(self.contract_scores, self.doubles, self.redoubles)

    def double_targets(self, seat: int) -> frozenset[int]:
        """The seats ``seat`` may double in this hand's doubling round ("Doubling", rule 1)."""
        if seat == self.declarer:
            return frozenset()
        if self.contract in DECLARER_ONLY_DOUBLES:
            return _ONLY[self.declarer]
        return _OTHERS[seat]

    def redouble_targets(self, seat: int) -> frozenset[int]:
        """The players who doubled ``seat`` and whom ``seat`` did not double ("Doubling", rule 3)."""
        doubled = set(self.doubles)
        return frozenset(a for a, b in self.doubles if b == seat and (seat, a) not in doubled)

    def legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now, as a bitmask (0 when it is not their turn to play a card)."""
        if self.phase != PLAY or seat != self.to_move:
            return 0
        if self.contract == DOMINOES:
            return self.hands[seat] & self._playable
        return self.trick_mask(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; ``[]`` when it is not their turn."""
        if seat != self.to_move:
            return []
        if self.phase == PLAY:
            mask = self.legal_mask(seat)
            if self.contract == DOMINOES and not mask:
                return [PASS]
            return [Play(c) for c in card_list(mask)]
        if self.phase == CONTRACT:
            return [a for a in _CONTRACT_ACTIONS if a.contract in self.contracts_left]
        if self.phase == DOUBLE:
            return list(
                _subsets(Double, self.double_targets(seat), self.declarer if seat in self.must_double else -1)
            )
        return list(_subsets(Redouble, self.redouble_targets(seat), -1))

    # ------------------------------------------------------------------ actions

    def check(self, seat: int, action: Action) -> None:
        """Raise the :class:`IllegalAction` that ``apply(seat, action)`` would raise, if any; changes nothing
        (the server checks an action before it logs it, and applies it only once it is logged).

        Raises:
            IllegalAction: out of turn, the wrong kind of action for the phase, or a rule broken.
        """
        if self.phase == OVER:
            raise IllegalAction("hand-over", "the hand is over")
        if seat != self.to_move:
            raise IllegalAction(
                "not-your-turn",
                f"it is {SEATS[self.to_move or 0]}'s turn, not {SEATS[seat]}'s",
                to_move=SEATS[self.to_move or 0],
            )
        if self.phase == PLAY:
            if isinstance(action, Play):
                self._check_card(seat, action.card)
            elif isinstance(action, Pass):
                if self.contract != DOMINOES:
                    raise IllegalAction(
                        "wrong-phase", "passing is only for Dominoes; play a card", phase=PLAY
                    )
                if self.hands[seat] & self._playable:
                    raise IllegalAction("must-play", "a player with a playable card must play one")
            else:
                raise IllegalAction("wrong-phase", "it is the play; play a card", phase=PLAY)
        elif self.phase == CONTRACT:
            if not isinstance(action, ChooseContract):
                raise IllegalAction(
                    "wrong-phase", "the declarer must first choose a contract", phase=CONTRACT
                )
            self._check_choice(action)
        elif self.phase == DOUBLE:
            if not isinstance(action, Double):
                raise IllegalAction(
                    "wrong-phase", "it is the doubling round; double (possibly nobody)", phase=DOUBLE
                )
            self._check_double(seat, action.targets)
        else:
            if not isinstance(action, Redouble):
                raise IllegalAction(
                    "wrong-phase", "it is the redouble round; redouble (possibly nobody)", phase=REDOUBLE
                )
            self._check_redouble(seat, action.targets)

    def apply(self, seat: int, action: Action) -> None:
        """Take ``action`` for ``seat``.

        Raises:
            IllegalAction: out of turn, the wrong kind of action for the phase, or a rule broken (see
                :meth:`check`); nothing changes.
        """
        self.check(seat, action)
        if isinstance(action, Play):
            self.play_card(seat, action.card)
        elif isinstance(action, Pass):
            self.pass_turn(seat)
        elif isinstance(action, ChooseContract):
            self._choose(action)
        elif isinstance(action, Double):
            self._double(seat, action.targets)
        else:
            assert isinstance(action, Redouble)
            self._redouble(seat, action.targets)

    def _emit(self, kind: str, to: int | None = None, **data: object) -> None:
        if self.events is not None:
            self.events.append(Event(kind, dict(data), to))

    def _check_choice(self, choice: ChooseContract) -> None:
        contract = choice.contract
        if contract not in CONTRACTS:
            raise IllegalAction("bad-action", f"unknown contract {contract!r}")
        if contract not in self.contracts_left:
            raise IllegalAction(
                "contract-played",
                f"{SEATS[self.declarer]} has already played {contract}",
                declarer=SEATS[self.declarer],
                contract=contract,
            )
        if (choice.trump is not None) != (contract == TRUMPS):
            raise IllegalAction("trump-suit", "Trumps needs a trump suit, and only Trumps takes one")
        if (choice.start_rank is not None) != (contract == DOMINOES):
            raise IllegalAction("start-rank", "Dominoes needs a starting rank, and only Dominoes takes one")

    def _choose(self, choice: ChooseContract) -> None:
        contract = choice.contract
        self.contract, self.trump, self.start_rank = contract, choice.trump, choice.start_rank
        if contract in (NO_HEARTS, BARBU):
            rule = self.variants.heart_lead
            if rule == "seed":
                rule = "strict" if contract == NO_HEARTS else "king"
            self._lead_rule = None if rule == "free" else rule
        if contract == DOMINOES:
            assert choice.start_rank is not None
            self._playable = sum(1 << (s * 13 + choice.start_rank) for s in range(4))
        data: dict[str, object] = {"declarer": SEATS[self.declarer], "contract": contract}
        if choice.trump is not None:
            data["trump"] = SUITS[choice.trump]
        if choice.start_rank is not None:
            data["start_rank"] = RANKS[choice.start_rank]
        if self.events is not None:
            self.events.append(Event("contract-chosen", data))
        self.phase = DOUBLE
        self.to_move = self._double_queue.pop(0)

    def _check_double(self, seat: int, targets: frozenset[int]) -> None:
        allowed = self.double_targets(seat)
        bad = targets - allowed
        if bad:
            who = SEATS[min(bad)]
            why = (
                "only the declarer may be doubled in " + str(self.contract)
                if self.contract in (DECLARER_ONLY_DOUBLES)
                else "a player cannot double themselves"
            )
            raise IllegalAction(
                "double-not-allowed",
                f"{SEATS[seat]} may not double {who}: {why}",
                target=who,
                declarer=SEATS[self.declarer],
                contract=self.contract,
            )
        if seat in self.must_double and self.declarer not in targets:
            raise IllegalAction(
                "must-double",
                f"{SEATS[seat]} must double the declarer {SEATS[self.declarer]}: the doubles still owed equal the "
                "declarer's hands left (must-double rule)",
                declarer=SEATS[self.declarer],
            )

    def _double(self, seat: int, targets: frozenset[int]) -> None:
        ordered = sorted(targets)
        self.doubles.extend((seat, t) for t in ordered)
        if self.events is not None:
            self._emit("doubled", seat=SEATS[seat], targets=[SEATS[t] for t in ordered])
        if self._double_queue:
            self.to_move = self._double_queue.pop(0)
            return
        order = [(self.declarer + i) % 4 for i in (1, 2, 3, 4)]
        self._redouble_queue = [s for s in order if self.redouble_targets(s)]
        self._next_redoubler()

    def _check_redouble(self, seat: int, targets: frozenset[int]) -> None:
        bad = targets - self.redouble_targets(seat)
        if bad:
            raise IllegalAction(
                "redouble-not-allowed",
                f"{SEATS[seat]} may redouble only players who doubled them (and whom they did not double), "
                f"not {SEATS[min(bad)]}",
                target=SEATS[min(bad)],
            )

    def _redouble(self, seat: int, targets: frozenset[int]) -> None:
        ordered = sorted(targets)
        self.redoubles.extend((seat, t) for t in ordered)
        if self.events is not None:
            self._emit("redoubled", seat=SEATS[seat], targets=[SEATS[t] for t in ordered])
        self._next_redoubler()

    def _next_redoubler(self) -> None:
        if self._redouble_queue:
            self.phase = REDOUBLE
            self.to_move = self._redouble_queue.pop(0)
        else:
            self.phase = PLAY
            self.to_move = self.leader = self.declarer

    # ------------------------------------------------------------------ play

    def trick_mask(self, seat: int) -> int:
        """The cards ``seat`` may play to the trick by the rules of the trick contracts, as a bitmask, without
        checking that it is the play and ``seat``'s turn (:meth:`legal_mask` checks; fast playouts know)."""
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            rule = self._lead_rule
            if rule is None:
                return hand
            if rule == "king":
                return hand if hand == _KH_BIT else hand & ~_KH_BIT
            others = hand & ~HEARTS_MASK
            if not others or (rule == "broken" and self.hearts_broken):
                return hand
            return others
        led = trick[0] // 13
        follow = hand & SUIT_MASKS[led]
        trump = self.trump
        duty = self.duty
        if follow:
            if trump == led and duty == "overtrump":
                best = max(c for c in trick if c // 13 == led)
                return follow & ~((1 << (best + 1)) - 1) or follow
            return follow
        if trump is None or duty == "follow-only":
            return hand
        trumps = hand & SUIT_MASKS[trump]
        if not trumps:
            return hand
        if duty == "overtrump":
            played = [c for c in trick if c // 13 == trump]
            if played:
                return trumps & ~((1 << (max(played) + 1)) - 1) or trumps
        return trumps

    def _check_card(self, seat: int, c: int) -> None:
        """Raise the :class:`IllegalAction` that says why ``seat`` may not play ``c`` now, if they may not."""
        hand = self.hands[seat]
        if not (hand >> c) & 1:
            raise IllegalAction(
                "not-in-hand", f"{SEATS[seat]} does not hold {card_text(c)}", card=card_text(c)
            )
        if self.contract == DOMINOES:
            if not (self._playable >> c) & 1:
                raise IllegalAction(
                    "not-playable",
                    f"{card_text(c)} does not fit a row: {self._rows_text()}",
                    card=card_text(c),
                    start_rank=RANKS[self.start_rank or 0],
                    rows=self.rows(),
                )
            return
        if (self.trick_mask(seat) >> c) & 1:
            return
        if not self.trick:
            if self._lead_rule == "king":
                raise IllegalAction(
                    "king-of-hearts-lead",
                    "KH may not be led unless it is the leader's only card",
                    card=card_text(c),
                )
            why = "until a heart has been discarded" if self._lead_rule == "broken" else "in this contract"
            raise IllegalAction(
                "hearts-lead",
                f"hearts may not be led {why} unless the leader holds only hearts",
                card=card_text(c),
                lead_rule=self._lead_rule,
            )
        led = self.trick[0] // 13
        if hand & SUIT_MASKS[led] and c // 13 != led:
            raise IllegalAction(
                "must-follow-suit", f"must follow suit {SUITS[led]}", card=card_text(c), led=SUITS[led]
            )
        assert self.trump is not None
        if self.duty == "overtrump" and (c // 13 == self.trump or c // 13 == led):
            # The card to beat: the highest trump in the trick (the highest of the led suit when trumps led).
            best = max(x for x in self.trick if x // 13 == self.trump)
            raise IllegalAction(
                "must-overtrump",
                "must play a trump higher than the trumps already played",
                card=card_text(c),
                led=SUITS[led],
                trump=SUITS[self.trump],
                over=card_text(best),
            )
        raise IllegalAction(
            "must-ruff",
            f"cannot follow suit {SUITS[led]}: must play a trump ({SUITS[self.trump]})",
            card=card_text(c),
            led=SUITS[led],
            trump=SUITS[self.trump],
        )

    def unplayable(self, seat: int) -> dict[int, IllegalAction]:
        """Card -> why ``seat`` may not play it now (the :class:`IllegalAction` ``check`` would raise), for
        each card of ``seat``'s hand that is not playable, when ``seat`` is to play; ``{}`` otherwise (not
        the play, not their turn). A Dominoes pass is not a card: it is not here."""
        if self.phase != PLAY or seat != self.to_move:
            return {}
        playable = self.legal_mask(seat)
        out: dict[int, IllegalAction] = {}
        for c in card_list(self.hands[seat] & ~playable):
            try:
                self._check_card(seat, c)
            except IllegalAction as exc:
                out[c] = exc
        return out

    def _rows_text(self) -> str:
        assert self.start_rank is not None
        rows = []
        for s in range(4):
            lo, hi = self.low[s], self.high[s]
            rows.append(
                f"{SUITS[s]} empty" if lo is None or hi is None else f"{SUITS[s]} {RANKS[lo]}-{RANKS[hi]}"
            )
        return f"rows start at {RANKS[self.start_rank]}; " + ", ".join(rows)

    def play_card(self, seat: int, c: int) -> None:
        """Play card ``c`` for ``seat`` without checking legality (the caller has: see :meth:`legal_mask`)."""
        bit = 1 << c
        self.hands[seat] ^= bit
        self.played |= bit
        self.play.append(c)
        if self.events is not None:
            self._emit("card-played", seat=SEATS[seat], card=card_text(c))
        if self.contract == DOMINOES:
            self._domino(seat, c)
            return
        trick = self.trick
        trick.append(c)
        if len(trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        self._finish_trick()

    def pass_turn(self, seat: int) -> None:
        """Record a Dominoes pass for ``seat`` without checking that they have no playable card."""
        self.play.append(None)
        self._emit("passed", seat=SEATS[seat])
        self._next_domino_seat(seat)

    def _finish_trick(self) -> None:
        trick = self.trick
        led = trick[0] // 13
        winner = trick_winner(trick, self.leader, self.trump)
        taken = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        if led != HEARTS and taken & HEARTS_MASK:
            self.hearts_broken = True
        number = len(self.tricks)  # 0-based index of this trick
        self.tricks.append((self.leader, tuple(trick), winner))
        self.tricks_won[winner] += 1
        self.contract_scores[winner] += self._trick_score(taken, number)
        if self.events is not None:
            self._emit(
                "trick-won",
                trick_number=number + 1,
                leader=SEATS[self.leader],
                cards=[card_text(c) for c in trick],
                winner=SEATS[winner],
            )
        self.trick = []
        if number == 12 or (self.variants.early_end and self._ends_early()):
            self.phase = OVER
            self.to_move = None
            return
        self.leader = self.to_move = winner

    def _trick_score(self, taken: int, number: int) -> int:
        """Score for the winner of trick ``number`` (0-based) holding the cards ``taken``."""
        contract = self.contract
        if contract == NO_TRICKS:
            return -2
        if contract == TRUMPS:
            return 5
        if contract == NO_QUEENS:
            return -6 * (taken & QUEENS_MASK).bit_count()
        if contract == NO_HEARTS:
            return -2 * (taken & HEARTS_MASK).bit_count() - (4 if taken & _AH_BIT else 0)
        if contract == BARBU:
            return -20 if taken & _KH_BIT else 0
        if contract == NO_LAST_TWO:
            return -10 if number == 11 else -20 if number == 12 else 0
        raise AssertionError(contract)

    def _ends_early(self) -> bool:
        contract, played = self.contract, self.played
        if contract == NO_QUEENS:
            return played & QUEENS_MASK == QUEENS_MASK
        if contract == NO_HEARTS:
            return played & HEARTS_MASK == HEARTS_MASK
        if contract == BARBU:
            return bool(played & _KH_BIT)
        return False

    def _domino(self, seat: int, c: int) -> None:
        suit, rank = divmod(c, 13)
        playable = self._playable & ~(1 << c)
        lo, hi = self.low[suit], self.high[suit]
        if lo is None or hi is None:
            lo = hi = rank
            if rank > 0:
                playable |= 1 << (c - 1)
            if rank < 12:
                playable |= 1 << (c + 1)
        elif rank < lo:
            lo = rank
            if rank > 0:
                playable |= 1 << (c - 1)
        else:
            hi = rank
            if rank < 12:
                playable |= 1 << (c + 1)
        self.low[suit], self.high[suit] = lo, hi
        self._playable = playable
        if not self.hands[seat]:
            self.finish_order.append(seat)
            points = self.variants.dominoes_points
            place = len(self.finish_order)
            self.contract_scores[seat] += points[place - 1]
            self._emit("player-out", seat=SEATS[seat], place=place)
            if place == 3:
                last = next(s for s in range(4) if s not in self.finish_order)
                self.finish_order.append(last)
                self.contract_scores[last] += points[3]
                self._emit("player-out", seat=SEATS[last], place=4)
                self.phase = OVER
                self.to_move = None
                return
        self._next_domino_seat(seat)

    def _next_domino_seat(self, seat: int) -> None:
        nxt = (seat + 1) % 4
        while not self.hands[nxt]:
            nxt = (nxt + 1) % 4
        self.to_move = nxt

    def rows(self) -> dict[str, list[str]]:
        """Dominoes: each suit's row as card texts from low to high (empty lists for unopened rows)."""
        out: dict[str, list[str]] = {}
        for s in range(4):
            lo, hi = self.low[s], self.high[s]
            out[SUITS[s]] = (
                [] if lo is None or hi is None else [card_text(s * 13 + r) for r in range(lo, hi + 1)]
            )
        return out

    def hand_texts(self, seat: int) -> list[str]:
        """The cards ``seat`` still holds, as texts."""
        return texts(self.hands[seat])

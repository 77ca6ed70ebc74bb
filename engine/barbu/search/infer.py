"""What one seat's view implies about the cards it cannot see (``docs/rules/barbu.md``).

From a seat's ``view`` alone (``Match.view(seat)``) this module rebuilds the hand as far as the seat knows
it, a :class:`~engine.barbu.hand.Hand` with every card played so far and the other seats' unplayed cards
left out, and infers what each other seat cannot hold:

- a player who did not follow the suit led holds none of it (from then on, hands only shrink);
- in Trumps (``trump-duty`` ``ruff`` or ``overtrump``) a player who could not follow and did not play a
  trump holds no trump; under ``overtrump``, a player who played a trump lower than the best trump already
  in the trick (following a trump lead, or ruffing) holds no higher trump;
- a heart led where hearts may not be led (No Hearts ``strict``, ``broken`` before hearts are broken)
  means the leader held only hearts;
- in Dominoes a pass means no card that fitted a row at that moment;
- every card seen (played, or in the seat's own hand) is nobody else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.barbu.actions import ChooseContract
from engine.barbu.hand import PLAY, Hand
from engine.barbu.rules import CONTRACTS, DOMINOES, HEARTS_MASK, Variants
from engine.cards import FULL_DECK, RANKS, SUIT_MASKS, SUITS, mask_of, parse_card, parse_seat

#: A bit above the deck marks "this seat still holds unknown cards" while the play is replayed, so that the
#: engine does not take a seat whose known cards are all played for a seat out of cards (Dominoes).
_UNKNOWN = [1 << (52 + s) for s in range(4)]


@dataclass
class Knowledge:
    """What ``seat`` knows: its ``hand`` (bitmask), the ``unseen`` cards (held by the three others), each
    seat's number of unplayed cards (``sizes``), and the cards each seat cannot hold (``forbidden``, masks
    by seat; the seat's own entry is unused)."""

    seat: int
    hand: int
    unseen: int
    sizes: list[int]
    forbidden: list[int]

    def allowed(self) -> list[int]:
        """For each seat, the unseen cards it may hold (0 for the seat itself)."""
        return [0 if s == self.seat else self.unseen & ~self.forbidden[s] for s in range(4)]


def _choice(view: dict[str, Any]) -> ChooseContract:
    trump = view["trump"]
    start = view["start_rank"]
    return ChooseContract(
        view["contract"],
        None if trump is None else SUITS.index(trump),
        None if start is None else RANKS.index(start),
    )


def _plays(view: dict[str, Any]) -> list[tuple[int, int | None]]:
    """The hand's plays so far in order, ``(seat, card or None for a pass)``."""
    if view["contract"] == DOMINOES:
        return [(parse_seat(s), None if c is None else parse_card(c)) for s, c in view["plays"]]
    out: list[tuple[int, int | None]] = []
    for trick in [*view["tricks"], view["trick"]]:
        leader = parse_seat(trick["leader"])
        out.extend(((leader + i) % 4, parse_card(c)) for i, c in enumerate(trick["cards"]))
    return out


def read_view(view: dict[str, Any]) -> tuple[Knowledge, Hand]:
    """The seat's knowledge, and the hand replayed to now with the others' unplayed cards left out (add a
    sample's cards to ``hand.hands`` before playing on; in the contract phase no contract is set yet).

    Raises:
        ValueError: the view is a spectator's, or does not replay (not a view this engine made).
    """
    if view["seat"] is None:
        raise ValueError("a spectator's view: search plays a seat")
    seat = parse_seat(view["seat"])
    mine = mask_of(parse_card(c) for c in view["hand"])
    sizes = [view["hand_sizes"][letter] for letter in "NESW"]
    declarer = parse_seat(view["declarer"])
    forbidden = [0, 0, 0, 0]
    plays = _plays(view) if view["contract"] is not None else []
    played_by = [0, 0, 0, 0]
    for s, c in plays:
        if c is not None:
            played_by[s] |= 1 << c
    start = [
        (mine | played_by[s]) if s == seat else played_by[s] | (_UNKNOWN[s] if sizes[s] else 0)
        for s in range(4)
    ]
    hand = Hand(
        declarer,
        start,
        Variants.from_dict(view["variants"]),
        frozenset(view["contracts_left"][view["declarer"]]) or frozenset(CONTRACTS),
    )
    if view["contract"] is not None:
        hand.apply(declarer, _choice(view))
        hand.doubles = [(parse_seat(a), parse_seat(b)) for a, b in view["doubles"]]
        hand.redoubles = [(parse_seat(a), parse_seat(b)) for a, b in view["redoubles"]]
        if view["phase"] == PLAY:
            hand.phase = PLAY
            hand.to_move = hand.leader = declarer
            _replay(hand, plays, forbidden)
        else:
            hand.phase = view["phase"]
    hand.to_move = None if view["to_move"] is None else parse_seat(view["to_move"])
    hand.hands = [h & FULL_DECK for h in hand.hands]
    played = 0
    for h in played_by:
        played |= h
    unseen = FULL_DECK & ~mine & ~played
    return Knowledge(seat, mine, unseen, sizes, forbidden), hand


def _replay(hand: Hand, plays: list[tuple[int, int | None]], forbidden: list[int]) -> None:
    """Play ``plays`` on ``hand`` through the fast path, adding to ``forbidden`` what each play implies."""
    trump = hand.trump
    duty = hand.duty
    ruff = trump is not None and duty != "follow-only"
    for seat, c in plays:
        if c is None:
            forbidden[seat] |= hand.playable
            hand.pass_turn(seat)
            continue
        if hand.contract != DOMINOES:
            trick = hand.trick
            suit = c // 13
            if not trick:
                rule = hand.lead_rule
                if (1 << c) & HEARTS_MASK and (
                    rule == "strict" or (rule == "broken" and not hand.hearts_broken)
                ):
                    forbidden[seat] |= FULL_DECK & ~HEARTS_MASK
            else:
                led = trick[0] // 13
                if suit != led:
                    forbidden[seat] |= SUIT_MASKS[led]
                    if ruff and suit != trump:
                        assert trump is not None
                        forbidden[seat] |= SUIT_MASKS[trump]
                    elif ruff and duty == "overtrump":
                        forbidden[seat] |= _trumps_above(trick, c, trump)
                elif led == trump and duty == "overtrump":
                    forbidden[seat] |= _trumps_above(trick, c, trump)
        hand.play_card(seat, c)


def _trumps_above(trick: list[int], c: int, trump: int | None) -> int:
    """Under ``overtrump``: when ``c`` is lower than the best trump already in ``trick``, the trumps above
    that best one (the player had none); else 0."""
    assert trump is not None
    played = [x for x in trick if x // 13 == trump]
    if not played or c > max(played):
        return 0
    best = max(played)
    return SUIT_MASKS[trump] & ~((1 << (best + 1)) - 1)

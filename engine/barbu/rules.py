"""The fixed numbers of Barbu and the table's rule switches (``docs/rules/barbu.md``).

The seven contracts, their penalty cards and scores ("The seven contracts"), and :class:`Variants`, the
named switches of "Named variants" whose defaults are exactly the rules as written.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.cards import SUIT_MASKS, card

NO_TRICKS = "no-tricks"
NO_QUEENS = "no-queens"
NO_LAST_TWO = "no-last-two"
NO_HEARTS = "no-hearts"
BARBU = "barbu"
TRUMPS = "trumps"
DOMINOES = "dominoes"

#: The seven contracts in the order of the rules table.
CONTRACTS: tuple[str, ...] = (NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS, DOMINOES)
NEGATIVE_CONTRACTS = frozenset({NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU})
#: Contracts in which a player may double only the declarer ("Doubling", rule 1).
DECLARER_ONLY_DOUBLES = frozenset({TRUMPS, DOMINOES})

#: What every contract's scores add up to over the four seats (before settlement).
CONTRACT_TOTALS = {
    NO_TRICKS: -26,
    NO_QUEENS: -24,
    NO_LAST_TWO: -30,
    NO_HEARTS: -30,
    BARBU: -20,
    TRUMPS: 65,
    DOMINOES: 65,
}

HEARTS = 1
HEARTS_MASK = SUIT_MASKS[HEARTS]
KING_OF_HEARTS = card(11, HEARTS)
ACE_OF_HEARTS = card(12, HEARTS)
QUEENS_MASK = sum(1 << card(10, s) for s in range(4))

HANDS_PER_DECLARER = 7
HANDS_PER_MATCH = 28
#: "Must-double rule": doubles each other player owes a declarer over that declarer's seven hands.
DOUBLES_OWED = 2

HEART_LEAD = ("seed", "strict", "broken", "free")
TRUMP_DUTY = ("follow-only", "ruff", "overtrump")
DOMINOES_SCORES = {
    "45/20/5/-5": (45, 20, 5, -5),
    "40/25/10/-10": (40, 25, 10, -10),
    "45/20/10/-10": (45, 20, 10, -10),
}
ROTATION = ("block", "each-hand")


class RuleSetError(ValueError):
    """A rule-set dict names an unknown switch or value; ``key`` says which."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"variants.{key}: {message}")
        self.key = key


@dataclass(frozen=True, slots=True)
class Variants:
    """A table's rule set: every "Named variants" switch of ``docs/rules/barbu.md``.

    ``heart_lead`` ``"seed"`` is the default (strict in No Hearts, the K♥-only restriction in Barbu);
    ``"strict"``, ``"broken"`` and ``"free"`` apply to both No Hearts and Barbu. ``trump_duty`` defaults to
    ``"ruff"``; ``dominoes_scores`` to ``"45/20/5/-5"``; ``rotation`` to ``"block"``; ``early_end`` to on.
    """

    heart_lead: str = "seed"
    trump_duty: str = "ruff"
    dominoes_scores: str = "45/20/5/-5"
    rotation: str = "block"
    early_end: bool = True

    @classmethod
    def from_dict(cls, data: Any) -> Variants:
        """Read the ``variants`` object of a record or a table request (keys with dashes).

        Raises:
            RuleSetError: not an object, an unknown switch, or a value the switch does not take.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RuleSetError("", "must be an object of switches")
        allowed: dict[str, tuple[Any, ...]] = {
            "heart-lead": HEART_LEAD,
            "trump-duty": TRUMP_DUTY,
            "dominoes-scores": tuple(DOMINOES_SCORES),
            "rotation": ROTATION,
            "early-end": (True, False, "on", "off"),
        }
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in allowed:
                raise RuleSetError(str(key), f"unknown switch (switches are {', '.join(allowed)})")
            if key == "early-end":
                ok = isinstance(value, bool) or value in ("on", "off")
            else:
                ok = isinstance(value, str) and value in allowed[key]
            if not ok:
                raise RuleSetError(key, f"{value!r} is not one of {', '.join(map(str, allowed[key]))}")
            if key == "early-end":
                value = value in (True, "on")
            values[key.replace("-", "_")] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The switches that differ from the defaults, keyed as in records (``{"trump-duty": "overtrump"}``)."""
        default = Variants()
        return {
            f.name.replace("_", "-"): getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    @property
    def dominoes_points(self) -> tuple[int, int, int, int]:
        """Points for finishing 1st, 2nd, 3rd and 4th in Dominoes."""
        return DOMINOES_SCORES[self.dominoes_scores]

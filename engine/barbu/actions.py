"""What a seat can do in a hand of Barbu, the typed error for what it may not, and the wire forms.

Wire forms (msgpack/JSON maps, ``docs/protocol.md``)::

    {"action": "contract", "contract": "trumps", "trump": "H"}
    {"action": "contract", "contract": "dominoes", "start_rank": "6"}
    {"action": "double", "targets": ["N", "S"]}
    {"action": "redouble", "targets": ["E"]}
    {"action": "play", "card": "QS"}
    {"action": "pass"}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.barbu.rules import CONTRACTS
from engine.cards import (
    RANKS,
    SUITS,
    NotationError,
    card_text,
    parse_card,
    parse_rank,
    parse_seat,
    parse_suit,
    seat_text,
)
from engine.jsontext import show


class IllegalAction(ValueError):
    """An action the rules refuse. ``code`` is a short rule id (``must-follow-suit``), ``str()`` says why,
    ``rule_args`` the facts it was broken on, wire-ready (``{"led": "H"}``; ``docs/protocol.md`` "Rule
    codes" lists each code's), so that a client can say it in its own words without re-deriving the rule.

    Raised by ``apply`` before any state changes, so the game is exactly as it was.
    """

    def __init__(self, code: str, message: str, **rule_args: Any) -> None:
        super().__init__(message)
        self.code = code
        self.rule_args: dict[str, Any] = rule_args


@dataclass(frozen=True, slots=True)
class ChooseContract:
    """The declarer's choice: ``contract`` (an id of ``CONTRACTS``), ``trump`` suit 0..3 for Trumps only,
    ``start_rank`` 0..12 (0 = 2) for Dominoes only."""

    contract: str
    trump: int | None = None
    start_rank: int | None = None


@dataclass(frozen=True, slots=True)
class Double:
    """A player's doubling turn: the seats (0..3) they double, possibly none."""

    targets: frozenset[int]


@dataclass(frozen=True, slots=True)
class Redouble:
    """A doubled player's redouble turn: seats (0..3) that doubled them and are redoubled, possibly none."""

    targets: frozenset[int]


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (0..51) to the trick, or to a row in Dominoes."""

    card: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Dominoes only: the player has no playable card."""


Action = ChooseContract | Double | Redouble | Play | Pass
PASS = Pass()


def action_to_wire(action: Action) -> dict[str, Any]:
    """The wire map of ``action`` (see the module docstring)."""
    if isinstance(action, Play):
        return {"action": "play", "card": card_text(action.card)}
    if isinstance(action, Pass):
        return {"action": "pass"}
    if isinstance(action, ChooseContract):
        wire: dict[str, Any] = {"action": "contract", "contract": action.contract}
        if action.trump is not None:
            wire["trump"] = SUITS[action.trump]
        if action.start_rank is not None:
            wire["start_rank"] = RANKS[action.start_rank]
        return wire
    kind = "double" if isinstance(action, Double) else "redouble"
    return {"action": kind, "targets": [seat_text(s) for s in sorted(action.targets)]}


def action_from_wire(data: Any) -> Action:
    """Read a wire map into an :data:`Action`.

    Raises:
        IllegalAction: code ``bad-action``, naming the field that is missing, unknown or malformed.
    """
    if not isinstance(data, dict):
        raise IllegalAction("bad-action", "an action must be a map with an 'action' field")
    kind = data.get("action")
    expected = {
        "contract": {"action", "contract", "trump", "start_rank"},
        "double": {"action", "targets"},
        "redouble": {"action", "targets"},
        "play": {"action", "card"},
        "pass": {"action"},
    }
    if kind not in expected:
        raise IllegalAction("bad-action", f"action: unknown kind {show(kind)} (one of {', '.join(expected)})")
    extra = set(data) - expected[kind]
    if extra:
        raise IllegalAction("bad-action", f"{kind}: unexpected field {show(sorted(map(str, extra))[0])}")
    try:
        if kind == "play":
            return Play(parse_card(_field(data, "card")))
        if kind == "pass":
            return PASS
        if kind == "contract":
            contract = _field(data, "contract")
            if contract not in CONTRACTS:
                raise IllegalAction(
                    "bad-action", f"contract: {show(contract)} is not one of {', '.join(CONTRACTS)}"
                )
            trump = data.get("trump")
            start = data.get("start_rank")
            return ChooseContract(
                contract,
                None if trump is None else parse_suit(_text(trump, "trump")),
                None if start is None else parse_rank(_text(start, "start_rank")),
            )
        targets = data.get("targets")
        if not isinstance(targets, list) or len(targets) > 3:
            raise IllegalAction("bad-action", f"{kind}.targets: must be a list of up to 3 seats")
        seats = frozenset(parse_seat(_text(t, "targets")) for t in targets)
        if len(seats) != len(targets):  # ["S", "S"] is a mistake to report, not a double to guess at
            raise IllegalAction("bad-action", f"{kind}.targets: a seat is named twice")
        return Double(seats) if kind == "double" else Redouble(seats)
    except NotationError as err:
        raise IllegalAction("bad-action", f"{kind}: {err}") from None


def _field(data: dict[str, Any], name: str) -> str:
    if name not in data:
        raise IllegalAction("bad-action", f"{show(data.get('action'))}: missing field {name!r}")
    return _text(data[name], name)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise IllegalAction("bad-action", f"{name}: must be text, not {type(value).__name__}")
    return value

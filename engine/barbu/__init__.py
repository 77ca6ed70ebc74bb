"""Barbu, the rules as a pure, deterministic engine (``docs/rules/barbu.md``).

The game object is :class:`Match` (28 hands); :class:`Hand` is one deal. Actions, events, views, records
and the built-in bot policies are re-exported here.
"""

from engine.barbu.actions import (
    PASS,
    Action,
    ChooseContract,
    Double,
    IllegalAction,
    Pass,
    Play,
    Redouble,
    action_from_wire,
    action_to_wire,
)
from engine.barbu.bots import Policy
from engine.barbu.events import Event
from engine.barbu.hand import Hand
from engine.barbu.match import Match
from engine.barbu.records import (
    RecordError,
    deal_record,
    deal_result,
    match_replay,
    match_result,
    read_deal,
    read_match,
)
from engine.barbu.rules import CONTRACTS, RuleSetError, Variants
from engine.barbu.spec import POLICIES, PolicySpec, PolicySpecError, make_policy, parse_policy_spec

__all__ = [
    "CONTRACTS",
    "PASS",
    "POLICIES",
    "Action",
    "ChooseContract",
    "Double",
    "Event",
    "Hand",
    "IllegalAction",
    "Match",
    "Pass",
    "Play",
    "Policy",
    "PolicySpec",
    "PolicySpecError",
    "RecordError",
    "Redouble",
    "RuleSetError",
    "Variants",
    "action_from_wire",
    "action_to_wire",
    "deal_record",
    "deal_result",
    "make_policy",
    "match_replay",
    "match_result",
    "parse_policy_spec",
    "read_deal",
    "read_match",
]

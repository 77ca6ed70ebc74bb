"""How a table's server bots and stand-ins choose: cheap policies in the event loop, ``search`` in the worker
pool (``server.workers``), never in the loop.

:func:`search_action` is the job a worker process runs: a policy spec, its seed and the seat's view in, a wire
action out. :func:`worker_budget` is the time a job may take, at most the server's ``max_bot_time``; past
it (plus the pool's grace) the pool stops the job, and a table that has waited :data:`ANSWER_MARGIN` seconds
past the budget, time queued for a worker included, falls back to :data:`FALLBACK_POLICY` for that decision.
:func:`check_bot_time` refuses a table's or bot's policy asking a longer time per decision than the server
allows, so that no table can hold the workers for long.
"""

from __future__ import annotations

from typing import Any

from engine.barbu import action_from_wire, action_to_wire, make_policy, parse_policy_spec
from engine.barbu.search import DEFAULT_TIME, SearchPolicy
from protocol import ProtocolError

#: What plays a decision the worker pool could not answer (busy, overrun, stopped).
FALLBACK_POLICY = "heuristic"
#: The longest a ``search:playouts=N`` decision may take at a table (seconds).
PLAYOUTS_BUDGET = 10.0
#: Seconds past its budget a table waits for a worker's answer (queued or running) before
#: :data:`FALLBACK_POLICY` decides instead.
ANSWER_MARGIN = 1.0


def runs_in_worker(spec: str) -> bool:
    """Whether the policy ``spec`` (canonical text) is CPU-heavy and must run in the worker pool."""
    return parse_policy_spec(spec).name == "search"


def worker_budget(spec: str, most: float | None = None) -> float:
    """Seconds a decision of ``spec`` may take in a worker: its ``time`` (default 0.5 s), or
    :data:`PLAYOUTS_BUDGET` for a playout count; at most ``most`` seconds (the server's ``max_bot_time``;
    None: no cap)."""
    parsed = parse_policy_spec(spec)
    if parsed.get("playouts") is not None:
        budget = PLAYOUTS_BUDGET
    else:
        seconds = parsed.get("time")
        budget = DEFAULT_TIME if seconds is None else float(seconds)
    return budget if most is None else min(budget, most)


def check_bot_time(spec: str, field: str, most: float) -> str:
    """``spec`` (canonical text) when its decisions ask for at most ``most`` seconds each (``time``);
    a ``search:playouts=N`` spec is bounded by ``most`` when it plays (``worker_budget``).

    Raises:
        ProtocolError: ``bad-message`` naming ``field`` when ``spec`` asks for more than ``most`` seconds.
    """
    if runs_in_worker(spec):
        seconds = parse_policy_spec(spec).get("time")
        if seconds is not None and float(seconds) > most:
            raise ProtocolError(
                "bad-message",
                f"{field}: at most time={most:g} seconds a decision on this server, not {float(seconds):g}",
                field=field,
            )
    return spec


def search_action(spec: str, seed: int, view: dict[str, Any], *, budget: float) -> dict[str, Any]:
    """In a worker process: the wire action policy ``spec`` (seeded by ``seed``) chooses from ``view``,
    which must hold the seat's ``legal`` actions. A time budget is cut to ``budget`` seconds.

    Raises:
        ValueError: a spec the engine cannot read, or a view without legal actions.
    """
    policy = make_policy(spec, seed)
    if isinstance(policy, SearchPolicy) and policy.playouts is None:
        policy.seconds = min(policy.seconds, budget)
    if not view.get("legal"):
        raise ValueError("the view holds no legal actions: the seat is not to move")
    legal = [action_from_wire(a) for a in view["legal"]]
    return action_to_wire(policy.choose(view, legal))

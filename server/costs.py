"""What a request costs of its connection's request budget (``ServerConfig.request_rate`` tokens a second,
``request_burst`` at most: ``server.ratelimit.TokenBucket``), by its ``type``.

A read answered from memory costs 1 (5 for ``list-matches`` and ``standings``, whose replies are large). A request that makes the server work harder costs more, so that one
connection keeping within its budget cannot stall everyone else: a game action is a write the store fsyncs
before the reply; a seat or spectator change writes and tells everyone at the room (a ``players`` push); a
new room writes and holds memory; a replay or a hint is a worker process's job. A frame that does not decode
(``bad-frame``, ``too-large``, ``limit``) is nobody's normal traffic and costs as much as a seat change.
Each WebSocket fragment of a message beyond its first costs ``FRAGMENT`` more: websockets parses every
fragment, so a cheap request split into 250 cost four times a whole one's CPU for one token.
``docs/protocol.md`` ("Request budget") lists the same figures.
"""

from __future__ import annotations

from typing import Any

#: A read answered from memory (``list-rooms``, ``snapshot``, ``chat``...), and any type not listed.
READ = 1.0
#: ``list-matches``: a reply of some 26 KB (200 finished matches), kept encoded but sent whole each time;
#: ``standings`` likewise (one line per player; after a match finished, that match is read and rated).
LISTING = 5.0
#: One game action: a store write, fsynced before the reply.
ACTION = 4.0
#: A seat or spectator change (a write, a ``players`` push to everyone at the room), a hint (a worker's job).
CHANGE = 10.0
#: A new room (a write, memory held) or a replay (about 0.1 s of a worker's CPU).
HEAVY = 20.0
#: A frame that does not decode.
BAD_FRAME = CHANGE
#: Each fragment of a message after its first. About 13 µs of the event loop's CPU each (a read answered
#: from memory takes about 1 ms), charged four times over: no client of ours splits a message, so a split
#: one is a flood's way to make one request cost much more than its token (a fresh attack: 190 cheap
#: requests a second in 250 fragments from each of three connections took a whole core and held another
#: player's round trips at p50 128 ms, where whole they cost 0.2 of a core).
FRAGMENT = READ / 16

COSTS: dict[str, float] = {
    "list-matches": LISTING,
    "standings": LISTING,
    **dict.fromkeys(("act", "move", "undo", "redo", "auto", "resign"), ACTION),
    **dict.fromkeys(("sit", "watch", "leave", "add-bot", "remove-bot", "remove-player", "hint"), CHANGE),
    **dict.fromkeys(("create-table", "rematch", "open-solitaire", "new-deal", "replay"), HEAVY),
}


def request_cost(wire: dict[str, Any]) -> float:
    """The budget decoded request ``wire`` costs (by its ``type``; ``READ`` for any other or none)."""
    kind = wire.get("type")
    return COSTS.get(kind, READ) if isinstance(kind, str) else READ

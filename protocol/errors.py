"""Error codes of the barbu protocol and the exception that carries one.

Every refusal the server sends is an ``error`` message with one of the codes below (``docs/protocol.md``,
"Error codes"). The codes are stable kebab-case identifiers; the message is for humans and may change.
"""

from __future__ import annotations

from typing import Any

ERROR_CODES: dict[str, str] = {
    "bad-frame": "the frame is not one map in the connection's encoding (malformed, trailing bytes, repeated key)",
    "too-large": "the frame is longer than the server's max_frame limit",
    "limit": "a string, array or map is longer, or the nesting deeper, than the limits allow",
    "bad-message": "a field is missing, of the wrong type, out of range, or not expected",
    "unknown-type": "the type field names no request of this protocol version",
    "version": "the client's protocol version is not one the server speaks",
    "hello-first": "the first request on a connection must be hello",
    "login-first": "this request needs a logged-in player (login or resume)",
    "already-logged-in": "this connection is already logged in",
    "bad-password": "the server password is missing or wrong",
    "bad-token": "the resume token is unknown or no longer valid",
    "bad-secret": "the personal secret is not the one the name was claimed with",
    "secret-needed": "the name was claimed with a personal secret: log in with it",
    "seat-held": "a name without a personal secret holds a seat or hosts a table: only its resume token comes back",
    "name-taken": "the player or table name is in use by someone connected / another open table",
    "no-such-room": "no open room has this id",
    "room-unavailable": "the room is in the server's store but cannot be restored now (its log does not replay "
    "on this server); it is kept as it is and comes back at a restart where it replays",
    "no-such-match": "no finished Barbu match has this id",
    "wrong-room": "the request is for the other kind of room (a table's request to a solitaire room, or the reverse)",
    "too-many-tables": "the player (or their address) hosts as many unstarted tables, or tables not over, as "
    "allowed, or the server is full",
    "too-many-rooms": "the server, or the players of one address, hold as many solitaire rooms as allowed",
    "too-many-spectators": "the room has as many spectators as the server allows (watch again later)",
    "seat-taken": "the seat is held by another player or a bot",
    "already-seated": "sit at another seat of a table where the player already sits: leave that seat first",
    "too-many-seats": "the player (or the players of their address) sit at as many tables waiting for players "
    "as allowed; leave one first",
    "removed": "the host removed the player from this table before the start: they may not sit there again",
    "not-seated": "the request needs a seat at this room and the player has none",
    "not-your-seat": "the request names a seat the player does not hold",
    "not-started": "the match has not started (seats still empty)",
    "room-over": "the room's game is over; it takes no more actions or seats",
    "not-over": "rematch: the table's match is not over yet",
    "not-host": "only the player who opened the table (its host) may ask this of it: add or remove its bots, "
    "remove a player, another match",
    "not-your-room": "the solitaire room is another player's: watch it, or open your own",
    "unknown-game": "no solitaire game has this name",
    "unknown-option": "the game has no such option, or the option does not take this value",
    "daily-played": "the player finished the day's deal of this game today, or is playing it in another room",
    "no-hint": "hints are not given on the day's deal",
    "daily-private": "the day's deal cannot be watched until it is finished (nobody but its player sees it played)",
    "busy": "the work asked for (a hint, a replay) cannot be done now: one is already being worked out for this player, "
    "the server's workers are all taken (or stayed taken for three times its budget: retry_after says how long), "
    "or it ran out of time; or a login's personal secret cannot be hashed now (too many wait); ask again shortly",
    "no-winnable-deals": "a winnable deal was asked for options no list of deals proved winnable covers",
    "not-winnable": "a winnable deal was asked with a seed the solver has not proved winnable",
    "illegal": "the game refused the action; the rule field names the rule broken",
    "slow-down": "too many requests, chat messages, resumes or wrong passwords in a short time; wait",
    "store-unavailable": "the server cannot write its store now (disk full, I/O error); the request had no "
    "effect: try again later",
    "internal": "the server failed; the request had no effect",
}


class ProtocolError(Exception):
    """A request refused with a protocol error code.

    Attributes:
        code: one of ``ERROR_CODES``.
        message: a human-readable explanation naming the problem.
        field: the offending field of the request, when one is to blame.
        rule: for ``illegal``, the game's rule id (e.g. ``must-follow-suit``).
        rule_args: for ``illegal``, the facts the rule was broken on (``{"led": "H"}``), wire-ready; or None.
        retry_after: for ``slow-down``, seconds to wait before sending again; for ``busy``, the seconds the
            work waited for a worker in vain, when that is why.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        rule: str | None = None,
        retry_after: float | None = None,
        rule_args: dict[str, Any] | None = None,
    ):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown protocol error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.rule = rule
        self.retry_after = retry_after
        self.rule_args = rule_args

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {self.message!r}, field={self.field!r}, rule={self.rule!r})"

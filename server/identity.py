"""Personal secrets: who a player is, apart from the server password that only lets people in.

A name is claimed by its first ``login`` that carries a ``secret`` (a personal password); from then on a
``login`` by that name must carry the same secret, and seats and host powers go with it. The store keeps
only a slow hash of it (``players.secret``): ``SALT_BYTES`` random bytes of salt drawn for the name, then
scrypt (``server.tokens.password_check``: n=2**14, r=8, p=1, 32 bytes), as ``<salt hex>$<hash hex>``.

Hashing takes some 50 ms of CPU and 16 MB on purpose (a stolen store file does not give the secrets away
cheaply), so it runs in threads, ``MAX_HASHING`` at once (``Hasher``): the event loop never waits for it, and a storm of
logins queues for the hashing threads rather than taking every core. The queue is bounded (``max_waiting``): beyond
it a login is answered ``busy`` at once, so that a storm cannot hold up everyone's logins for seconds; the lobby
also limits the hashes one address asks for a minute (``ServerConfig.secret_hashes_per_minute``).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Callable

from protocol import ProtocolError
from server.tokens import password_check

#: Bytes of random salt drawn for each name's secret.
SALT_BYTES = 16
#: Secrets hashed at once by one server (``Hasher``), each in a thread of its own.
MAX_HASHING = 2
#: Seconds a login answered ``busy`` is told to wait (``retry_after``): a few hashes' time.
BUSY_RETRY = 1


def secret_hash(secret: str, salt: bytes | None = None) -> str:
    """What the store keeps of ``secret``: ``<salt hex>$<scrypt hex>`` under ``salt`` (None: a fresh one)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    return f"{salt.hex()}${password_check(secret, salt)}"


def secret_matches(secret: str, stored: str) -> bool:
    """Whether ``secret`` is the one ``stored`` (a ``secret_hash``) was made from; a malformed ``stored``
    matches nothing."""
    salt, _, _check = stored.partition("$")
    try:
        again = secret_hash(secret, bytes.fromhex(salt))
    except ValueError:
        return False
    return hmac.compare_digest(again, stored)


class Hasher:
    """Hashes and checks secrets in threads, at most ``limit`` at once (one per server: the lobby's), with at
    most ``max_waiting`` more waiting for a thread.

    Raises (``hash``, ``check``):
        ProtocolError: ``busy`` (field ``secret``, ``retry_after`` ``BUSY_RETRY``) at once, nothing hashed, when
            ``max_waiting`` wait already.
    """

    def __init__(self, limit: int = MAX_HASHING, max_waiting: int = 16):
        self._slots = asyncio.Semaphore(limit)
        self._bound = limit + max_waiting  # hashing or waiting, at most
        self._queued = 0

    async def _run(self, work: Callable[[], str | bool]) -> str | bool:
        if self._queued >= self._bound:
            raise ProtocolError(
                "busy",
                "the server is checking many personal passwords right now: log in again in a moment",
                field="secret",
                retry_after=BUSY_RETRY,
            )
        self._queued += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(work)
        finally:
            self._queued -= 1

    async def hash(self, secret: str) -> str:
        """``secret_hash(secret)`` with a fresh salt."""
        return str(await self._run(lambda: secret_hash(secret)))

    async def check(self, secret: str, stored: str) -> bool:
        """``secret_matches(secret, stored)``."""
        return bool(await self._run(lambda: secret_matches(secret, stored)))

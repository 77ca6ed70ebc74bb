"""Personal secrets: who a player is, apart from the server password that only lets people in.

A name is claimed by its first ``login`` that carries a ``secret`` (a personal password); from then on a
``login`` by that name must carry the same secret, and seats and host powers go with it. The store keeps
only a slow hash of it (``players.secret``): ``SALT_BYTES`` random bytes of salt drawn for the name, then
scrypt (``server.tokens.password_check``: n=2**14, r=8, p=1, 32 bytes), as ``<salt hex>$<hash hex>``.

Hashing takes some 50 ms of CPU and 16 MB on purpose (a stolen store file does not give the secrets away
cheaply), so it runs in threads, ``MAX_HASHING`` at once (``Hasher``): the event loop never waits for it, and a storm of
logins queues for the hashing threads rather than taking every core.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets

from server.tokens import password_check

#: Bytes of random salt drawn for each name's secret.
SALT_BYTES = 16
#: Secrets hashed at once by one server (``Hasher``), each in a thread of its own.
MAX_HASHING = 2


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
    """Hashes and checks secrets in threads, at most ``limit`` at once (one per server: the lobby's)."""

    def __init__(self, limit: int = MAX_HASHING):
        self._slots = asyncio.Semaphore(limit)

    async def hash(self, secret: str) -> str:
        """``secret_hash(secret)`` with a fresh salt."""
        async with self._slots:
            return await asyncio.to_thread(secret_hash, secret)

    async def check(self, secret: str, stored: str) -> bool:
        """``secret_matches(secret, stored)``."""
        async with self._slots:
            return await asyncio.to_thread(secret_matches, secret, stored)

"""Resume tokens and the server password: changing the password makes every token stop working.

The store keeps a salted scrypt hash of the password the tokens were handed out under (``meta`` keys
``password-salt`` and ``password-check``; ``none`` when the server had no password). A server started with
another password (or none where there was one, or the reverse) revokes every token: whoever held a seat
comes back by ``login`` with the new password and their personal secret (``server.identity``), not with a
token from before. Tokens also expire
``ServerConfig.token_ttl`` seconds unused: after they were handed out, or after their player's last
connection ended (a connection open counts as use: ``Store.touch_tokens``); each ``login`` or ``resume``
hands out a fresh one (``Store.issue_token``, ``Store.rotate_token``: the token a ``resume`` replaced works
until the fresh one is used, so a lost reply locks nobody out).
"""

from __future__ import annotations

import hashlib
import logging
import secrets

from server.store import Store

log = logging.getLogger(__name__)

SALT_KEY = "password-salt"
CHECK_KEY = "password-check"


def password_check(password: str | None, salt: bytes) -> str:
    """What the store keeps of ``password``: ``none``, or its scrypt hash under ``salt`` in hex (so the
    store file does not give the password away)."""
    if password is None:
        return "none"
    return hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32).hex()


def revoke_if_password_changed(store: Store, password: str | None) -> bool:
    """Revoke every resume token when ``password`` is not the one the store's tokens were handed out under;
    returns whether it did. A store that never recorded a password (new, or from before this check)
    records it and keeps its tokens."""
    salt = bytes.fromhex(store.meta_once(SALT_KEY, secrets.token_hex(16)))
    check = password_check(password, salt)
    before = store.meta_get(CHECK_KEY)
    if before == check:
        return False
    store.meta_set(CHECK_KEY, check)
    if before is None:
        return False
    store.revoke_tokens()
    log.warning("the server password changed: every resume token was revoked")
    return True

"""Resume tokens kept between runs of the terminal client, one per (server, player name).

The file is ``$XDG_DATA_HOME/barbu/tokens.json`` (default ``~/.local/share/barbu/tokens.json``), a JSON map
``{"<server>\\n<name>": "<token>"}`` written with mode 0600 (a token takes back a seat: keep it secret); beside
the tokens, ``{"secret\\n<server>\\n<name>": "<secret>"}``, the personal secret each name logs in with there
(made by the terminal, or typed when the name was claimed elsewhere), and ``{"seed\\n<server>\\n<room>": "<seed>"}`` for the last ``SEEDS_KEPT`` solitaire deals this terminal
chose (an older server sent a deal's seed only once the game was over, and a resumed room should still say
it). A missing, unreadable or corrupt file counts as empty; a failure to write is logged and otherwise ignored (the
session goes on, it only cannot be resumed after a restart).
"""

from __future__ import annotations

import json
import logging
import os
import unicodedata
from pathlib import Path

log = logging.getLogger(__name__)
#: How many solitaire rooms' seeds the file keeps (the oldest go first).
SEEDS_KEPT = 20


def data_dir() -> Path:
    """The client's data directory: ``$XDG_DATA_HOME/barbu`` or ``~/.local/share/barbu``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "barbu"


class TokenStore:
    """The resume tokens file.

    Args:
        path: the JSON file (default: ``data_dir()/tokens.json``).
    """

    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else data_dir() / "tokens.json"

    @staticmethod
    def _key(server: str, name: str) -> str:
        # The server keeps names in NFC: "Zoë" typed with a separate accent mark is the same player.
        return f"{server}\n{unicodedata.normalize('NFC', name)}"

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}

    def get(self, server: str, name: str) -> str | None:
        """The token kept for ``name`` at ``server``, if any."""
        return self._load().get(self._key(server, name))

    def put(self, server: str, name: str, token: str | None) -> None:
        """Keep ``token`` for ``name`` at ``server`` (None: forget it)."""
        data = self._load()
        key = self._key(server, name)
        if token is None:
            if data.pop(key, None) is None:
                return
        elif data.get(key) == token:
            return
        else:
            data[key] = token
        self._save(data)

    def secret(self, server: str, name: str) -> str | None:
        """The personal secret kept for ``name`` at ``server``, if any."""
        return self._load().get("secret\n" + self._key(server, name))

    def keep_secret(self, server: str, name: str, secret: str) -> None:
        """Keep ``secret`` as ``name``'s personal secret at ``server``."""
        data = self._load()
        key = "secret\n" + self._key(server, name)
        if data.get(key) != secret:
            data[key] = secret
            self._save(data)

    def seed(self, server: str, room: str) -> int | None:
        """The seed this terminal chose for solitaire ``room`` at ``server``, if it is kept."""
        value = self._load().get(f"seed\n{server}\n{room}", "")
        return int(value) if value.isdigit() else None

    def keep_seed(self, server: str, room: str, seed: int) -> None:
        """Keep the ``seed`` of solitaire ``room`` at ``server`` (only the last ``SEEDS_KEPT`` are kept)."""
        data = self._load()
        key = f"seed\n{server}\n{room}"
        if data.get(key) == str(seed):
            return
        data.pop(key, None)
        seeds = [k for k in data if k.startswith("seed\n")]  # in the order kept (JSON objects keep order)
        for old in seeds[: max(len(seeds) - SEEDS_KEPT + 1, 0)]:
            del data[old]
        data[key] = str(seed)
        self._save(data)

    def _save(self, data: dict[str, str]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("cannot keep the resume token (or secret, or seed) in %s: %s", self.path, exc)

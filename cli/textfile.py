"""Reading a record file named on the command line (``-`` for standard input) as UTF-8 text."""

from __future__ import annotations

import sys

from engine.jsontext import JsonTextError


def read_text(path: str) -> str:
    """The text of ``path``, or of standard input for ``-``.

    Raises:
        OSError: the file cannot be read (missing, a directory, no permission).
        JsonTextError: the bytes are not UTF-8 text.
    """
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except UnicodeDecodeError as err:
        raise JsonTextError(f"not UTF-8 text (byte {err.start})") from None

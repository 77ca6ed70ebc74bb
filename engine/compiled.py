"""Whether the compiled kernels run: the C extension ``engine._kernels`` (``engine/_kernels.c``), built by
``pip install`` where a C compiler and the Python headers are, holds faster copies of the hot paths of the
Barbu search (:mod:`engine.barbu.search.kernels`) and of the solitaire solver
(:mod:`engine.solitaire.search_open`). Without it, or with ``BARBU_PURE=1`` in the environment, the engine's
own Python code runs; the results are the same either way (``tests/test_kernels.py``,
``tests/test_solitaire_kernels.py``), only the speed differs.
"""

from __future__ import annotations

import os

# The one setting read from outside: it changes only the speed, never a result (both paths are the same).
FORCED_PURE = os.environ.get("BARBU_PURE", "") not in ("", "0")

COMPILED = False
if not FORCED_PURE:
    try:
        from engine import _kernels  # noqa: F401  (imported to learn whether it is there)

        COMPILED = True
    except ImportError:  # no compiler at install time, or the build failed: the pure path runs
        pass

#: Which path runs: ``compiled``, or ``pure Python`` and why (``barbu --version`` and the benchmarks say it).
PATH = (
    "compiled"
    if COMPILED
    else "pure Python, BARBU_PURE set"
    if FORCED_PURE
    else "pure Python, no compiled extension"
)

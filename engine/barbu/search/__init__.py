"""The ``search`` Barbu policy: information-set inference, exact deal sampling, PIMC over fast playouts.

:mod:`.infer` reads what a seat's view implies, :mod:`.sample` draws consistent deals uniformly,
:mod:`.rollout` plays a determinized hand to its end, :mod:`.policy` decides. :mod:`.kernels` runs the playouts
compiled where the extension is built (pure Python elsewhere, with the same results); :mod:`.rng` is the
random generator both paths share.
"""

from engine.barbu.search.policy import DEFAULT_TIME, SearchPolicy

__all__ = ["DEFAULT_TIME", "SearchPolicy"]

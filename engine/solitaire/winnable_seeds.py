"""Seeds proved winnable, per game and options (written by ``scripts/winnable_seeds.py``; do not edit).

``SEEDS[key]``: the seeds, space-separated, of the list ``key`` (``engine.solitaire.winnable.list_key``: the
game's name, then ``K=V`` for each option away from its default) for which ``engine.solitaire.solve`` found
a win.
"""

SEEDS: dict[str, str] = {
    "bakers-dozen": ("1 2 3 4 5 6 7 8 10 13 14 15 16 18 19 20 21 24 25 26 27 28 30"),
    "bakers-dozen build=any-suit": ("1 2 3 4 6 7 9 10 13 14 15 16 18 19 20 21 24 25 26 27"),
    "bakers-dozen kings=stay": ("1 2 4 5 7 10 13 14 16 17 19 21 25 26 27 28"),
    "forty-thieves": ("2 5 13 18"),
    "indian": ("3 4 10 11 12 13 14 15 19 20 21 22 25 26 27 29"),
    "limited": ("1 2 3 4 5 11 12 13 15 21 22 23 25 28 29 30"),
    "little-forty": ("1 4 6 8 9 13 16 17 18 19 20 21 23 24 25 28"),
    "lucas": ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30"),
    "maria": ("81 103 107 111 130"),
    "number-ten": ("20 22 25"),
    "pyramid": ("66 81 115 179"),
    "pyramid draw=3": ("2 3 4 6 7 8 19 20 22 23 24 25 29 30 31 32 35 36 38 39"),
    "rank-and-file": ("1 4 6 7 10 11 12 14 16 18 19 20 23 29"),
    "streets": ("8 13 16"),
}

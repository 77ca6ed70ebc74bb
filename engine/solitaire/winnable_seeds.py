"""Seeds proved winnable, per game and options (written by ``scripts/winnable_seeds.py``; do not edit).

``SEEDS[key]``: the seeds, space-separated, of the list ``key`` (``engine.solitaire.winnable.list_key``: the
game's name, then ``K=V`` for each option away from its default) whose deal's first hint
(``engine.solitaire.hints.advise_within``) is ``sure`` within half the server's hint budget of CPU time.
"""

SEEDS: dict[str, str] = {
    "bakers-dozen": (
        "1 2 3 4 5 6 7 8 10 11 13 14 15 16 19 "
        "20 21 22 24 25 26 27 30 31 32 34 36 37 38 39 "
        "40 42 44 45 46 47 48 49 53 54 56 58 60"
    ),
    "bakers-dozen build=any-suit": (
        "1 2 3 4 5 6 7 8 9 10 11 13 14 15 16 "
        "17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 "
        "32 34 35 36 37 38 39 40 41 42 45 46 47 48 49 "
        "50 51 52 53 54 55 56 57 58 60"
    ),
    "bakers-dozen kings=stay": (
        "1 2 3 4 5 6 7 8 9 10 13 14 15 16 17 "
        "19 20 21 22 23 25 26 27 28 30 31 36 37 38 39 "
        "40 41 42 45 46 47 48 49 52 53 54 56 57 58 59 "
        "60"
    ),
    "forty-thieves": ("2 5 13 18 35 42 47 51 52"),
    "forty-thieves foundation-back=true": ("5 18 35 47 51 52"),
    "forty-thieves supermove=true": ("5 18 35 42 47 51 52"),
    "indian": ("3 4 10 11 12 13 14 15 19 20 21 22 25 26 27 29 32 34 35 37 40 41 42 45 50 51 52 57 60"),
    "indian foundation-back=true": ("3 12 13 14 15 19 20 21 22 25 29 32 35 37 40 41 42 50 60"),
    "indian supermove=true": ("1 2 3 4 6 7 8 9 10 12 13 18 19 22 25 26 27 29 32 41 42 50 57 60"),
    "limited": ("1 2 3 4 5 11 12 13 15 21 22 23 25 28 29 31 33 34 36 38 39 40 43 45 46 47 51 53 57 59"),
    "limited foundation-back=true": ("1 2 3 11 12 13 15 21 22 23 25 28 29 33 34 38 39 43 45 46 51 53 59"),
    "limited supermove=true": ("1 2 4 5 11 12 13 15 21 23 25 28 29 33 34 38 39 40 43 45 46 47 51 53 59"),
    "little-forty": (
        "1 4 6 8 9 13 16 17 18 19 20 21 23 24 25 "
        "28 32 33 35 37 39 40 43 44 45 46 47 48 49 50 "
        "51 53 54 56 57 58 60"
    ),
    "little-forty build=any-suit": (
        "1 6 8 9 13 16 18 19 20 21 23 24 25 28 35 39 40 45 47 48 49 50 51 54 56 57 60"
    ),
    "little-forty foundation-back=true": (
        "1 4 6 9 13 16 17 18 19 20 23 24 25 28 32 33 35 37 39 40 43 44 45 46 47 48 49 50 51 54 56 57 58 60"
    ),
    "lucas": (
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
        "16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 "
        "31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 "
        "46 47 48 49 50 51 52 53 54 55 56 57 58 59 60"
    ),
    "lucas foundation-back=true": (
        "1 2 3 4 5 6 8 9 10 11 12 13 14 15 16 "
        "17 18 19 20 21 22 23 24 25 26 28 29 30 31 32 "
        "33 34 35 36 37 38 40 41 42 43 44 45 46 47 48 "
        "49 50 51 52 53 54 55 56 57 58 59 60"
    ),
    "lucas supermove=true": (
        "1 2 3 4 5 6 9 10 11 12 13 14 15 16 17 "
        "18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 "
        "33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 "
        "48 49 50 51 52 53 54 55 56 57 58 59 60"
    ),
    "maria": ("81 103 107 111 130"),
    "maria foundation-back=true": ("107"),
    "maria supermove=true": ("81 103 111"),
    "number-ten": ("20 25 31 33 35 45 60"),
    "number-ten foundation-back=true": ("25 35 45 60"),
    "pyramid": ("66 81 115 179"),
    "pyramid draw=3": (
        "2 3 4 6 7 8 19 20 22 23 24 25 29 30 31 32 35 36 38 39 43 44 47 48 49 50 52 53 54 58 60"
    ),
    "pyramid redeals=2": ("66 81 115 179"),
    "pyramid stock-top=true": ("66 81 115 179"),
    "rank-and-file": ("1 4 6 7 10 11 12 14 16 18 19 20 29 33 35 37 38 40 41 43 50 51 52 54 56 57 60"),
    "rank-and-file foundation-back=true": (
        "1 4 6 7 10 12 14 16 18 20 29 33 35 37 38 40 41 43 50 51 52 54 56 57 60"
    ),
    "streets": ("13 35 40 50 56"),
    "streets foundation-back=true": ("40 56"),
    "streets supermove=true": ("13 50"),
}

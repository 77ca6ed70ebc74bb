# Types of the compiled extension built from _kernels.c (engine/compiled.py says whether it runs).
from collections.abc import Sequence

def legal_mask(packed: tuple[int, ...], seat: int, /) -> int: ...
def rollout_card(packed: tuple[int, ...], mask: int, /) -> int: ...
def trick_winner(c0: int, c1: int, c2: int, c3: int, leader: int, trump: int, /) -> int: ...
def playout(
    packed: tuple[int, ...],
    deal: Sequence[int],
    first: int,
    seed: int,
    exact: int,
    weights: tuple[int, ...],
    /,
) -> tuple[int, int, int, int]: ...
def sample(
    total: int,
    weights: tuple[int, ...],
    splits: tuple[tuple[int, ...], ...],
    types: tuple[tuple[int, int], ...],
    seed: int,
    /,
) -> list[int]: ...
def open_children(
    cols: list[bytes],
    colh: list[int],
    nextv: list[int],
    where: list[int],
    on_found: int,
    bases: tuple[tuple[int, ...], ...],
    kings: bool,
    seen: dict[int, object],
    z: bytes,
    moves: tuple[tuple[tuple[tuple[int, int, int]], ...], ...],
    moves_up: tuple[tuple[tuple[int, int, int]], ...],
    /,
) -> list[tuple[int, tuple[tuple[int, int, int], ...], bool, int]]: ...

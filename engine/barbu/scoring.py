"""Pairwise settlement of doubles (``docs/rules/barbu.md``, "Settling doubles")."""

from __future__ import annotations

from collections.abc import Sequence


def settle(
    contract_scores: Sequence[int],
    doubles: Sequence[tuple[int, int]],
    redoubles: Sequence[tuple[int, int]],
) -> list[int]:
    """Each seat's settlement, indexed by seat (0..3); the four always sum to zero.

    Args:
        contract_scores: the hand's contract score of each seat.
        doubles: ``(doubler, doubled)`` pairs; a pair doubled in both directions counts as redoubled.
        redoubles: ``(redoubler, the player who doubled them)`` pairs.

    For each pair with a double between them, the one with the better contract score gains the difference
    and the other loses it; twice the difference when the pair is redoubled.
    """
    factor: dict[tuple[int, int], int] = {}
    doubled = set(doubles)
    for a, b in doubles:
        key = (min(a, b), max(a, b))
        factor[key] = max(factor.get(key, 1), 2 if (b, a) in doubled else 1)
    for a, b in redoubles:
        factor[(min(a, b), max(a, b))] = 2
    out = [0, 0, 0, 0]
    for (a, b), times in factor.items():
        gain = (contract_scores[a] - contract_scores[b]) * times
        out[a] += gain
        out[b] -= gain
    return out

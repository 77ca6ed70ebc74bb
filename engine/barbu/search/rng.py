"""The search's random draws: splitmix64 with exact bounded draws, written the same way in Python here and in
C (``engine/_kernels.c``), so that the compiled and the pure paths draw the same numbers from the same
seed on every machine (``search:playouts=N`` gives the same choices whichever path runs).

A playout or a deal draw takes one 64-bit seed (``random.Random.getrandbits(64)`` of the decision's seeded
generator) and makes its own :class:`Rng` from it.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1


class Rng:
    """splitmix64 (Steele, Lea and Flood, 2014) from ``seed`` (any int; its low 64 bits are used)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, k: int) -> int:
        """A draw uniform in ``[0, k)`` for ``1 <= k < 2**32``: Lemire's multiply and reject, exact."""
        m = (self.next64() >> 32) * k
        if (m & _MASK32) < k:
            floor = ((1 << 32) - k) % k
            while (m & _MASK32) < floor:
                m = (self.next64() >> 32) * k
        return m >> 32

    def below_total(self, total: int) -> int:
        """A draw uniform in ``[0, total)`` for any ``total >= 1``: enough top bits, rejected until below."""
        if total == 1:
            return 0
        bits = (total - 1).bit_length()
        words = (bits + 63) // 64
        while True:
            r = 0
            for _ in range(words):
                r = (r << 64) | self.next64()
            r >>= words * 64 - bits
            if r < total:
                return r

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place, uniformly: Fisher-Yates from the last item down, the indices of
        successive steps taken together as the digits of one draw below the product of their ranges (less
        than 2**63), least significant first. Exact, and a few draws for a whole deal instead of one a card
        (the pure path's deal draw spent most of its time drawing)."""
        i = len(items) - 1
        while i > 0:
            first, total = i, 1
            while i > 0 and total * (i + 1) < 1 << 63:
                total *= i + 1
                i -= 1
            shift = 64 - (total - 1).bit_length()
            r = self.next64() >> shift
            while r >= total:  # below_total(total), written out
                r = self.next64() >> shift
            for t in range(first, i, -1):
                k = t + 1
                j = r % k
                r //= k
                items[t], items[j] = items[j], items[t]

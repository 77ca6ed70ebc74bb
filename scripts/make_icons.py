"""Draw the installed app's icons (web/icons/*.png, committed): a white spade on the felt's green, as the
favicon has it. Python's standard library only (zlib and struct write the PNG); run once, again only when
the design changes: ``python3 scripts/make_icons.py``.

``icon-192.png`` and ``icon-512.png`` are for any use (a rounded square, transparent corners);
``icon-maskable-512.png`` fills the square with the green and keeps the spade inside the middle 60%, the
safe zone a launcher's mask (circle, squircle) never cuts (the Web App Manifest's "maskable" purpose).
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

#: The felt's green (web/style.css, --felt) and the spade's white.
GREEN = (0x18, 0x5A, 0x38)
WHITE = (0xFF, 0xFF, 0xFF)
OUT = Path(__file__).resolve().parent.parent / "web" / "icons"
SAMPLES = 4  # per axis, per pixel: smooth edges


def in_spade(x: float, y: float) -> bool:
    """Whether the point (x, y), in units where the spade spans -1..1 across and down, is on the spade: two
    lobes and a point up (a heart upside down), and a flared stem."""
    # The body: an upside-down heart, two circles and the triangle above them up to the tip.
    r = 0.48
    if math.hypot(x + 0.46, y - 0.18) <= r or math.hypot(x - 0.46, y - 0.18) <= r:
        return True
    if -1.0 <= y <= 0.3 and abs(x) <= (y + 1.0) * 0.72:  # from the tip (0, -1) down to the lobes' middle
        return True
    # The stem: widening from the body to a base at the bottom.
    return 0.3 <= y <= 1.0 and abs(x) <= 0.08 + (y - 0.3) * 0.45


def in_rounded_square(x: float, y: float, size: float, radius: float) -> bool:
    """Whether pixel coordinate (x, y) is inside a square of ``size`` with corners of ``radius``."""
    cx = min(max(x, radius), size - radius)
    cy = min(max(y, radius), size - radius)
    return math.hypot(x - cx, y - cy) <= radius


def draw(size: int, spade_scale: float, rounded: bool) -> bytes:
    """The RGBA rows of one icon: ``spade_scale`` is the spade's half-height as a share of the size."""
    rows = bytearray()
    half = size / 2
    for py in range(size):
        rows.append(0)  # PNG filter type: none
        for px in range(size):
            back = spade = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = px + (sx + 0.5) / SAMPLES
                    y = py + (sy + 0.5) / SAMPLES
                    if rounded and not in_rounded_square(x, y, size, size * 0.19):
                        continue
                    back += 1
                    if in_spade((x - half) / (size * spade_scale), (y - half * 0.98) / (size * spade_scale)):
                        spade += 1
            total = SAMPLES * SAMPLES
            alpha = round(255 * back / total)
            share = spade / back if back else 0.0
            colour = [round(g + (w - g) * share) for g, w in zip(GREEN, WHITE, strict=True)]
            rows.extend((*colour, alpha))
    return bytes(rows)


def png(size: int, rgba: bytes) -> bytes:
    """A PNG file of one RGBA image ``size`` pixels square."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    """Write the three icons into web/icons/."""
    OUT.mkdir(exist_ok=True)
    for name, size, scale, rounded in (
        ("icon-192.png", 192, 0.36, True),
        ("icon-512.png", 512, 0.36, True),
        ("icon-maskable-512.png", 512, 0.26, False),
    ):
        (OUT / name).write_bytes(png(size, draw(size, scale, rounded)))
        print(OUT / name)


if __name__ == "__main__":
    main()

"""A torn ``-wal`` is said, not lost without a word: read a store's WAL file as SQLite recovers it.

SQLite's recovery (https://www.sqlite.org/fileformat2.html, "The Write-Ahead Log") keeps the frames of the
log from its start up to the first one whose salts differ from the header's or whose checksum fails, and
of those only up to the last commit frame; the rest is ignored silently. Frames after that point that
carry the header's salts were written in the log's current generation (stale frames of an earlier one, left
after SQLite started the log over, carry older salts): a bad checksum among them means writes that reached
the file are dropped. ``torn`` finds such a log before SQLite opens it, and ``server.store.Store`` logs a
WARNING naming the file, the frame where it is torn and how many frames are ignored.

Format (all header fields big-endian): a 32-byte header (magic ``0x377f0682``/``0x377f0683``: the checksums
sum little-/big-endian 32-bit words; format version 3007000; page size; checkpoint sequence; salt-1,
salt-2; a checksum of the first 24 bytes), then frames of a 24-byte header (page number; the database size
in pages after a commit, 0 for other frames; salt-1, salt-2; the cumulative checksum of every frame's first
8 header bytes and page so far, from the header's checksum) and one page.
"""

from __future__ import annotations

import logging
import shutil
import struct
from dataclasses import dataclass
from typing import BinaryIO

log = logging.getLogger(__name__)

HEADER = 32
FRAME_HEADER = 24
#: The header's magic number: the byte order of the words the checksums sum.
MAGIC = {0x377F0682: "<", 0x377F0683: ">"}
VERSION = 3007000


@dataclass(frozen=True)
class Tear:
    """A WAL file whose last writes SQLite ignores: frame ``torn_at`` (from 1) is the first that fails (0:
    the header itself does, and SQLite ignores the whole file); of the ``frames`` frames of the log's current
    generation in the file, SQLite recovers the first ``kept`` (up to the last commit before the tear)."""

    torn_at: int
    frames: int
    kept: int


def checksum(data: bytes, order: str, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) read as 32-bit words of byte ``order``
    (``<`` or ``>``), going on from ``(s0, s1)``."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def torn(path: str) -> Tear | None:
    """The tear in the WAL file ``path``, or None when SQLite recovers every frame of its current generation
    (or there is no file, or no frame). A frame cut short at the end of the file counts as one that fails.

    Raises:
        OSError: the file exists but cannot be read.
    """
    try:
        with open(path, "rb") as wal:
            return _walk(wal)
    except FileNotFoundError:
        return None


def _walk(wal: BinaryIO) -> Tear | None:
    head = wal.read(HEADER)
    if len(head) < HEADER:
        return None
    magic, version, page_size, _, salt1, salt2, c0, c1 = struct.unpack(">8I", head)
    order = MAGIC.get(magic)
    plausible = version == VERSION and page_size >= 512 and not page_size & (page_size - 1)
    if order is None or not plausible or checksum(head[:24], order) != (c0, c1):
        frames = len(wal.read()) // (FRAME_HEADER + (page_size if plausible else 512))
        return Tear(torn_at=0, frames=frames, kept=0) if frames else None
    sums = (c0, c1)
    index = kept = current = 0  # current: frames carrying this generation's salts
    torn_at = 0  # the first frame SQLite's recovery stops at (0: none)
    after = 0  # frames of this generation from there on: written, and ignored
    while len(frame := wal.read(FRAME_HEADER + page_size)) >= FRAME_HEADER:
        index += 1
        page, size, f1, f2, f0, fc1 = struct.unpack(">6I", frame[:FRAME_HEADER])
        ours = (f1, f2) == (salt1, salt2)
        current += ours
        if not torn_at:
            whole = len(frame) == FRAME_HEADER + page_size
            if ours and whole:
                sums = checksum(frame[:8] + frame[FRAME_HEADER:], order, *sums)
            if not (ours and whole and page and sums == (f0, fc1)):
                torn_at = index
            elif size:  # a commit frame: recovery keeps everything up to here
                kept = index
        after += bool(torn_at) and ours
    return Tear(torn_at=torn_at, frames=current, kept=kept) if after else None


def warn_if_torn(path: str) -> str | None:
    """Log a WARNING when the WAL file ``path`` is torn (``torn``), and keep a copy of it beside it as
    ``PATH.torn`` (the frames SQLite is about to drop, for whoever wants to look at them or recover by hand;
    an older copy is replaced): call it before SQLite opens the store, which then recovers the frames before
    the tear and drops the rest. Returns the copy's path, or None when the log is not torn. A file that
    cannot be read is left for SQLite to refuse; a copy that cannot be written is said in the warning."""
    try:
        tear = torn(path)
    except OSError:
        return None
    if tear is None:
        return None
    where = "its header is damaged" if tear.torn_at == 0 else f"at frame {tear.torn_at}"
    copy = path + ".torn"
    try:
        shutil.copyfile(path, copy)
        kept = f"a copy of the whole log is kept at {copy}"
    except OSError as exc:
        kept = f"no copy of it could be kept ({exc.strerror or exc})"
    log.warning(
        "%s: the log of the last writes is torn (%s): SQLite recovers %d of its %d frames and ignores the "
        "rest, writes that had reached the file; %s",
        path,
        where,
        tear.kept,
        tear.frames,
        kept,
    )
    return copy

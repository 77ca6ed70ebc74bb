"""Text measured in terminal columns, not characters: a CJK character takes two columns, so ``len`` and
``str.ljust`` misalign any column holding a name. :func:`fit` cuts (with ``…``) and pads text to a width and is
what the score sheet and the terminal client use wherever a name or another free text goes in a column."""

from __future__ import annotations

from typing import Literal

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

ELLIPSIS = "…"


def width(text: str) -> int:
    """How many terminal columns ``text`` takes."""
    return get_cwidth(text)


def _head(text: str, cols: int) -> str:
    """The longest start of ``text`` at most ``cols`` columns wide."""
    used = 0
    for i, char in enumerate(text):
        used += get_cwidth(char)
        if used > cols:
            return text[:i]
    return text


def _tail(text: str, cols: int) -> str:
    """The longest end of ``text`` at most ``cols`` columns wide."""
    return _head(text[::-1], cols)[::-1]


def shorten(text: str, cols: int, cut: Literal["middle", "end"] = "middle") -> str:
    """``text`` if it fits in ``cols`` columns, else cut to fit with ``…`` where the cut is: in the ``middle``
    (the default: the end of a name such as ``heuristic-2fa8-3`` stays, so names alike are told apart) or at
    the ``end``. The result may be one column narrower than ``cols`` when a wide character would not fit."""
    if width(text) <= cols:
        return text
    if cols <= 0:
        return ""
    if cut == "end":
        return _head(text, cols - 1) + ELLIPSIS
    head = _head(text, (cols - 1) // 2)
    return head + ELLIPSIS + _tail(text, cols - 1 - width(head))


def fit(
    text: str, cols: int, align: Literal["<", ">"] = "<", cut: Literal["middle", "end"] = "middle"
) -> str:
    """``text`` in exactly ``cols`` terminal columns: cut as :func:`shorten` does, then padded with spaces on
    the right (``align="<"``) or on the left (``">"``)."""
    text = shorten(text, cols, cut)
    pad = " " * max(cols - width(text), 0)
    return text + pad if align == "<" else pad + text


def fit_fragments(fragments: StyleAndTextTuples, cols: int) -> StyleAndTextTuples:
    """``fragments`` (one line of styled text) cut at the end to at most ``cols`` columns, the last one kept
    ending in ``…`` (``shorten``'s ``end`` cut): a line drawn in a window of one row is otherwise cut with no
    mark, at whatever column the window ends."""
    out: StyleAndTextTuples = []
    left = cols
    for fragment in fragments:
        text = fragment[1]
        if width(text) > left:
            cut = shorten(text, left, cut="end")
            if cut:
                out.append((fragment[0], cut))
            return out
        out.append(fragment)
        left -= width(text)
    return out


def wrap(text: str, cols: int) -> list[str]:
    """``text`` in lines of at most ``cols`` terminal columns (``cols`` at least 2), broken between words
    where it can and inside a word longer than a line (a CJK sentence has no spaces); ``[""]`` for no text."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if width(candidate) <= cols:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while width(line) > cols:
            head = _head(line, cols)
            lines.append(head)
            line = line[len(head) :]
    lines.append(line)
    return lines


def counted(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``, ``0 moves``: ``number`` and ``noun`` (its regular plural with ``s``)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"

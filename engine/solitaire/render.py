"""Text drawings of a solitaire state, for ``barbu solitaire deal`` and terminal clients.

Works from the ``state()`` dict alone (what a player may see), so a client can draw what the server sends.
"""

from __future__ import annotations

from typing import Any

from engine.solitaire.catalogue import GAMES

_WASTE_SHOWN = 8


def _waste_line(name: str, pile: list[str]) -> str:
    if not pile:
        return f"{name}: (empty)"
    shown = pile[-_WASTE_SHOWN:]
    more = "... " if len(pile) > len(shown) else ""
    return f"{name} ({len(pile)}): {more}{' '.join(shown)}"


def _status(state: dict[str, Any]) -> str:
    info = GAMES.get(state["game"])
    title = info.title if info else state["game"]
    status = "won" if state["won"] else "over" if state["over"] else "in play"
    return f"{title} - moves {state['moves']} - {status}"


def render_state(state: dict[str, Any]) -> str:
    """The layout of ``state`` (a ``Game.state()`` dict) as lines of text, columns drawn top-down.

    Face-down cards show as ``??``; the stock only as its count. The last line has no newline.
    """
    if "pyramid" in state:
        return _render_pyramid(state)
    lines = [_status(state)]
    tops = [f"f{i + 1} {pile[-1] if pile else '--'}" for i, pile in enumerate(state["foundations"])]
    lines.append("Foundations: " + "  ".join(tops))
    lines.append(f"Stock: {state['stock']}   Redeals left: {state['redeals_left']}")
    lines.append(_waste_line("Waste", state["waste"]))
    columns: list[list[str]] = state["columns"]
    lines.append(" ".join(f"{'t' + str(i + 1):>3}" for i in range(len(columns))))
    depth = max((len(col) for col in columns), default=0)
    for row in range(depth):
        cells = [f"{col[row] if row < len(col) else '':>3}" for col in columns]
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)


def _render_pyramid(state: dict[str, Any]) -> str:
    lines = [_status(state)]
    rows: list[list[str | None]] = state["pyramid"]
    for r, row in enumerate(rows, start=1):
        indent = " " * (2 * (len(rows) - r))
        lines.append((indent + "  ".join(card or ".." for card in row)).rstrip())
    lines.append(
        f"Removed: {state['removed']}   Stock: {state['stock']}   Redeals left: {state['redeals_left']}"
    )
    if "stock_top" in state:
        lines.append(f"Stock top: {state['stock_top'] or '--'}")
    waste = state["waste"]
    if waste and isinstance(waste[0], list):
        lines.extend(_waste_line(f"w{k + 1}", pile) for k, pile in enumerate(waste))
    else:
        lines.append(_waste_line("Waste", waste))
    return "\n".join(lines)

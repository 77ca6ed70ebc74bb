"""Driving the real terminal client in tests: an 80x24 output, the screen as the terminal shows it, and the
application started (and logged in) at a server's URL reading keys from a pipe."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Char, Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from client.tui.app import TuiApp
from client.tui.solitaire_screen import SolitaireScreen
from tests.conftest import until


class TerminalOutput(DummyOutput):
    """``DummyOutput`` of a terminal of 80x24 (the size the client is made for)."""

    def get_size(self) -> Size:
        """80 columns, 24 rows."""
        return Size(rows=24, columns=80)


def screen_lines(tui: TuiApp) -> list[str]:
    """The whole screen as the terminal would show it now: every row, trailing blanks cut."""
    size = tui.app.output.get_size()
    screen = Screen(default_char=Char(" ", ""), initial_width=size.columns, initial_height=size.rows)
    tui.app.render_counter += 1  # a new render: controls keep their text cached per render
    with set_app(tui.app):
        tui.app.layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, size.columns, size.rows), "", False, None
        )
        screen.draw_all_floats()
    return [
        "".join(screen.data_buffer[y][x].char for x in range(size.columns)).rstrip() for y in range(size.rows)
    ]


def on_screen(tui: TuiApp, words: str) -> bool:
    """Whether ``words`` can be read on the screen (a line break may stand for a space)."""
    shown = " ".join(" ".join(screen_lines(tui)).split())
    return " ".join(words.split()) in shown


@asynccontextmanager
async def started_tui(url: str, name: str, **options: Any) -> AsyncIterator[tuple[TuiApp, PipeInput]]:
    """The real application started at ``url`` with ``name`` (``options`` go to ``TuiApp``), reading keys
    from a pipe; it quits when the block ends."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=TerminalOutput()):
        options.setdefault("retry_delays", (0.05, 0.1, 0.2))
        tui = TuiApp(url, name=name, **options)
        task = asyncio.get_running_loop().create_task(tui.run())
        try:
            yield tui, pipe
        finally:
            future = tui.app.future
            if not task.done() and future is not None and not future.done():  # not quit by its own keys
                tui.app.exit(result=0)
            await asyncio.wait_for(task, 10)


@asynccontextmanager
async def running_tui(url: str, name: str) -> AsyncIterator[tuple[TuiApp, PipeInput]]:
    """The real application logged in as ``name`` at ``url``, reading keys from a pipe."""
    async with started_tui(url, name) as (tui, pipe):
        await until(lambda: tui.screen == "lobby", "the lobby after login")
        yield tui, pipe


async def opened_solitaire(
    tui: TuiApp,
    game: str,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    what: str = "the game",
) -> SolitaireScreen:
    """Open a server room of solitaire ``game`` (``seed`` None: the day's deal) from the terminal and wait,
    naming ``what``, until its screen is shown; returns that screen."""
    tui.open_solitaire(game, options, seed)
    await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, what)
    screen = tui.solitaire
    assert screen is not None
    return screen

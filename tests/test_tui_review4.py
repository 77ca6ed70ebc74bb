"""A fresh reviewer's small points of issue 10 (fourth round): a refusal on the notice line goes once what it
refused is done right; help pages are plain text, no markdown left.

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``).
"""

from __future__ import annotations

import re

import pytest

from client.tui.help import pages
from engine.solitaire import GAMES
from server import BarbuServer
from tests.conftest import until
from tests.test_tui import ENTER, running_tui


async def test_the_table_name_refusal_goes_once_a_shortened_name_is_taken(server: BarbuServer) -> None:
    async with running_tui(server.url, "kim") as (tui, pipe):
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the table-name prompt")
        pipe.send_text("x" * 43 + ENTER)
        await until(lambda: "this one has 43: shorten it" in tui.model.notice, "refused")
        pipe.send_text("\x7f" * 3 + ENTER)
        await until(lambda: tui.lobby.form is not None and tui.input_mode is None, "the shortened name taken")
        assert tui.lobby.form is not None and tui.lobby.form.name == "x" * 40
        assert "shorten it" not in tui.model.notice, tui.model.notice
        assert any("shorten it" in line for line in tui.model.earlier())  # the log keeps it


MARKDOWN = re.compile(r"`|\*\*|__|^#+ |\[[^]]*\]\(", re.MULTILINE)  # code, bold, headings, links


@pytest.mark.parametrize("game", [None, *GAMES])
def test_every_help_page_is_plain_text(game: str | None) -> None:
    for number, page in enumerate(pages(game), 1):
        assert not MARKDOWN.search(page), (game, number, MARKDOWN.findall(page))

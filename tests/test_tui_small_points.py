"""Small points of the terminal client a reviewer met in a whole match (issue 10, fourth review): the empty
lobby says what to do without column heads over nothing, and the help's first page names the table's
``f`` (fill with bots) and ``r`` (another match) keys. Drawn from the model alone."""

from __future__ import annotations

from prompt_toolkit.formatted_text import fragment_list_to_text

from client.tui.help import HELP
from client.tui.lobby_screen import LobbyScreen, lobby_lines
from client.tui.model import Model


def test_the_empty_lobby_has_no_column_heads() -> None:
    model = Model("ws://x", name="ann")
    drawn = fragment_list_to_text(lobby_lines(model, LobbyScreen())).splitlines()
    assert drawn[-1] == "No tables yet. Press n to open one."
    assert not any("state" in line and "watch" in line for line in drawn)


def test_the_help_names_the_tables_fill_and_rematch_keys() -> None:
    table = HELP[HELP.index("Barbu table") : HELP.index("Solitaire")]
    assert "b/f bot(s)" in table and "r rematch" in table

"""What a newcomer met in a whole match of ``./run.sh`` in tmux (with a second terminal watching it), drawn
from real views and pushes (no network, no timing): a bot's arrival starts its sentence with a capital."""

from __future__ import annotations

from client.tui.model import TableModel
from client.tui.session import seat_notices
from protocol import Players


def test_a_bot_joining_is_a_sentence() -> None:
    table = TableModel(room="1", seat="S", state="waiting", players={"S": "ann"})
    push = Players(room="1", state="waiting", players={"S": "ann", "N": "bot:search"}, away=[])
    assert seat_notices(table, push, "ann") == ["A bot joined (seat N)."]

"""What a newcomer met in a whole match of ``./run.sh`` in tmux (with a second terminal watching it), drawn
from real views and pushes (no network, no timing): a bot's arrival starts its sentence with a capital, and
the table's ``doubles E<NW`` line says what its notation means as far as its width allows (the help's doubling
page says it all)."""

from __future__ import annotations

from prompt_toolkit.formatted_text import fragment_list_to_text

from client.columns import width
from client.tui.barbu_screen import TABLE_WIDTH, headline
from client.tui.help import PAGES
from client.tui.model import TableModel
from client.tui.session import seat_notices
from engine.cards import SEATS
from protocol import Players


def test_a_bot_joining_is_a_sentence() -> None:
    table = TableModel(room="1", seat="S", state="waiting", players={"S": "ann"})
    push = Players(room="1", state="waiting", players={"S": "ann", "N": "bot:search"}, away=[])
    assert seat_notices(table, push, "ann") == ["A bot joined (seat N)."]


def doubles_line(doubles: list[list[str]], redoubles: list[list[str]] | None = None) -> str:
    """The table headline's second line with these doubles, as the 46-column table shows it."""
    table = TableModel(room="1", seat="S", state="playing", players={s: f"p{s}" for s in SEATS})
    view = {"hand_number": 2, "hands_total": 28, "phase": "double", "contract": "no-hearts", "declarer": "E"}
    table.set_view({**view, "doubles": doubles, "redoubles": redoubles or []}, 3)
    line = fragment_list_to_text(headline(table, TABLE_WIDTH)).splitlines()[1]
    assert width(line) <= TABLE_WIDTH
    return line


def test_the_doubles_line_says_what_its_notation_means() -> None:
    assert doubles_line([["N", "E"], ["W", "E"], ["N", "S"]]) == "doubles E<NW S<N  (E<NW: N and W doubled E)"
    assert doubles_line([["E", "W"]], [["W", "E"]]) == "doubles W<E!  (W<E!: E doubled W, ! redoubled)"
    crowded = doubles_line([["W", "N"], ["W", "E"], ["N", "S"], ["W", "S"]], [["N", "W"]])
    assert crowded == "doubles N<W! E<W S<NW  (! redoubled)"  # the words left out to fit, never the ! mark
    lone = doubles_line([["N", "S"], ["E", "S"]], [["S", "N"], ["S", "E"]])
    assert lone == "doubles S<N!E!  (N, E doubled S; ! redoubled)"  # the group said once, to fit
    three = doubles_line([["E", "N"], ["S", "N"], ["W", "N"]])
    assert three == "doubles N<ESW  (N<ESW: E, S and W doubled N)"
    six = [["E", "N"], ["S", "N"], ["W", "N"], ["W", "E"], ["E", "S"], ["S", "W"]]
    assert doubles_line(six, [["N", "E"], ["N", "S"]]) == "doubles N<E!S!W E<W S<E W<S  (! redoubled)"
    doubling = next(page for page in PAGES if page.startswith("Doubling"))
    assert '"doubles W<NE!" says N and E doubled W' in " ".join(doubling.split())

"""The score sheet (``client/sheet.py``) and the column helper (``client/columns.py``): every double and
redouble of a hand is shown (six doubled pairs, some redoubled, wrap under the hand's row) within 78 columns
with the notation's legend; names are cut in terminal columns (CJK characters are two wide), in the middle so
names alike stay apart."""

from __future__ import annotations

from prompt_toolkit.formatted_text import fragment_list_to_text

from client.columns import fit, shorten, width
from client.sheet import LEGEND, doubles_label, score_sheet, sheet_rows
from client.tui.sheet_screen import sheet_lines, sheet_top

#: A No Tricks hand, N declarer, with all six pairs doubled: E, S, W doubled N (N redoubled E and W); E and S
#: doubled each other (counts as redoubled); W doubled E; S doubled W (W redoubled S).
SIX_DOUBLES = {
    "hand_number": 3,
    "declarer": "N",
    "contract": "no-tricks",
    "doubles": [["E", "N"], ["S", "N"], ["W", "N"], ["E", "S"], ["S", "E"], ["W", "E"], ["S", "W"]],
    "redoubles": [["N", "E"], ["N", "W"], ["W", "S"]],
    "scores": {"N": -52, "E": 10, "S": 4, "W": 12},
}


def test_every_double_and_redouble_of_a_hand_is_shown() -> None:
    assert doubles_label(SIX_DOUBLES) == "N<E!SW! E<W S<E! W<S!"
    header, rows = sheet_rows([SIX_DOUBLES], {"N": "ann", "E": "bea", "S": "cid", "W": "dan"})
    assert header == [
        "N=ann  E=bea  S=cid  W=dan",
        " # * contract         doubles            N           E           S           W",
    ]
    assert rows == [
        " 3 N No Tricks        N<E!SW!   -52 ( -52)   10 (  10)    4 (   4)   12 (  12)",
        "                      E<W S<E!",
        "                      W<S!",
        "     Totals                            -52          10           4          12",
    ]
    assert all(width(line) <= 78 for line in header + rows)


def test_the_selfplay_hand_shows_its_three_redoubles() -> None:
    """``barbu selfplay --matches 1 --seed 3``, hand 1: N, E and S doubled W, who redoubled all three."""
    row = {
        "hand_number": 1,
        "declarer": "W",
        "contract": "trumps",
        "trump": "S",
        "doubles": [["N", "W"], ["E", "W"], ["S", "W"]],
        "redoubles": [["W", "N"], ["W", "E"], ["W", "S"]],
        "scores": {"N": 20, "E": 20, "S": -25, "W": 50},
    }
    assert (
        sheet_rows([row])[1][0]
        == " 1 W Trumps ♠         W<N!E!S!   20 (  20)   20 (  20)  -25 ( -25)   50 (  50)"
    )


def test_the_printed_sheet_has_the_legend() -> None:
    sheet = score_sheet([SIX_DOUBLES]).splitlines()
    assert LEGEND in sheet and len(LEGEND) <= 78
    assert sheet[-1] == "Winner: W (W) with 12"


def test_wide_and_alike_names_in_the_sheet_header() -> None:
    players = {
        "N": "表" * 24,
        "E": "heuristic-2fa8-1",
        "S": "heuristic-2fa8-2",
        "W": "heuristic-2fa8-3",
    }
    header, _ = sheet_rows([SIX_DOUBLES], players)
    assert header[0] == "N=表表表…表表表  E=heuris…-2fa8-1  S=heuris…-2fa8-2  W=heuris…-2fa8-3"
    assert width(header[0]) <= 78


def test_fit_counts_terminal_columns() -> None:
    assert fit("ab", 4) == "ab  " and fit("ab", 4, ">") == "  ab"
    assert (
        fit("表表表", 4) == "…表 " and fit("表表表", 4, cut="end") == "表… " and width(fit("表" * 24, 9)) == 9
    )
    assert shorten("heuristic-2fa8-1", 8) == "heu…a8-1"
    assert shorten("abcdef", 4, cut="end") == "abc…"
    assert shorten("short", 9) == "short" and shorten("abc", 0) == ""


def test_the_sheet_screen_scrolls_to_the_last_continuation_line() -> None:
    """The TUI's ``s`` screen: the legend on top, and scrolled to the end it shows the totals although the
    hands take more rows than there are hands."""
    history = [{**SIX_DOUBLES, "hand_number": n} for n in range(1, 21)]
    view = {"history": history}
    players = {s: s for s in "NESW"}
    top = sheet_top(view, players, 10**6, 16)
    assert top == 61 - 16  # 20 hands of three rows, and the totals
    shown = fragment_list_to_text(sheet_lines(view, players, top, 16)).splitlines()
    assert shown[1] == LEGEND and shown[-1].lstrip().startswith("Totals")
    assert all(width(line) <= 80 for line in shown)


def test_dominoes_on_the_sheet_in_the_one_notation() -> None:
    row = {
        "hand_number": 7,
        "declarer": "E",
        "contract": "dominoes",
        "start_rank": "T",
        "doubles": [["N", "E"]],
        "redoubles": [],
        "scores": {"N": 10, "E": 35, "S": 5, "W": -5},
    }
    line = sheet_rows([row])[1][0]
    assert line.startswith(" 7 E Dominoes from 10 E<N") and width(line) <= 78

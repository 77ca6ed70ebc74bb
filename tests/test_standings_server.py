"""The ``standings`` request over real WebSockets: matches finished by stand-ins and bots on a real server
with a real store file are counted as they finish, bots are not listed, and a restart gives the same table."""

from __future__ import annotations

from typing import Any

from server.standings import places
from tests.conftest import Connect, StartServer
from tests.standings_support import finish_match


def expected(records: list[dict[str, Any]], name: str) -> tuple[int, int, float]:
    """``name``'s matches, firsts and average place over ``records``, from each record's totals."""
    mine = [places(r["totals"])[seat] for r in records for seat, who in r["players"].items() if who == name]
    return len(mine), mine.count(1), round(sum(mine) / len(mine), 2)


async def test_standings_count_finished_matches_as_they_finish_and_survive_a_restart(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    ann, bob = await connect(server, "ann"), await connect(server, "bob")
    assert "standings" in (ann.welcome.features if ann.welcome else [])
    assert await ann.standings() == []

    first = await finish_match(server, {"N": ann, "E": bob}, "evening one")
    rows = await bob.standings()
    assert sorted(r["name"] for r in rows) == ["ann", "bob"]  # the two random bots are not listed
    for row in rows:
        assert (row["matches"], row["firsts"], row["average_place"]) == expected([first], row["name"])

    second = await finish_match(server, {"S": ann}, "evening two")
    rows = await ann.standings()
    by_name = {r["name"]: r for r in rows}
    assert (by_name["ann"]["matches"], by_name["bob"]["matches"]) == (2, 1)
    for row in rows:
        assert (row["matches"], row["firsts"], row["average_place"]) == expected([first, second], row["name"])
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)

    await server.stop()
    again = await start_server()
    cat = await connect(again, "cat")
    assert await cat.standings() == rows

"""The ``standings`` request over real WebSockets: matches finished by stand-ins and bots on a real server
with a real store file are counted as they finish, bots are not listed, and a restart gives the same table."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.barbu.actions import action_to_wire
from server.standings import places, store_standings
from tests.conftest import Connect, StartServer, server_table, until
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


async def test_a_match_that_finishes_after_standings_were_asked_is_counted(
    start_server: StartServer, connect: Connect
) -> None:
    """The standings are asked (and kept) while a match is under way; the player then plays it to its end
    with ``act`` alone, which leaves kept lobby replies as they are: the match finishing counts all the
    same, and a full replay of the store gives the same table as the kept ratings."""
    server = await start_server()
    ann = await connect(server, "ann")
    await finish_match(server, {"W": ann}, "warm-up")
    room = await ann.create_table("evening")
    await ann.sit(room, "N")
    for seat in "ESW":
        await ann.add_bot(room, seat, "random")
    table = server_table(server, room)
    await until(lambda: table.match is not None, "the start")
    before = await ann.standings()
    assert [(r["name"], r["matches"]) for r in before] == [("ann", 1)]

    match = table.match
    assert match is not None
    while not match.over:
        if match.to_move == 0:
            await ann.act(room, "N", action_to_wire(match.legal_actions(0)[0]))
        else:
            await asyncio.sleep(0.005)
    await until(lambda: table.store.room(table.store_id).status == "over", "the record stored")
    after = await ann.standings()
    assert [(r["name"], r["matches"]) for r in after] == [("ann", 2)]
    assert after == [row.to_wire() for row in store_standings(table.store)]

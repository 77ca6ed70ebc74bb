"""Names that would be taken for something else: a player name that looks like a bot as the clients show one
(the browser's ``bot (random)``, the terminal's ``bot`` and ``a bot``), and a table name that looks like an
open table's in another script (the same confusable skeleton as player names)."""

from __future__ import annotations

import pytest

from client import ServerError
from server import BarbuServer
from tests.conftest import Connect


@pytest.mark.parametrize(
    "name", ["bot (random)", "bot", "a bot", "Bot", "BOT", "\u0299ot:search", "\u0432ot", "bot2", "A Bot"]
)
async def test_a_name_shown_like_a_bot_is_refused(server: BarbuServer, connect: Connect, name: str) -> None:
    conn = await connect(server)
    with pytest.raises(ServerError) as info:
        await conn.login(name)
    assert (info.value.code, info.value.field) == ("bad-message", "name")
    assert "bot" in info.value.message


@pytest.mark.parametrize("name", ["botany", "Botond", "robot", "abbot"])
async def test_names_merely_containing_bot_pass(server: BarbuServer, connect: Connect, name: str) -> None:
    assert (await connect(server, name)).name == name


async def test_a_table_name_that_looks_like_an_open_ones_is_refused(
    server: BarbuServer, connect: Connect
) -> None:
    alice = await connect(server, "alice")
    await alice.create_table("friday")
    for twin in ("frid\u0430y", "FRID\u0410Y", "fr\u0131day"):  # Cyrillic а, А; dotless ı
        with pytest.raises(ServerError) as info:
            await alice.create_table(twin)
        assert (info.value.code, info.value.field) == ("name-taken", "name")
    await alice.create_table("friday night")

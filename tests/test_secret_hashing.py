"""Hashing personal secrets (scrypt, some 50 ms of CPU each) is bounded: the logins of one address may have
``secret_hashes_per_minute`` hashed (claims and checks alike), then get ``slow-down`` with ``retry_after``
before anything is hashed; beyond ``max_hashes_waiting`` waiting for a hashing thread a login gets ``busy``
at once. A burst of claims from a few addresses so leaves a player's own login, and a resume, working."""

from __future__ import annotations

import asyncio

import pytest

from client import Connection, ServerError
from protocol import ProtocolError
from server.identity import BUSY_RETRY, Hasher, secret_matches
from tests.conftest import ConnectFrom, StartServer, until_dropped

PER_MINUTE = 3
BURST = 8  # claims sent at once from each burst address
BURST_ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")


async def _outcome(conn: Connection, name: str, secret: str) -> str:
    """``logged-in``, or the error code the login as ``name`` with ``secret`` got."""
    try:
        await conn.login(name, None, secret)
    except ServerError as error:
        assert error.field == "secret", error
        assert error.retry_after is not None and error.retry_after >= 1, error
        return error.code
    return "logged-in"


async def test_a_burst_of_claims_is_slowed_down_and_a_players_own_login_goes_through(
    start_server: StartServer, connect_from: ConnectFrom
) -> None:
    server = await start_server(secret_hashes_per_minute=PER_MINUTE)
    ann = await connect_from(server, "127.0.0.5", "ann", secret="ann's own")
    gus = await connect_from(server, BURST_ADDRESSES[0], "gus")  # no secret: no hash, nothing spent
    tokens = {"ann": ann.token, "gus": gus.token}
    for conn in (ann, gus):
        await conn.close()
    await until_dropped(server, "ann")
    await until_dropped(server, "gus")

    waiting = {
        (address, number): await connect_from(server, address, None)
        for address in BURST_ADDRESSES
        for number in range(BURST)
    }
    outcomes = await asyncio.gather(
        *(_outcome(conn, f"burst {a[-1]} {n}", "stolen cpu") for (a, n), conn in waiting.items())
    )
    by_address = {address: outcomes[i * BURST : (i + 1) * BURST] for i, address in enumerate(BURST_ADDRESSES)}
    for address, got in by_address.items():
        assert set(got) <= {"logged-in", "slow-down", "busy"}, got
        assert got.count("slow-down") >= BURST - PER_MINUTE, (address, got)  # before anything was hashed
    with pytest.raises(ServerError) as info:  # a claim's check of a known name spends the budget as well
        await connect_from(server, BURST_ADDRESSES[1], "ann", secret="ann's own")
    assert (info.value.code, info.value.field) == ("slow-down", "secret")
    assert info.value.retry_after is not None and 1 <= info.value.retry_after <= 60

    back = await connect_from(server, "127.0.0.6", "ann", secret="ann's own")  # another address: her own
    assert back.name == "ann" and back.token != tokens["ann"]
    token = tokens["gus"]
    assert token is not None
    resumed = await connect_from(server, BURST_ADDRESSES[0], "gus", token=token)  # a resume hashes nothing
    assert resumed.name == "gus"


async def test_logins_beyond_the_hashing_queue_are_busy_at_once() -> None:
    """Two hash at once and one waits (``max_waiting`` 1): the fourth and fifth secrets asked for together
    are refused ``busy`` before any thread takes them, and the others are hashed right."""
    hasher = Hasher(limit=2, max_waiting=1)
    jobs = [asyncio.create_task(hasher.hash(f"secret {i}")) for i in range(5)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    hashed = [r for r in results if isinstance(r, str)]
    refused = [r for r in results if isinstance(r, ProtocolError)]
    assert len(hashed) == 3 and len(refused) == 2, results
    assert all(secret_matches(f"secret {i}", r) for i, r in enumerate(results[:3]) if isinstance(r, str))
    assert all((r.code, r.field, r.retry_after) == ("busy", "secret", BUSY_RETRY) for r in refused)
    assert await hasher.check("secret 0", hashed[0])  # the queue is free again

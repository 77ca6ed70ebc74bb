"""Winnable deals on request: open-solitaire and new-deal with ``winnable``, the day's deal, the CLI's
``play --winnable`` (real server, real WebSocket clients, real SQLite file)."""

from __future__ import annotations

import io
from argparse import Namespace
from pathlib import Path

import pytest

from cli.solitaire_play import run_play
from client import ServerError
from engine.solitaire import GAMES, Outcome, new_game, solve
from engine.solitaire.lines import wins
from engine.solitaire.winnable import is_winnable, list_key, option_sets, winnable_seeds
from engine.solitaire.winnable_seeds import SEEDS
from server import BarbuServer
from server.solitaire_daily import daily_secret, daily_seed, today
from server.store import Store
from server.winnable_finder import FINDER
from tests.conftest import Connect, StartServer, until
from tests.test_store_faults import _writes

#: An option set no shipped list covers (two options changed), most of whose deals are won at once.
UNSHIPPED: tuple[str, dict[str, object]] = ("bakers-dozen", {"kings": "stay", "build": "any-suit"})


def unlisted(game: str, options: dict[str, object] | None = None) -> int:
    """A seed of ``game`` not on its winnable list."""
    listed = set(winnable_seeds(game, options))
    return next(s for s in range(10**6) if s not in listed)


def test_every_game_has_a_list_and_the_keys_name_the_options() -> None:
    assert list_key(new_game("pyramid", {"draw": 3}, seed=1)) == "pyramid draw=3"
    assert list_key(new_game("bakers-dozen", {"kings": "stay"}, seed=1)) == "bakers-dozen kings=stay"
    assert list_key(new_game("streets", {"supermove": False}, seed=1)) == "streets"  # a default is no option
    for key, text in SEEDS.items():
        seeds = [int(seed) for seed in text.split()]
        assert seeds and seeds == sorted(set(seeds)), key
    for name, options in option_sets():
        assert winnable_seeds(name, options), f"a list is shipped for {name} {options}"
    assert len(option_sets()) > 2 * len(GAMES), "each option changed alone has its own list"
    assert not winnable_seeds(*UNSHIPPED)


async def test_open_solitaire_winnable_deals_a_listed_seed(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    for game, options in (("bakers-dozen", {}), ("pyramid", {"draw": 3})):
        snap = await alice.open_solitaire(game, options, winnable=True)
        assert snap.view is not None and snap.view["winnable"] is True and snap.view["daily"] is None
        lobby = await alice.lobby()
        (mine,) = [r for r in lobby.rooms if r["room"] == snap.room]
        assert mine["winnable"] is True
        assert server.store is not None  # the seed stays hidden from the player: the store has it
        assert server.store.room(int(snap.room)).config["seed"] in winnable_seeds(game, options)
    plain = await alice.open_solitaire("bakers-dozen", seed=unlisted("bakers-dozen"))
    assert plain.view is not None and plain.view["winnable"] is False


async def test_winnable_refusals(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as not_listed:
        await alice.open_solitaire("streets", seed=unlisted("streets"), winnable=True)
    assert (not_listed.value.code, not_listed.value.field) == ("not-winnable", "seed")
    listed = winnable_seeds("streets")[0]
    snap = await alice.open_solitaire("streets", seed=listed, winnable=True)
    assert snap.view is not None and snap.view["winnable"] is True


@pytest.mark.parametrize("options", [{"draw": 5}, {"draw": "3"}, {"nosuch": 1}])
async def test_winnable_with_a_bad_option_is_unknown_option(
    server: BarbuServer, connect: Connect, options: dict[str, object]
) -> None:
    """A bad option is refused as without ``winnable`` (it reached the seed lists and failed as internal)."""
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as refused:
        await alice.open_solitaire("pyramid", options, winnable=True)
    assert (refused.value.code, refused.value.field) == ("unknown-option", "options")
    assert (await alice.open_solitaire("pyramid", winnable=True)).view is not None


async def test_new_deal_stays_winnable(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    first = await alice.open_solitaire("bakers-dozen", {"build": "any-suit"}, winnable=True)
    again = await alice.new_deal(first.room)  # unasked: winnable like the old deal
    assert again.view is not None and again.view["winnable"] is True
    other = await alice.new_deal(again.room, seed=unlisted("bakers-dozen", {"build": "any-suit"}))
    assert other.view is not None and other.view["winnable"] is False  # a seed given: dealt as is
    asked = await alice.new_deal(other.room, winnable=True)
    assert asked.view is not None and asked.view["winnable"] is True
    plain = await alice.new_deal(asked.room, winnable=False)
    assert plain.view is not None and plain.view["game"] == "bakers-dozen"


async def test_the_days_deal_is_always_winnable(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    snap = await alice.open_solitaire("maria")
    assert snap.view is not None and snap.view["daily"] == today() and snap.view["winnable"] is True
    assert server.store is not None
    secret = daily_secret(server.store)
    for game in ("maria", "pyramid", "forty-thieves"):
        for day in ("2026-01-01", "2026-01-02", today()):
            seed = daily_seed(secret, game, day)
            assert seed in winnable_seeds(game) and is_winnable(new_game(game, seed=seed))


def test_play_winnable_on_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    args = Namespace(game="limited", seed=None, out=None, winnable=True)
    assert run_play(args, {}) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("(winnable). Type ? for help.")
    seed = int(first.split("seed ")[1].split(" ")[0])
    assert seed in winnable_seeds("limited")
    refused = Namespace(game="limited", seed=unlisted("limited"), out=None, winnable=True)
    assert run_play(refused, {}) == 1
    assert "not one the solver proved winnable" in capsys.readouterr().err
    name, options = UNSHIPPED
    no_list = Namespace(game=name, seed=None, out=None, winnable=True)
    assert run_play(no_list, options) == 1
    assert "play it without --winnable" in capsys.readouterr().err, "the refusal says what to do"


def _rooms(server: BarbuServer) -> int:
    assert server.store is not None
    return len(server.store.rooms())


async def test_winnable_deals_for_options_without_a_list_are_found_in_the_background(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No list is shipped for the options: the first ask is refused, saying the server is looking and what
    to do meanwhile, and changes nothing; the worker pool proves seeds meanwhile, the store keeps them, and
    the next asks (``open-solitaire``, ``new-deal``) deal from them, after a restart too."""
    name, options = UNSHIPPED
    key = list_key(new_game(name, options, seed=0))
    monkeypatch.setattr("server.winnable_finder.FOUND_PER_LIST", 3)  # the search stops sooner
    server = await start_server(hint_budget=2.0)  # 1 s of CPU per deal: proofs do not hang on a busy machine
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as refused:
        await alice.open_solitaire(name, options, winnable=True)
    assert (refused.value.code, refused.value.field) == ("no-winnable-deals", "options")
    assert "looking for some now" in refused.value.message
    assert refused.value.message.endswith("ask again in a minute, or ask without winnable")
    assert _rooms(server) == 0, "a refusal changes nothing"
    store, lobby, workers = server.store, server.lobby, server.workers
    assert store is not None and lobby is not None and workers is not None
    bob = await connect(server, "bob")  # a player's hints are answered while the search goes on
    played = await bob.open_solitaire("bakers-dozen", seed=2)
    for _ in range(3):
        hint = await bob.hint(played.room)
        assert hint.status == "sure" and hint.move is not None
        await bob.move(played.room, hint.move)
    with pytest.raises(ServerError):  # a second search: the two take turns, one deal in the pool at a time
        await alice.open_solitaire("pyramid", {"draw": 3, "stock-top": True}, winnable=True)
    most = 0

    def found_all() -> bool:
        nonlocal most
        most = max(most, workers.pending(FINDER))
        return len(store.winnable(key)) == 3

    await until(found_all, "the seeds found", timeout=120)
    assert most == 1, "one of the searches' deals in the pool at a time"
    await until(lambda: not lobby.finder.searching(key), "the search to stop")
    assert len(store.winnable(key)) == 3, "it stops once it has found enough"
    assert workers.finished >= 3 and workers.pending(FINDER) == 0, "the pool did the work"
    found = store.winnable(key)
    for seed in found[:3]:  # each replays to a win
        deal = new_game(name, options, seed=seed)
        result = solve(deal, timeout=30)
        assert result.outcome is Outcome.SOLVABLE and wins(deal, result.moves), seed
    snap = await alice.open_solitaire(name, options, winnable=True)
    assert (
        snap.view is not None
        and snap.view["winnable"] is True
        and snap.view["options"]
        == {
            "kings": "stay",
            "build": "any-suit",
        }
    )
    assert store.room(int(snap.room)).config["seed"] in found
    again = await alice.new_deal(snap.room)  # unasked: winnable like the old deal
    assert again.view is not None and again.view["winnable"] is True
    assert store.room(int(again.room)).config["seed"] in found
    chosen = await alice.open_solitaire(name, options, seed=found[0], winnable=True)  # a found seed given
    assert chosen.view is not None and chosen.view["winnable"] is True
    await alice.close()
    await server.stop()
    server = await start_server(hint_budget=2.0)
    alice = await connect(server, "alice")
    assert server.lobby is not None
    back = server.lobby.rooms[chosen.room]
    assert getattr(back, "winnable", None) is True, "a restored room still knows its deal is winnable"
    snap = await alice.open_solitaire(name, options, winnable=True)
    assert server.store is not None and server.store.room(int(snap.room)).config["seed"] in found
    assert not server.lobby.finder.searching(key), "enough seeds are kept: no new search"


async def test_a_seed_found_while_the_store_cannot_write_is_not_kept_and_the_search_goes_on(
    start_server: StartServer, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    name, options = UNSHIPPED
    key = list_key(new_game(name, options, seed=0))
    server = await start_server(hint_budget=2.0)
    store = server.store
    assert store is not None
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as refused:
        await alice.open_solitaire(name, options, winnable=True)  # the search starts
    assert refused.value.code == "no-winnable-deals"
    _writes(server, False)
    kept = store.winnable(key)  # the first deal takes a worker's start: most likely none yet
    await until(lambda: any("not kept" in r.getMessage() for r in caplog.records), "a seed lost", timeout=120)
    assert store.winnable(key) == kept, "nothing was written meanwhile"
    _writes(server, True)
    await until(lambda: len(store.winnable(key)) > len(kept), "a seed kept again", timeout=120)
    snap = await alice.open_solitaire(name, options, winnable=True)
    assert snap.view is not None and snap.view["winnable"] is True


async def test_a_search_that_has_used_its_tries_says_so(
    server: BarbuServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("server.winnable_finder.MAX_TRIES", 0)  # as after 400 deals tried in vain
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as refused:
        await alice.open_solitaire(*UNSHIPPED, winnable=True)
    assert refused.value.code == "no-winnable-deals"
    assert refused.value.message == (
        "the server tried 0 deals of Baker's Dozen with these options and proved none winnable; "
        "ask without winnable"
    )
    assert server.lobby is not None and not server.lobby.finder.searching(
        list_key(new_game(*UNSHIPPED, seed=0))
    )


def test_the_store_keeps_found_seeds_once_each_by_list(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    try:
        store.add_winnable("pyramid draw=3 stock-top=true", 7)
        store.add_winnable("pyramid draw=3 stock-top=true", 3)
        store.add_winnable("pyramid draw=3 stock-top=true", 7)
        store.add_winnable("bakers-dozen build=any-suit kings=stay", 9)
        assert store.winnable("pyramid draw=3 stock-top=true") == [7, 3]
        assert store.winnable("streets") == []
    finally:
        store.close()

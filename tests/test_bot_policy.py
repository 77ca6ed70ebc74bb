"""Bot policy specs (``NAME[:KEY=VALUE...]``) and a table's bot policy: the engine's parser, the CLI's
refusals, ``create-table.bot_policy`` and ``add-bot`` over real WebSockets, and the terminal client's form."""

from __future__ import annotations

import pytest

from cli.main import main as barbu
from client import ServerError
from client.tui.lobby_screen import BOT_POLICIES, POLICY_ROW, TableForm
from engine.barbu import POLICIES, PolicySpecError, make_policy, parse_policy_spec
from tests.conftest import Connect, StartServer


def test_specs_parse_to_a_name_and_options() -> None:
    assert str(parse_policy_spec("heuristic")) == "heuristic"
    spec = parse_policy_spec("random")
    assert (spec.name, spec.options) == ("random", ())
    for name in POLICIES:
        assert parse_policy_spec(name).name == name
        make_policy(name, 1)  # every built-in policy can be made from its bare name


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("genius", "unknown policy 'genius'"),
        ("", "unknown policy ''"),
        ("heuristic:depth=3", "heuristic: unknown option 'depth' (it takes no options)"),
        ("random:", "unknown option ''"),
        ("x" * 65, "at most 64 characters"),
        (
            "search:time=\u0661",
            "search: time=\u0661 is not a decimal number in ASCII digits",
        ),  # Arabic-Indic 1
        ("search:time= 1", "is not a decimal number in ASCII digits"),
        ("search:time=1e0", "is not a decimal number in ASCII digits"),
        ("search:playouts=1_000", "search: playouts=1_000 is not an integer in ASCII digits"),
    ],
)
def test_bad_specs_say_why(text: str, says: str) -> None:
    with pytest.raises(PolicySpecError) as info:
        parse_policy_spec(text)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_selfplay_refuses_a_bad_spec_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert barbu(["selfplay", "--players", "heuristic,heuristic,genius,heuristic"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("barbu: --players: unknown policy 'genius'")


def test_bot_refuses_a_bad_spec(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        barbu(["bot", "--server", "ws://127.0.0.1:1", "--policy", "heuristic:depth=2"])
    assert info.value.code == 2
    assert "unknown option 'depth'" in capsys.readouterr().err


async def test_table_bot_policy_plays_its_bots_and_shows_in_the_lobby(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(bot_policy="random")
    alice = await connect(server, "alice")
    for bad, field in ((("genius"), "bot_policy"), ("heuristic:depth=1", "bot_policy")):
        with pytest.raises(ServerError) as info:
            await alice.create_table("bad", bot_policy=bad)
        assert (info.value.code, info.value.field) == ("bad-message", field)
    default = await alice.create_table("server default")
    chosen = await alice.create_table("heuristic bots", bot_policy="heuristic")
    rooms = {r["room"]: r for r in await alice.list_rooms()}
    assert rooms[default]["bot_policy"] == "random"
    assert rooms[chosen]["bot_policy"] == "heuristic"
    await alice.sit(chosen, "S")
    with pytest.raises(ServerError) as info:
        await alice.add_bot(chosen, "N", "genius")
    assert (info.value.code, info.value.field) == ("bad-message", "policy")
    await alice.add_bot(chosen, "N")  # the table's policy
    await alice.add_bot(chosen, "E", "random")  # its own
    rooms = {r["room"]: r for r in await alice.list_rooms()}
    assert rooms[chosen]["players"] == {"N": "bot:heuristic", "E": "bot:random", "S": "alice", "W": None}


def test_the_new_table_form_offers_the_bot_policy() -> None:
    form = TableForm(name="t")
    assert form.bot_policy() is None and BOT_POLICIES[1:] == POLICIES
    form.row = POLICY_ROW
    form.cycle(1)
    assert form.bot_policy() == POLICIES[0]
    form.cycle(-2)
    assert form.bot_policy() == POLICIES[-1]
    assert form.variants() == {}


async def test_a_time_a_hair_over_the_servers_cap_is_refused(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(max_bot_time=2.0)
    host = await connect(server, "host")
    assert str(parse_policy_spec("search:time=2.0000000001")) == "search:time=2.0000000001"  # exact
    with pytest.raises(ServerError) as info:
        await host.create_table("hog", bot_policy="search:time=2.0000000001")
    assert (info.value.code, info.value.field) == ("bad-message", "bot_policy")
    room = await host.create_table("fair", bot_policy="search:time=2.0")
    [listed] = await host.list_rooms()
    assert (listed["room"], listed["bot_policy"]) == (room, "search:time=2")  # canonical, short

"""The key bindings of every screen (the help screen lists them: ``client/tui/help.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from client.tui.barbu_screen import WATCHING
from client.tui.events import duration
from client.tui.lobby_screen import TABLE_NAME_LIMIT, TABLE_NAME_PROMPT, TableForm
from client.tui.refusals import refusal_text

if TYPE_CHECKING:
    from client.tui.app import TuiApp

E = KeyPressEvent


def build_key_bindings(tui: TuiApp) -> KeyBindings:
    """All bindings; each screen's are active only on that screen and never while the input line is open."""
    kb = KeyBindings()
    typing = Condition(lambda: tui.input_mode is not None)
    asking = Condition(lambda: tui.pending is not None)
    # The end-of-hand summary takes the first key for itself: the decision beside it (a double, a contract,
    # a card) waits for the next key, so reading the summary away never decides anything.
    summary = Condition(lambda: tui.summary_up())
    free = ~typing & ~asking & ~summary

    def on(screen: str) -> Filter:
        return free & Condition(lambda: tui.screen == screen)

    lobby = on("lobby") & Condition(
        lambda: tui.lobby.form is None and not tui.lobby.picking and tui.lobby.standings is None
    )
    standings = on("lobby") & Condition(lambda: tui.lobby.standings is not None)
    form = on("lobby") & Condition(lambda: tui.lobby.form is not None)
    games = on("lobby") & Condition(lambda: tui.lobby.picking)
    table = on("table")
    sheet = on("sheet")
    sol = on("solitaire")
    playing = Condition(lambda: tui.solitaire is not None and not tui.solitaire.room.watching)

    # A key no binding of this screen takes says so (registered first: any binding of the key that applies,
    # registered later, goes before it; Keys.Any goes after every named key). prompt-toolkit's own bindings
    # take the named keys (arrows, F-keys, Ctrl-letters) to ignore them: those are named here one by one.
    @kb.add(Keys.Any, filter=free)
    def _unbound(event: E) -> None:
        key = event.key_sequence[0].key
        if len(key) == 1 and key.isprintable():  # not a mouse event, a paste, a terminal's reply
            tui.nothing_here(key_name(event))

    for key in KEY_NAMES:
        kb.add(key, filter=free, eager=key == "escape")(lambda event: tui.nothing_here(key_name(event)))

    @kb.add("y", filter=asking & ~typing)
    def _yes(event: E) -> None:
        tui.answer(True)

    @kb.add(Keys.Any, filter=asking & ~typing)
    @kb.add("escape", filter=asking & ~typing, eager=True)
    @kb.add("enter", filter=asking & ~typing)
    def _no(event: E) -> None:
        tui.answer(False)

    @kb.add(Keys.Any, filter=summary & ~typing & ~asking)
    @kb.add("escape", filter=summary & ~typing & ~asking, eager=True)
    def _summary_away(event: E) -> None:
        tui.put_summary_away()
        press = event.key_sequence[0]
        if press.key in OWN_JOB_KEYS:  # chat, the lobby, the score sheet, the other game, help: its job too
            event.app.key_processor.feed(press, first=True)

    @kb.add("c-c")
    def _quit(event: E) -> None:
        event.app.exit(result=0)

    @kb.add("q", filter=free & Condition(lambda: tui.screen in ("lobby", "login")))
    def _q(event: E) -> None:
        event.app.exit(result=0)

    @kb.add("escape", filter=typing, eager=True)
    def _cancel(event: E) -> None:
        if tui.input_mode in ("name", "password", "secret"):
            return
        if tui.input_mode == "table" and tui.lobby.form is not None and not tui.lobby.form.name:
            tui.lobby.form = None
        tui.cancel_input()

    @kb.add("?", filter=free)
    @kb.add("f1", filter=free)
    def _help(event: E) -> None:
        if tui.screen == "help":
            tui.back()
        elif tui.screen != "login":
            tui.help_page = 0
            tui.show("help")

    @kb.add("escape", filter=on("help"), eager=True)
    def _help_back(event: E) -> None:
        tui.back()

    @kb.add("right", filter=on("help"))
    @kb.add("pagedown", filter=on("help"))
    @kb.add("space", filter=on("help"))
    def _help_next(event: E) -> None:
        tui.help_page += 1

    @kb.add("left", filter=on("help"))
    @kb.add("pageup", filter=on("help"))
    def _help_previous(event: E) -> None:
        tui.help_page -= 1

    @kb.add("l", filter=free & Condition(lambda: tui.screen in ("table", "solitaire", "sheet")))
    def _to_lobby(event: E) -> None:
        tui.leave_for_lobby()

    @kb.add("t", filter=lobby | on("table") | on("solitaire") | on("sheet"))
    def _to_game(event: E) -> None:
        tui.switch_game()

    # Lobby ------------------------------------------------------------------------------------------

    @kb.add("up", filter=on("lobby"))
    def _up(event: E) -> None:
        tui.lobby.move(tui.model, -1)
        tui.moved_on()
        tui.to_name_field()

    @kb.add("down", filter=on("lobby"))
    def _down(event: E) -> None:
        tui.lobby.move(tui.model, 1)
        tui.moved_on()
        tui.to_name_field()

    naming = typing & Condition(lambda: tui.input_mode == "table" and tui.lobby.form is not None)

    @kb.add("up", filter=naming)
    @kb.add("down", filter=naming)
    def _name_field_away(event: E) -> None:
        tui.leave_name_field(-1 if event.key_sequence[0].key == Keys.Up else 1)

    @kb.add("r", filter=lobby)
    def _refresh(event: E) -> None:
        tui.moved_on()
        tui.spawn(tui.session.refresh_rooms())

    @kb.add("enter", filter=lobby)
    @kb.add("j", filter=lobby)
    def _sit(event: E) -> None:
        room = tui.lobby.selected(tui.model)
        if room is not None and room.get("kind") != "solitaire" and room.get("state") == "over":
            tui.spawn(tui.watch(str(room["room"])))  # no seat to take: its ranking, as ``w`` shows it
        elif room is not None:
            tui.spawn(tui.sit(str(room["room"])))
        else:  # no table listed
            tui.nothing_here(key_name(event))

    def sit_at(seat: str) -> None:
        @kb.add(seat, filter=lobby)
        def _sit_at(event: E) -> None:
            room = tui.lobby.selected(tui.model)
            if room is not None:
                tui.spawn(tui.sit(str(room["room"]), seat))
            else:
                tui.nothing_here(key_name(event))

    for letter in "NESW":
        sit_at(letter)

    @kb.add("w", filter=lobby)
    def _watch(event: E) -> None:
        room = tui.lobby.selected(tui.model)
        if room is not None:
            tui.spawn(tui.watch(str(room["room"])))
        else:
            tui.nothing_here(key_name(event))

    @kb.add("b", filter=lobby)
    @kb.add("f", filter=lobby)
    def _bots(event: E) -> None:
        room = tui.lobby.selected(tui.model)
        if room is not None and room.get("kind") == "solitaire":
            tui.tell(
                f"{key_name(event)} adds bots to a Barbu table: a solitaire room has only its player.", False
            )
        elif room is not None:
            every = event.key_sequence[0].key == "f"
            tui.spawn(tui.fill_bots(str(room["room"]), room.get("players", {}), every))
        else:
            tui.nothing_here(key_name(event))

    @kb.add("n", filter=lobby)
    def _new(event: E) -> None:
        suggested = f"{tui.model.name}'s table"[:TABLE_NAME_LIMIT]
        tui.lobby.form = TableForm(suggested=suggested)
        tui.ask("table", TABLE_NAME_PROMPT)  # the form shows the suggestion that Enter alone takes

    @kb.add("o", filter=lobby)
    def _games(event: E) -> None:
        tui.lobby.picking = True
        tui.moved_on()

    @kb.add("s", filter=lobby)
    @kb.add("r", filter=standings)
    def _standings(event: E) -> None:
        tui.spawn(tui.show_standings())

    @kb.add("s", filter=standings)
    @kb.add("escape", filter=standings, eager=True)
    def _standings_away(event: E) -> None:
        tui.lobby.standings = None
        tui.moved_on()

    @kb.add("left", filter=form)
    def _form_left(event: E) -> None:
        assert tui.lobby.form is not None
        tui.lobby.form.cycle(-1)

    @kb.add("right", filter=form)
    def _form_right(event: E) -> None:
        assert tui.lobby.form is not None
        tui.lobby.form.cycle(1)

    @kb.add("e", filter=form)
    def _form_name(event: E) -> None:
        assert tui.lobby.form is not None
        tui.ask("table", TABLE_NAME_PROMPT, tui.lobby.form.name)

    @kb.add("enter", filter=form)
    def _form_go(event: E) -> None:
        tui.spawn(tui.create_table())

    @kb.add("escape", filter=form | games, eager=True)
    def _form_cancel(event: E) -> None:
        tui.lobby.form = None
        tui.lobby.picking = False
        tui.moved_on()

    @kb.add("enter", filter=games)
    def _open_game(event: E) -> None:
        tui.open_solitaire(tui.lobby.game_name())

    @kb.add("r", filter=games)
    def _open_random(event: E) -> None:
        tui.open_solitaire(tui.lobby.game_name(), random=True)  # the server chooses: hidden from watchers

    @kb.add("w", filter=games)
    def _open_winnable(event: E) -> None:
        tui.open_solitaire(tui.lobby.game_name(), winnable=True)

    @kb.add(":", filter=games)
    def _open_with(event: E) -> None:
        tui.ask("deal", "Options (K=V ..., seed=N, winnable=true): ")

    # Barbu table ------------------------------------------------------------------------------------

    def current() -> object:
        return tui.model.table

    # Each says so when the table as it is now gives it nothing to do (no hand, no menu, no dialog).
    @kb.add("left", filter=table)
    @kb.add("right", filter=table)
    def _card(event: E) -> None:
        step = -1 if event.key_sequence[0].key == Keys.Left else 1
        if tui.model.table is None or not tui.barbu.move_card(tui.model.table, step):
            tui.nothing_here(key_name(event))

    @kb.add("up", filter=table)
    @kb.add("down", filter=table)
    def _menu(event: E) -> None:
        step = -1 if event.key_sequence[0].key == Keys.Up else 1
        if tui.model.table is None or not tui.barbu.move_menu(tui.model.table, step):
            tui.nothing_here(key_name(event))

    @kb.add("home", filter=table)
    @kb.add("end", filter=table)
    def _menu_end(event: E) -> None:
        last = event.key_sequence[0].key == Keys.End
        if tui.model.table is None or not tui.barbu.menu_end(tui.model.table, last):
            tui.nothing_here(key_name(event))

    @kb.add("pageup", filter=table)
    def _chat_up(event: E) -> None:
        tui.barbu.scroll_chat(-5)

    @kb.add("pagedown", filter=table)
    def _chat_down(event: E) -> None:
        tui.barbu.scroll_chat(5)

    @kb.add("space", filter=table)
    def _tick(event: E) -> None:
        if tui.model.table is None or not tui.barbu.toggle(tui.model.table):
            tui.nothing_here(key_name(event))

    @kb.add("escape", filter=table, eager=True)
    def _menu_back(event: E) -> None:
        if not tui.barbu.back():
            tui.nothing_here(key_name(event))

    @kb.add("enter", filter=table)
    def _confirm(event: E) -> None:
        if tui.model.table is not None:
            action, notice = tui.barbu.confirm(tui.model.table)
            tui.spawn(tui.act(action, notice))

    @kb.add("p", filter=table)
    def _pass(event: E) -> None:
        table_ = tui.model.table
        if table_ is None:
            return
        view = table_.view or {}
        if any(a.get("action") == "pass" for a in view.get("legal") or []):
            tui.spawn(tui.act({"action": "pass"}))
        elif table_.my_turn and view.get("phase") != "play":  # a doubling or contract decision is due
            tui.model.say(refusal_text("wrong-phase", "", view, {}), error=True)
        elif table_.my_turn and view.get("contract") == "dominoes":
            tui.model.say(refusal_text("must-play", "", view, {}), error=True)
        elif table_.my_turn:
            tui.model.say("Only in Dominoes, when no card fits a row, may you pass.", error=True)
        else:
            tui.nothing_here(key_name(event))

    @kb.add(":", filter=table)
    def _type_card(event: E) -> None:
        table_ = tui.model.table
        if table_ is not None and table_.seat is None:  # a watcher has no card to type
            tui.model.say(WATCHING)
            return
        tui.ask("card", "Card: ")

    @kb.add("c", filter=table)
    def _chat(event: E) -> None:
        if current() is not None:
            tui.ask("chat", "Say: ")

    @kb.add("s", filter=table)
    def _sheet(event: E) -> None:
        tui.sheet_top = 10**6
        tui.show("sheet")

    @kb.add("b", filter=table)
    @kb.add("f", filter=table)
    def _table_bots(event: E) -> None:
        table_ = tui.model.table
        if table_ is not None:
            every = event.key_sequence[0].key == "f"
            tui.spawn(tui.fill_bots(table_.room, table_.players, every))

    @kb.add("k", filter=table)
    def _remove(event: E) -> None:
        tui.ask_removal()

    @kb.add("x", filter=table)
    def _leave(event: E) -> None:
        table_ = tui.model.table
        if table_ is None or table_.seat is None:
            tui.spawn(tui.session.leave())
            tui.show("lobby")
            return

        def give_up() -> None:
            tui.show("lobby")
            tui.spawn(tui.give_up_seat())

        if table_.state == "playing":
            question = "Give your seat to a bot? It plays for you until you sit here again."
        else:
            question = "Leave your seat at this table?"
        tui.confirm(question, give_up)

    @kb.add("w", filter=table)
    def _follow(event: E) -> None:
        table_ = tui.model.table
        if table_ is None or table_.rematch is None:  # no next match to follow the players to
            tui.nothing_here(key_name(event))
            return
        if table_.seat is not None or table_.me in table_.players.values():  # the seat kept there
            tui.spawn(tui.sit(table_.rematch))
        else:
            tui.spawn(tui.watch(table_.rematch))  # a watcher follows the players to their next match

    @kb.add("q", filter=free & Condition(lambda: tui.screen not in ("lobby", "login")))
    def _quit_asked(event: E) -> None:
        table_ = tui.model.table
        held = table_ is not None and table_.seat is not None
        waiting = table_ is not None and table_.state == "waiting"
        grace = None if table_ is None else table_.grace
        daily = tui.daily_in_play() if tui.screen == "solitaire" else ""
        question = quit_question(held, tui.local, waiting, grace, daily)

        def quit_now() -> None:
            if daily:  # said again once the screen is gone, where the terminal keeps it
                tui.farewell = daily_kept(daily)
            event.app.exit(result=0)

        tui.confirm(question, quit_now)

    @kb.add("r", filter=table)
    def _rematch(event: E) -> None:
        table_ = tui.model.table
        if table_ is None or (table_.view or {}).get("phase") != "over":  # another match: once it is over
            tui.nothing_here(key_name(event))
            return
        if table_.host is not None and table_.host != tui.model.name:
            tui.model.say(f"Only the host, {table_.host}, may start another match with these players.")
        else:
            tui.spawn(tui.session.rematch())

    # Score sheet ------------------------------------------------------------------------------------

    @kb.add("up", filter=sheet)
    def _sheet_up(event: E) -> None:
        tui.sheet_top = max(0, tui.sheet_top - 1)

    @kb.add("down", filter=sheet)
    def _sheet_down(event: E) -> None:
        tui.sheet_top += 1

    @kb.add("pageup", filter=sheet)
    def _sheet_pgup(event: E) -> None:
        tui.sheet_top = max(0, tui.sheet_top - 10)

    @kb.add("pagedown", filter=sheet)
    def _sheet_pgdn(event: E) -> None:
        tui.sheet_top += 10

    @kb.add("escape", filter=sheet, eager=True)
    @kb.add("s", filter=sheet)
    def _sheet_back(event: E) -> None:
        tui.back()

    # Solitaire --------------------------------------------------------------------------------------

    def moves(drow: int, dcol: int) -> None:
        if tui.solitaire is not None:
            tui.solitaire.move_cursor(drow, dcol)

    @kb.add("left", filter=sol)
    def _sl(event: E) -> None:
        moves(0, -1)

    @kb.add("right", filter=sol)
    @kb.add("tab", filter=sol)
    def _sr(event: E) -> None:
        moves(0, 1)

    @kb.add("up", filter=sol)
    def _su(event: E) -> None:
        moves(-1, 0)

    @kb.add("down", filter=sol)
    def _sd(event: E) -> None:
        moves(1, 0)

    def sol_key(key: str, method: str) -> None:  # the player's keys only: a watcher has none
        @kb.add(key, filter=sol & playing)
        def _run(event: E) -> None:
            if tui.solitaire is not None:
                getattr(tui.solitaire, method)()

    for key, method in (
        ("enter", "select"),
        ("space", "select"),
        ("u", "undo"),
        ("r", "redo"),
        ("h", "show_hint"),
        ("a", "auto"),
        ("f", "to_foundation"),
    ):
        sol_key(key, method)

    def daily_guard(key: str, method: str, question: str, always: str = "", moved: str = "") -> None:
        """``key`` asks ``question`` first on the day's deal in play, and ``always`` (if any) on any other
        game in play (as ``x`` asks at a Barbu table), or ``moved`` (if any) on one with a move made (which
        it resigns: ``TuiApp.moved_in_play``)."""

        @kb.add(key, filter=sol & playing)
        def _guarded(event: E) -> None:
            screen = tui.solitaire
            if screen is None:
                return
            if tui.daily_in_play():
                tui.confirm(question, getattr(screen, method))
            elif always and not screen.room.over():
                tui.confirm(always, getattr(screen, method))
            elif moved and tui.moved_in_play():
                tui.confirm(moved, getattr(screen, method))
            else:
                getattr(screen, method)()

    daily_guard(
        "n",
        "new_deal",
        "This is the day's deal and one game a day counts: a new deal resigns it. Deal a new game instead?",
        moved="This game is not finished: deal a new one? It counts as resigned.",
    )
    daily_guard(
        "x",
        "resign",
        "This is the day's deal and one game a day counts: give it up?",
        "Resign this game (after it, n deals a new one)?",
    )

    @kb.add("d", filter=sol & playing)
    def _draw(event: E) -> None:
        if tui.solitaire is not None:
            tui.solitaire.source = None
            tui.solitaire.place("s")
            tui.solitaire.select()

    @kb.add(":", filter=sol & playing)
    def _type_move(event: E) -> None:
        tui.ask("move", "Move: ")

    @kb.add("escape", filter=sol, eager=True)
    def _sol_escape(event: E) -> None:
        if tui.solitaire is not None and tui.solitaire.source is not None:
            tui.solitaire.source = None
            tui.solitaire.message = "Cancelled."
        else:
            tui.leave_for_lobby()

    return kb


#: The named keys a screen may leave unbound, by prompt-toolkit's name, as the help names them
#: (``TuiApp.nothing_here``): Ctrl-H, -I and -M are Backspace, Tab and Enter; Ctrl-C quits everywhere.
KEY_NAMES = {
    **{key: key.title() for key in ("up", "down", "left", "right", "home", "end", "insert", "delete")},
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "c-i": "Tab",
    "s-tab": "Shift-Tab",
    "c-m": "Enter",
    "escape": "Esc",
    "c-h": "Backspace",
    **{f"f{n}": f"F{n}" for n in range(2, 13)},
    **{f"c-{letter}": f"Ctrl-{letter.upper()}" for letter in "abdefgjklnopqrstuvwxyz"},
}


def key_name(event: KeyPressEvent) -> str:
    """The key that made ``event`` as the help names it: ``z``, ``Space``, ``Enter``, ``F5``."""
    key = event.key_sequence[0].key
    value = key.value if isinstance(key, Keys) else key
    return KEY_NAMES.get(value) or ("Space" if value == " " else value)


#: The keys that, pressed while the end-of-hand summary is up, put it away and do their own job too (chat,
#: the lobby, the score sheet, the other game, help: none decides anything; a decision key, Enter or Space,
#: a card, only puts the summary away).
OWN_JOB_KEYS = frozenset({"c", "l", "s", "t", "?"})


def daily_kept(daily: str) -> str:
    """What quitting does to the unfinished day's deal of ``daily`` (a game's title)."""
    return f"The day's deal of {daily} is kept: it waits for you."


def quit_question(
    held: bool, local: bool, waiting: bool = False, grace: float | None = None, daily: str = ""
) -> str:
    """The question ``q`` asks: a seat held at a server is played by a bot meanwhile, or, before the match
    starts (``waiting``), kept for the table's ``grace`` seconds (None: not known) and then freed; a local
    game's server stops with the client, so nothing plays until it is run again; the unfinished day's deal
    of ``daily`` (a game's title; empty: none shows) waits for the player, as leaving it by Esc says (said
    in a local game too: ``daily_kept``)."""
    kept = f" {daily_kept(daily)}" if daily else ""
    if local:
        return f"Quit barbu? The game is kept: it goes on from here when you run it again.{kept}"
    if daily:
        return f"Quit barbu?{kept}"
    if not held:
        return "Quit barbu?"
    if waiting:
        if grace is None:
            return "Quit barbu? Your seat is kept for a while (the server's grace period), then freed."
        return f"Quit barbu? Your seat is kept for {duration(grace)} while you are away, then freed."
    return "Quit barbu? Your seat is kept: a bot plays it until you come back."

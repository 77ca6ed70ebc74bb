"""The help screen (``?`` or F1): the keys of every screen, then the rules of Barbu as ``docs/rules/barbu.md``
says them, read from it (``client/tui/rules_text.py``: the one source the browser's Rules panel shows too),
a page a section and one per contract. Left/Right (or PgUp/PgDn) turn the pages. Each solitaire's rules card shows in the games list beside the game.

Every page fits the 80x24 screen less its status, notice and key-hint lines: at most ``PAGE_LINES`` lines of
at most 80 columns."""

from __future__ import annotations

from client.columns import wrap
from client.tui.rules_text import rules_text_pages
from client.tui.solitaire_words import move_example
from engine.solitaire import GAMES

#: The lines a help page may take on an 80x24 terminal (less the status, notice and key-hint lines).
PAGE_LINES = 21

_KEYS_TOP = """\
barbu play - keys                                       (Esc, ? or F1 to close)
Everywhere   ? F1 help (Left/Right: the rules)   Ctrl-C or q quit   l lobby
"""
_SWITCH = """\
             t switch between your table and your solitaire room
"""
_LOBBY = """\
Lobby        Up/Down choose a table   Enter sit (first free seat)   w watch
             Shift+N E S W sit in that seat   s standings of finished matches
             b add a bot to the first empty seat   f fill empty seats with bots
             n new table (name, variants, turn timer)   o solitaire   r refresh
Games list   Enter the day's deal   r a random deal   w a winnable deal
             :  options and seed (draw=3 seed=12 winnable=true)
             Enter on a solitaire room: play yours, or watch
"""
_BARBU = """\
Barbu table  Left/Right choose a card   Enter play it   :  type a card (qs, 10h)
             Contract: Up/Down, Enter (Trumps asks the suit, Dominoes the rank),
             Esc back.  Doubles: Up/Down, Space ticks a player, Enter sends
             (none ticked: no double)  p pass (Dominoes)  b/f bot(s)  r rematch
             s sheet  c chat (PgUp/PgDn)  x seat to a bot  k remove a player
"""
_WATCHING = """\
Watching     s sheet   c chat (PgUp/PgDn)   x stop watching   w the next match
             Only the players play: no card, contract, double or seat keys.
"""
_MARKS = """\
             Marks: D dealer, * declarer, turn in colour, Nt tricks taken,
             ▸ the trick's leader; bright cards are playable, dim ones are not.
"""
_SOLITAIRE = """\
Solitaire    Arrows move between piles   Enter/Space pick the source, then the
             target (Enter twice: to a foundation / remove a King)   Esc cancel
             d or Enter on the stock: turn it   f to foundation   a auto-moves
             u undo   r redo   h hint   n new deal   x resign   :  type a move
"""
#: The keys page.
HELP = _KEYS_TOP + _SWITCH + _LOBBY + _BARBU + _MARKS + _SOLITAIRE
#: The keys page opened at a table watched by one who plays no game here: no key that plays or changes
#: the game (a card, a contract, a double, a bot, another game by ``t``).
WATCHER_HELP = _KEYS_TOP + _LOBBY + _WATCHING + _MARKS + _SOLITAIRE

#: The help pages in order: the keys first, then the rules, from docs/rules/barbu.md itself (rules_text.py).
PAGES = [HELP, *rules_text_pages(PAGE_LINES)]


#: The solitaire keys, on the page of a solitaire game's card (``example``: a move of the game, ``move_example``).
SOLITAIRE_KEYS = """\
Keys   arrows or Tab move between piles   Enter/Space pick the source, then the
       target (Enter twice: to a foundation / remove a King)   Esc cancel
       d or Enter on the stock: turn it   f to foundation   a safe auto-moves
       u undo  r redo  h hint (not on the day's deal)  : type a move ({example})
       n new deal   x resign (asks first)   l lobby   t your Barbu table
"""


def solitaire_page(game: str) -> str:
    """The help page of solitaire ``game``: its rules card (as the games list shows it) and the keys."""
    info = GAMES[game]
    head = f"{info.title} - the rules".ljust(61) + "(Left/Right: pages)"
    card = wrap(" ".join(info.rules.split()), 78)[: PAGE_LINES - 8]
    return "\n".join([head, "", *card, ""]) + "\n" + SOLITAIRE_KEYS.format(example=move_example(game))


def pages(game: str | None = None, watching: bool = False) -> list[str]:
    """The help pages: with ``game`` (opened from its solitaire room) its card and keys first; ``watching``
    (opened at a table watched, no game of one's own): the watcher's keys (``WATCHER_HELP``) first."""
    if game is not None:
        return [solitaire_page(game), *PAGES]
    return [WATCHER_HELP, *PAGES[1:]] if watching else PAGES


def help_page(index: int, game: str | None = None, watching: bool = False) -> str:
    """Help page ``index``, taken round the pages both ways (-1 is the last); ``game``, ``watching``: see
    ``pages``."""
    shown = pages(game, watching)
    return shown[index % len(shown)]


def help_hints(index: int, game: str | None = None) -> str:
    """The key-hint line of the help screen: how to turn the pages, and which page this is."""
    shown = pages(game)
    page = f"{index % len(shown) + 1}/{len(shown)}"
    if game is not None:
        return f"page {page}  ←→ or PgUp/PgDn: {GAMES[game].title}, the keys, Barbu's rules  Esc"
    return f"page {page}  ←→ or PgUp/PgDn: keys, the match, contracts, doubling, settling  Esc"

"""The help screen (``?`` or F1): the keys of every screen, then the rules of Barbu, a page each: one per
contract, doubling, and settlement with its worked example (``docs/rules/barbu.md``). Left/Right (or
PgUp/PgDn) turn the pages. Each solitaire's rules card shows in the games list beside the game.

Every page fits the 80x24 screen less its status, notice and key-hint lines: at most ``PAGE_LINES`` lines of
at most 80 columns."""

from __future__ import annotations

from client.columns import wrap
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

MATCH = """\
Barbu - the match                                            (Left/Right: pages)
Four players, each for themselves; one 52-card deck, Aces high.

28 hands. A player drawn at random is the declarer for 7 hands in a row, then
the player on their left for the next 7, and so on: each player declares 7
hands and plays each of the seven contracts exactly once as declarer.

Each hand: 13 cards each; the declarer chooses a contract they have left, and
leads the first trick (in Dominoes, plays first). Then the others may double
(next pages), and the hand is played.

Tricks (all contracts but Dominoes): follow the suit led if you can, otherwise
play any card (in Trumps: a trump if you can). The highest card of the suit
led wins the trick, or in Trumps the highest trump; the winner leads next.

The five negative contracts total -130 and the two positive ones +130: with no
doubles, every declarer's seven hands add up to zero over the four players.
After 28 hands the highest total wins; equal totals share the place.
"""

CONTRACT_PAGES = [
    """\
No Tricks                                                    (Left/Right: pages)
Every trick you take costs 2 points: -2 a trick, -26 in all.

Any card may be led. Follow suit if you can.
All 13 tricks are played.
""",
    """\
No Queens                                                    (Left/Right: pages)
Every queen in the tricks you take costs 6 points: -6 a queen, -24 in all.

Any card may be led. Follow suit if you can.
The hand ends when the trick holding the fourth queen is complete (playing on
would change no score).
""",
    """\
No Last Two                                                  (Left/Right: pages)
The 12th trick costs its winner 10 points and the 13th (the last) 20: -30 in
all.

Any card may be led. Follow suit if you can.
All 13 tricks are always played.
""",
    """\
No Hearts                                                    (Left/Right: pages)
Every heart in your tricks costs 2 points, and the Ace of hearts 6: -30 in all.

Hearts may not be led unless the leader holds nothing but hearts (a table's
heart-lead variant may say instead: not until a heart has been discarded,
or hearts led freely).
The hand ends once all 13 hearts have been taken.
""",
    """\
Barbu (the King of hearts)                                   (Left/Right: pages)
The trick holding the King of hearts (the Barbu) costs its winner 20 points.

The King of hearts may not be led unless it is the leader's only card.
Follow suit if you can: when you cannot, discarding K♥ is a fine way to give
it away.
The hand ends as soon as the King of hearts has been taken.
""",
    """\
Trumps                                                       (Left/Right: pages)
Every trick is worth +5 to its winner: +65 in all.

The declarer names the trump suit (♠ ♥ ♣ ♦) with the contract.
Follow suit if you can; if you cannot, you must play a trump if you have one;
only without a trump may you discard any card. The highest trump in a trick
wins it, else the highest card of the suit led.
(A table's trump-duty variant may say: follow only; or overtrump - beat the
trumps already played when you can.)
Doubles in Trumps: only the declarer may be doubled.
""",
    """\
Dominoes (Fan Tan)                                           (Left/Right: pages)
The first player out of cards scores +45, the second +20, the third +5, the
last -5 (+65 in all; a table's variant may set other scores).

The declarer names a starting rank (say 6) and plays first; then each player in
turn (clockwise) plays one card. A suit's row is opened by its card of the
starting rank (6♠); then the row grows one rank at a time, up towards the Ace
(7♠, 8♠ ...) and down towards the 2 (5♠, 4♠ ...).
If you have a card that fits, you must play one; if none fits, you pass (Enter
or p). The hand ends when the third player goes out.
Doubles in Dominoes: only the declarer may be doubled.
""",
]

DOUBLING = """\
Doubling                                                     (Left/Right: pages)
A double is a side bet between two players on who scores better this hand.

1. After the contract, each player from the declarer's left round to the one on
   the declarer's right doubles any of the other players (or nobody). In Trumps
   and Dominoes only the declarer may be doubled. The declarer doubles nobody.
2. Then every player who was doubled, from the declarer's left and ending with
   the declarer, may redouble players who doubled them. Two players who doubled
   each other count as redoubled already: neither may redouble the other.
3. Must double: during one declarer's 7 hands each other player must double the
   declarer at least twice. With k doubles still owed and only k hands of that
   declarer left, you must double the declarer now (the dialog ticks it).

On the table: "doubles W<NE!" says N and E doubled W, and ! marks a redoubled
pair (or two who doubled each other); the log says "E doubled you", "You
redoubled W" and who declined to redouble.
"""

SETTLEMENT = """\
Settlement                                                   (Left/Right: pages)
After each hand, every pair of players with a double between them settles:
the one with the better contract score gains the difference and the other
loses it; twice the difference if the pair is redoubled. Pairs with no double
settle nothing. A hand's result = contract score + all your settlements.

Worked example - No Tricks, N declares.
  Contract scores: N -8, E -6, S -10, W -2.
  E doubled N and N redoubled E; W doubled S.
  N/E: difference 2, redoubled (stakes x2): E +4, N -4.
  S/W: difference 8: W +8, S -8.
  Hand results: N -8-4 = -12, E -6+4 = -2, S -10-8 = -18, W -2+8 = +6
  (they add up to -26, as No Tricks does: settlements are zero-sum).

The end-of-hand summary shows each settlement and every hand's result; the
score sheet (s) keeps them all.
"""

#: The help pages in order: the keys first, then the rules.
PAGES = [HELP, MATCH, *CONTRACT_PAGES, DOUBLING, SETTLEMENT]


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

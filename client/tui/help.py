"""The help screen: every key of every screen (``?`` or F1)."""

from __future__ import annotations

HELP = """\
barbu play - keys                                       (Esc, ? or F1 to close)
Everywhere   ? F1 help    Ctrl-C or q quit    l lobby    t back to your table
Lobby        Up/Down choose a table   Enter sit (first free seat)   w watch
             Shift+N E S W sit in that seat
             b add a bot to the first empty seat   f fill empty seats with bots
             n new table (name, then rule variants)   o solitaire   r refresh
Games list   Enter the day's deal   r a random deal   :  options and seed
             (draw=3 seed=12)   Enter on a solitaire room: play yours, or watch
Barbu table  Left/Right choose a card   Enter play it   :  type a card (qs, 10h)
             Contract: Up/Down, Enter (Trumps asks the suit, Dominoes the rank),
             Esc back.  Doubles: Up/Down, Space ticks a player, Enter sends
             (nobody ticked = no double).  p pass in Dominoes.   b add a bot
             s score sheet (Up/Down scroll)   c chat   x leave the seat
             Marks: D dealer, * declarer, turn in colour, Nt tricks taken,
             bright cards are playable, dim ones are not.
Solitaire    Arrows move between piles   Enter/Space pick the source, then the
             target (Enter twice: to a foundation / remove a King)   Esc cancel
             d or Enter on the stock: turn it   f to foundation   a auto-moves
             u undo   r redo   h hint   n new deal   x resign   :  type a move
"""

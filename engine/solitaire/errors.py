"""The errors the solitaire engine raises: an illegal move, and a bad game setup or record.

Both subclass ``ValueError`` so a caller that only wants "bad input" can catch that.
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules forbid, or text that is not a move; the game is left unchanged.

    Attributes:
        move: the move text as given, e.g. ``"t3>t5"``.
        rule: the rule broken, in words, e.g. ``"9H does not go on TH: columns build down on a different
            suit"`` (the rules are those of ``docs/rules/solitaire.md``).
        code: the rule's short id, one of :data:`RULE_CODES` (``column-build`` for the example above): what
            a program tests, as Barbu's ``IllegalAction.code``.
        index: the 0-based index of the move in a record's ``moves`` when raised while reading a record,
            else ``None``.
    """

    def __init__(self, move: str, rule: str, index: int | None = None, *, code: str = "not-a-move") -> None:
        if code not in RULE_CODES:
            raise ValueError(f"unknown solitaire rule code {code!r}")
        self.move = move
        self.rule = rule
        self.code = code
        self.index = index
        where = f"moves[{index}] " if index is not None else ""
        super().__init__(f"{where}{move}: {rule}")


#: The short ids of the solitaire rules a move can break (``IllegalMove.code``; the ``rule`` of a protocol
#: ``illegal`` error in a solitaire room, ``docs/protocol.md``).
RULE_CODES = frozenset(
    {
        "not-a-move",  # the text is not a move of the notation
        "no-such-pile",  # a pile the game does not have
        "empty-pile",  # taking from an empty pile (stock, waste, column, foundation)
        "no-redeal",  # the stock is used up and no redeal is left
        "stock-face-down",  # Pyramid: the stock's top is turned before it is played
        "stock-turn",  # the stock is turned several at a time: play the waste top
        "already-removed",  # Pyramid: that card is gone
        "covered",  # Pyramid: a covered card is not exposed
        "pair-needed",  # Pyramid: only a King is removed alone
        "king-alone",  # Pyramid: a King never pairs
        "turn-king-first",  # Pyramid: a King on the stock is turned before it is removed
        "not-thirteen",  # Pyramid: a pair must total 13
        "own-pile",  # a card moved onto its own pile, or paired with itself
        "one-card",  # only one card moves in that way
        "not-face-up",  # fewer face-up cards than the run asked for
        "not-a-run",  # the cards asked for are not a run
        "too-many-cards",  # more cards than the free columns allow to move at once
        "wrong-target",  # nothing goes to the stock, the waste is filled only by turning the stock
        "foundation-stays",  # a foundation card goes back only to a column, and only where allowed
        "foundation-build",  # foundations build up in suit from the Ace
        "column-build",  # the column's building rule
        "empty-stays-empty",  # an emptied column stays empty
        "king-to-empty",  # an empty column takes a King only
        "nothing-to-undo",
        "nothing-to-redo",
        "no-safe-move",  # auto: no safe move to the foundations
    }
)


class RecordError(ValueError):
    """A ``solitaire/1`` record, a game name, an option or a deck that is malformed.

    Attributes:
        field: the field at fault as written in the record, e.g. ``"deck[3]"``, ``"options.draw"``.
        reason: what is wrong with it, in words.
    """

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")

"""The errors the solitaire engine raises: an illegal move, and a bad game setup or record.

Both subclass ``ValueError`` so a caller that only wants "bad input" can catch that.
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules forbid, or text that is not a move; the game is left unchanged.

    Attributes:
        move: the move text as given, e.g. ``"t3>t5"``.
        rule: the rule broken, in words, e.g. ``"9H does not go on TH: columns build down on a different
            suit"`` (the rules are those of ``shared/rules/solitaire.md``).
        index: the 0-based index of the move in a record's ``moves`` when raised while reading a record,
            else ``None``.
    """

    def __init__(self, move: str, rule: str, index: int | None = None) -> None:
        self.move = move
        self.rule = rule
        self.index = index
        where = f"moves[{index}] " if index is not None else ""
        super().__init__(f"{where}{move}: {rule}")


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

"""The server's refusal of a Barbu action in the player's words, from its ``illegal.rule`` (the complete list is
in ``docs/protocol.md``, "Error codes"): "must follow suit ♦", "hearts may not be led", "you do not hold 7♣".
A rule this client does not know shows the server's own message."""

from __future__ import annotations

from typing import Any

from client.sheet import SUIT_SYMBOLS
from client.tui.cards import card_label
from client.tui.events import full_sentence


def _led_suit(view: dict[str, Any]) -> str:
    cards = (view.get("trick") or {}).get("cards") or []
    return SUIT_SYMBOLS.get(str(cards[0])[-1], "") if cards else ""


def _hearts_lead(view: dict[str, Any]) -> str:
    """Why a heart may not be led, by the table's ``heart-lead`` variant (``docs/rules/barbu.md``)."""
    if (view.get("variants") or {}).get("heart-lead") == "broken":
        return (
            "Hearts may not be led until a heart has been discarded on a trick of another suit "
            "(or you hold only hearts)."
        )
    return "Hearts may not be led while you hold other suits."


def refusal_text(rule: str | None, message: str, view: dict[str, Any], action: dict[str, Any]) -> str:
    """Why ``action`` was refused, for ``rule`` and the server's ``message``, at the seat's ``view``."""
    card = card_label(str(action.get("card", "")).upper()) if action.get("card") else "that card"
    trump = SUIT_SYMBOLS.get(str(view.get("trump")), "")
    declarer = view.get("declarer")
    texts = {
        "not-in-hand": f"You do not hold {card}.",
        "must-follow-suit": f"You must follow suit {_led_suit(view)}: {card} cannot be played.",
        "must-ruff": f"You cannot follow suit {_led_suit(view)}: you must play a trump {trump}.",
        "must-overtrump": f"You must play a trump {trump} higher than those in the trick.",
        "hearts-lead": _hearts_lead(view),
        "king-of-hearts-lead": "In Barbu K♥ may not be led unless it is your only card: lead another card.",
        "not-playable": f"{card} does not fit a row: play a card next to one, or the opening card.",
        "must-play": "You can play a card, so you may not pass.",
        "must-double": f"You must double the declarer {declarer} this hand (the must-double rule).",
        "double-not-allowed": "In Trumps and Dominoes only the declarer may be doubled.",
        "redouble-not-allowed": "You may redouble only players who doubled you and whom you did not double.",
        "contract-played": "The declarer has played that contract already.",
        "not-your-turn": "It is not your turn.",
        "wrong-phase": "That is not the decision to make now.",
        "hand-over": "The hand is over: wait for the next one.",
        "match-over": "The match is over.",
    }
    return texts.get(rule or "", full_sentence(message))


def typed_card_refusal(text: str, view: dict[str, Any]) -> str:
    """Why the typed card ``text`` (``ks``, ``10h``) cannot be played at the seat's ``view``, named by the rule
    when the view shows it (``trick_rule``): not held, must follow suit, must play a trump (a higher one under
    ``overtrump``), hearts (or in Barbu K♥) may not be led, in Dominoes not next to a row; text that names no
    card is said to be none."""
    card = text.strip().upper().replace("10", "T")
    if len(card) != 2 or card[0] not in "23456789TJQKA" or card[1] not in SUIT_SYMBOLS:
        return f"{text.strip()} is not a card: type e.g. qs or 10h."
    action = {"action": "play", "card": card}
    hand = [str(c) for c in view.get("hand") or []]
    if view.get("seat") is not None and card not in hand:
        return refusal_text("not-in-hand", "", view, action)
    legal = view.get("legal") or []
    only_pass = legal and not any(a.get("action") == "play" for a in legal)
    if view.get("contract") == "dominoes" and view.get("phase") == "play" and only_pass:
        return "No card fits a row: pass (Enter or p)."
    rule = trick_rule(card, view)
    if rule == "must-follow-suit":  # the card is named already: the rule alone
        return refusal_text(rule, "", view, action).split(":")[0] + "."
    if rule is not None:
        return refusal_text(rule, "", view, action)
    return f"{card_label(card)} is not a card you can play now."


def trick_rule(card: str, view: dict[str, Any]) -> str | None:
    """The engine's rule id (``docs/protocol.md``, "Error codes") that keeps the held ``card`` from being
    played now, worked out from the view's legal cards as ``engine/barbu/hand.py`` does; None when the view
    does not show one (not this seat's turn to play, or the card is legal)."""
    legal = [str(a.get("card")) for a in view.get("legal") or [] if a.get("action") == "play"]
    if view.get("phase") != "play" or not legal or card in legal:
        return None
    if view.get("contract") == "dominoes":  # held, but no row takes it now
        return "not-playable"
    led = [str(c) for c in (view.get("trick") or {}).get("cards") or []]
    if not led:
        if card[1] == "H" and not any(c[1] == "H" for c in legal):
            return "hearts-lead"
        return "king-of-hearts-lead" if card == "KH" and view.get("contract") == "barbu" else None
    suit, trump = led[0][-1], str(view.get("trump") or "")
    if any(c[1] == suit for c in legal):  # following: a lower card of a trump led, under overtrump
        return "must-follow-suit" if card[1] != suit else "must-overtrump"
    if trump and all(c[1] == trump for c in legal):  # cannot follow: a trump is due
        duty = str((view.get("variants") or {}).get("trump-duty", "ruff"))
        return "must-overtrump" if duty == "overtrump" and card[1] == trump else "must-ruff"
    return None

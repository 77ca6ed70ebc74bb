"""The client's colours: red and black suits, the cursor, the status line."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style.from_dict(
    {
        "status": "bg:#303060 #ffffff",
        "status.ok": "bg:#207020 #ffffff bold",
        "status.bad": "bg:#a02020 #ffffff bold",
        "status.turn": "bg:#c08000 #000000 bold",
        "keys": "bg:#202020 #a0a0a0",
        "title": "bold",
        "label": "#60a0ff",
        "contract": "#e0c040 bold",
        "red": "#ff4040",
        "black": "#e0e0e0",
        "back": "#808080",
        "bold": "bold",
        "dim": "#707070",
        "playable": "bold underline",
        "cursor": "reverse",
        "selected": "bg:#405080",
        "seat": "",
        "seat.turn": "#000000 bg:#c0c000 bold",
        "mark": "#e0c040 bold",
        "notice": "#a0ffa0",
        "error": "#ff8080 bold",
        "warn": "#ffb040 bold",
        "won": "#60ff60 bold",
        "input": "underline",
    }
)

"""Drive ``barbu play --local`` in a tmux window of 80x24 and save a capture of every screen.

Usage: ``.venv/bin/python benchmarks/tui_screens.py [OUT_DIR]`` (default ``/tmp/barbu-tui-screens``).
Each capture is saved twice: ``NN-name.txt`` (plain text, to read) and ``NN-name.ansi`` (with colours, to
``cat`` in a terminal). The script plays the first hand to its end by pressing Enter only (the first contract
on the menu, the doubles ticked by default, the selected playable card), as a newcomer would, capturing the
finished trick left on the table and the end-of-hand summary; then visits the score sheet, the help and its
rules pages, lobby, new-table form (with the turn timer), solitaire (Forty Thieves, the question before
leaving the day's deal, Pyramid), the lobby listing the solitaire room with its marks explained, ``t`` back to
the table, a long chat message, resizes larger (100x30, 120x40) and one too small, and plays on to a
Dominoes hand. A second run gives the seat to a bot (the question first, then the line saying a bot plays
it), watches the stand-in finish the match with fast bots, and captures the last hand's summary, the
match's end and another match with the same players. The local servers' SQLite files live in
a temporary directory, removed at the end with the tmux session.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SESSION = "barbu-tui-screens"


class Tmux:
    """One detached tmux session running a command at a fixed size."""

    def __init__(self, command: str, width: int = 80, height: int = 24):
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True, check=False)
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", SESSION, "-x", str(width), "-y", str(height), command],
            check=True,
        )

    def keys(self, *keys: str, pause: float = 0.3) -> None:
        """Send tmux key names (``Enter``, ``Down``, ``C-c``) or literal text, then wait."""
        for key in keys:
            subprocess.run(["tmux", "send-keys", "-t", SESSION, key], check=True)
            time.sleep(pause)

    def capture(self, colour: bool = False) -> str:
        """The visible screen."""
        args = ["tmux", "capture-pane", "-p", "-t", SESSION] + (["-e"] if colour else [])
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout

    def resize(self, width: int, height: int) -> None:
        """Resize the window (the application redraws)."""
        subprocess.run(
            ["tmux", "resize-window", "-t", SESSION, "-x", str(width), "-y", str(height)], check=True
        )
        time.sleep(0.6)

    def close(self) -> None:
        """End the session (and the client and its server with it)."""
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True, check=False)


class Shots:
    """Numbered captures in ``folder``."""

    def __init__(self, tmux: Tmux, folder: Path):
        self.tmux, self.folder, self.count = tmux, folder, 0
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.txt"):
            old.unlink()
        for old in folder.glob("*.ansi"):
            old.unlink()

    def take(self, name: str) -> str:
        """Save the screen as ``NN-name``; returns its text."""
        self.count += 1
        stem = self.folder / f"{self.count:02d}-{name}"
        text = self.tmux.capture()
        stem.with_suffix(".txt").write_text(text)
        stem.with_suffix(".ansi").write_text(self.tmux.capture(colour=True))
        return text


def wait_for(tmux: Tmux, words: str, timeout: float = 20.0) -> str:
    """Wait until ``words`` are on the screen; returns the screen."""
    deadline = time.monotonic() + timeout
    while True:
        screen = tmux.capture()
        if words in screen or time.monotonic() > deadline:
            return screen
        time.sleep(0.2)


def play_first_hand(tmux: Tmux, shots: Shots) -> None:
    """Press Enter on every decision of the first hand, capturing each kind of decision once."""
    seen: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        screen = tmux.capture()
        if "Hand 1 scored" in screen or "Hand 2/28" in screen:
            shots.take("hand-summary")
            summary_beside_the_decision(tmux, shots)
            return
        status = screen.splitlines()[0] if screen else ""
        if "YOUR TURN" in status:
            phase = status.split("YOUR TURN (")[1].split(")")[0]
            if phase not in seen:
                seen.add(phase)
                shots.take(f"turn-{phase}")
            tmux.keys("Enter", pause=0.4)
            if phase == "play" and "play-after" not in seen:
                seen.add("play-after")
                time.sleep(0.8)
                shots.take("trick-after-playing")
        elif "trick-won" not in seen and any("won by" in line[:46] for line in screen.splitlines()[2:13]):
            seen.add("trick-won")
            shots.take("trick-won-stays")
        else:
            time.sleep(0.3)


def summary_beside_the_decision(tmux: Tmux, shots: Shots) -> None:
    """The summary stays while hand 2's contract and doubles are decided: capture it beside the player's own
    decision (the contract menu or the doubling dialog) when that comes within a few seconds."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        screen = tmux.capture()
        if "Hand 1 scored" not in screen:
            return
        if "YOUR TURN" in (screen.splitlines() or [""])[0]:
            shots.take("summary-beside-the-decision")
            return
        time.sleep(0.3)


def play_to_dominoes(tmux: Tmux, shots: Shots) -> None:
    """Pick Dominoes (the last contract on the menu) when it is the player's choice, else play on with Enter
    until a declarer picks it; capture the layout a few moves in."""
    deadline = time.monotonic() + 180
    moves_seen = 0
    while time.monotonic() < deadline:
        screen = tmux.capture()
        status = screen.splitlines()[0] if screen else ""
        if "Dominoes" in screen.splitlines()[1] and "chooses" not in screen.splitlines()[1]:
            moves_seen += 1
            if moves_seen == 6:
                shots.take("dominoes")
                return
        if "YOUR TURN (contract)" in status and "Dominoes" in screen:
            tmux.keys("Up", "Enter")
            shots.take("dominoes-rank")
            tmux.keys("Enter")
            continue
        if "YOUR TURN" in status:
            tmux.keys("Enter", pause=0.4)
        else:
            time.sleep(0.3)


def match_end(data: str, shots: Shots) -> None:
    """A second local game with fast bots: give the seat to a bot, watch the stand-in finish the match,
    capture its end, then ask for another match with the same players."""
    barbu = ROOT / ".venv" / "bin" / "barbu"
    command = f"{barbu} play --local --name newcomer --db {data}/fast.sqlite3 --bot-delay 0.005"
    tmux = Tmux(command)
    shots.tmux = tmux
    try:
        wait_for(tmux, "Hand 1/28")  # the match has started: every seat is taken
        tmux.keys("x")
        wait_for(tmux, "Give your seat to a bot?")
        shots.take("give-seat-question")
        tmux.keys("y", pause=1.0)  # the lobby: the stand-in plays on
        wait_for(tmux, "A bot now plays seat S")
        shots.take("seat-given-to-a-bot")
        wait_for(tmux, "hand 28/28", timeout=600)
        tmux.keys("w", pause=1.0)  # watch the last hand (a finished table nobody is at leaves the lobby)
        if "Hand 28 scored" in wait_for(tmux, "Hand 28 scored", timeout=120):
            shots.take("last-hand-summary")  # the last hand's summary first, until a key
            tmux.keys("Space", pause=0.5)
        wait_for(tmux, "the final ranking", timeout=120)
        shots.take("match-end")
        tmux.keys("r", pause=1.5)
        wait_for(tmux, "seat S")
        shots.take("another-match")
        tmux.keys("C-c", pause=1.0)
    finally:
        tmux.close()


def main(argv: list[str]) -> int:
    """Run the tour and save the captures; returns the exit status."""
    if shutil.which("tmux") is None:
        print("tmux is not installed", file=sys.stderr)
        return 1
    folder = Path(argv[0]) if argv else Path(tempfile.gettempdir()) / "barbu-tui-screens"
    with tempfile.TemporaryDirectory() as data:
        barbu = ROOT / ".venv" / "bin" / "barbu"
        command = f"{barbu} play --local --name newcomer --db {data}/local.sqlite3 --bot-delay 0.15"
        tmux = Tmux(command)
        try:
            shots = Shots(tmux, folder)
            wait_for(tmux, "seat S")
            time.sleep(1.0)
            shots.take("table-start")
            play_first_hand(tmux, shots)
            tmux.keys("s")
            shots.take("score-sheet")
            tmux.keys("Escape", "?")
            shots.take("help")
            tmux.keys("Right")
            shots.take("help-the-match")
            tmux.keys("Left", "Left")
            shots.take("help-settlement")
            tmux.keys("Escape", "l", pause=0.8)
            shots.take("lobby")
            tmux.keys("n")
            shots.take("new-table-name")
            tmux.keys("Enter", "Down", "Right", "Down", "Right", "Up", "Up", "Up", "Right", "Right")
            shots.take("new-table-form")
            tmux.keys("Escape", "o")
            shots.take("solitaire-games")
            tmux.keys("Enter")
            shots.take("forty-thieves")
            tmux.keys("h")
            shots.take("forty-thieves-hint")
            tmux.keys("Enter")
            shots.take("forty-thieves-source")
            tmux.keys("d", "d", "u")
            shots.take("forty-thieves-undo")
            tmux.keys(":", "t1>t1", "Enter", pause=0.8)
            shots.take("solitaire-refusal-in-words")
            tmux.keys("Escape")
            wait_for(tmux, "Leave the day's deal")  # a lone Escape is read after a short wait
            shots.take("daily-leave-question")
            tmux.keys("y", "o", *["Down"] * 9, "Enter")
            wait_for(tmux, "Open anyway?")
            shots.take("daily-open-another-question")
            tmux.keys("y", pause=0.8)
            shots.take("pyramid")
            tmux.keys("l")
            wait_for(tmux, "Leave the day's deal")  # asked from the moment it is opened
            tmux.keys("y", pause=0.8)
            shots.take("lobby-with-solitaire-room")
            tmux.keys("t", "t", pause=0.6)  # t: back to the pyramid, then to the table
            tmux.keys("c")
            tmux.keys("A long message to read whole: " + "the chat panel wraps it and never cuts it, " * 4)
            tmux.keys("Enter", pause=0.8)
            shots.take("chat-long-message")
            tmux.resize(100, 30)
            shots.take("resized-100x30")
            tmux.resize(120, 40)
            shots.take("resized-120x40")
            tmux.resize(70, 20)
            shots.take("too-small-70x20")
            tmux.resize(80, 24)
            shots.take("table-again")
            tmux.keys("q")
            shots.take("quit-question")
            tmux.keys("n")
            play_to_dominoes(tmux, shots)
            tmux.keys("C-c", pause=1.0)
            tmux.close()
            match_end(data, shots)
        finally:
            tmux.close()
    print(f"{shots.count} screens saved in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

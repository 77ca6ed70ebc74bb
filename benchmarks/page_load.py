"""The browser client's load over a slow phone network, a git revision beside the working tree: time to a
usable login (the login form's name field visible and enabled), bytes over the wire and requests to the
server (the WebSocket not counted), for a first load with an empty cache and for a reload.

Chromium (Debian's, under Playwright) emulates the network through its DevTools protocol
(``Network.emulateNetworkConditions``: a round trip's latency, download and upload throughput). Two real
servers run side by side on loopback ports: ``barbu serve`` from the working tree, and from ``--before``
(default ``main``) exported with ``git archive`` to a temporary folder and run there with its own
``PYTHONPATH``. Each run opens a fresh browser context (an empty cache); the figures are medians over
``--runs``.

    .venv/bin/python benchmarks/page_load.py [--before REV] [--runs 3] [--latency-ms 150] [--mbps 1.6]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: find tests.browser
from tests.browser import MISSING, chromium_found, launch

ROOT = Path(__file__).resolve().parent.parent
#: The packages a server runs from (``git archive`` exports only these).
PACKAGES = ("cli", "client", "engine", "protocol", "server", "web")
#: The longest a server may take to start, and a page to show its login form (seconds).
START_WITHIN = 30.0
LOAD_WITHIN = 60.0


@dataclass
class Load:
    """One load's figures: ``seconds`` to a usable login, ``bytes`` received (headers and bodies, as
    encoded on the wire), ``requests`` that went to the server (not the WebSocket; not served from the
    browser's cache)."""

    seconds: float
    bytes: int
    requests: int


class Server:
    """``barbu serve`` on a free loopback port, run from the folder ``root`` (its packages first on the
    path), with a store in ``store``."""

    def __init__(self, root: Path, store: Path):
        env = dict(os.environ, PYTHONPATH=str(root))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--db", str(store)],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.url = ""
        deadline = time.monotonic() + START_WITHIN
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "listening on ws://" in line:
                ws = line.split("listening on ")[1].split()[0]
                self.url = "http://" + ws.removeprefix("ws://").rstrip("/") + "/"
                break
            if time.monotonic() > deadline:
                break
        if not self.url:
            self.stop()
            raise SystemExit(f"the server in {root} did not start")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def export(revision: str, into: Path) -> Path:
    """The server's packages at git ``revision`` written under ``into`` (``git archive``: no worktree left
    behind)."""
    tree = subprocess.run(
        ["git", "archive", revision, *PACKAGES], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tree)) as archive:
        archive.extractall(into, filter="data")
    return into


async def _loads(browser: Browser, url: str, latency_ms: float, mbps: float) -> tuple[Load, Load]:
    """A first load of ``url`` in a fresh context and a reload, under the emulated network."""
    context = await browser.new_context()
    try:
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        rate = mbps * 1_000_000 / 8  # bytes per second
        await cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": latency_ms, "downloadThroughput": rate, "uploadThroughput": rate},
        )
        received = [0]
        sent: set[str] = set()
        cached: set[str] = set()

        def finished(event: dict[str, Any]) -> None:
            received[0] += int(event["encodedDataLength"])

        def response(event: dict[str, Any]) -> None:
            answer = event["response"]
            if answer.get("fromDiskCache") or answer.get("fromPrefetchCache"):
                cached.add(event["requestId"])

        cdp.on("Network.requestWillBeSent", lambda event: sent.add(event["requestId"]))
        cdp.on("Network.requestServedFromCache", lambda event: cached.add(event["requestId"]))
        cdp.on("Network.responseReceived", response)
        cdp.on("Network.loadingFinished", finished)

        async def one(action: Any) -> Load:
            received[0] = 0
            sent.clear()
            cached.clear()
            start = time.perf_counter()
            await action()
            await page.wait_for_selector("#login-name:enabled", state="visible", timeout=LOAD_WITHIN * 1000)
            seconds = time.perf_counter() - start
            await page.wait_for_load_state("load")  # late requests (the favicon) counted too
            await asyncio.sleep(0.5)
            return Load(seconds, received[0], len(sent - cached))

        first = await one(lambda: page.goto(url, wait_until="commit"))
        again = await one(lambda: page.reload(wait_until="commit"))
        return first, again
    finally:
        await context.close()


def _median(loads: list[Load]) -> Load:
    return Load(
        statistics.median(load.seconds for load in loads),
        int(statistics.median(load.bytes for load in loads)),
        int(statistics.median(load.requests for load in loads)),
    )


async def measure(servers: dict[str, str], runs: int, latency_ms: float, mbps: float) -> None:
    """Print the table: per server (label: URL) and load, the medians over ``runs``."""
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            figures: dict[str, tuple[list[Load], list[Load]]] = {label: ([], []) for label in servers}
            for _ in range(runs):  # interleaved, so a slow moment of the machine falls on both
                for label, url in servers.items():
                    first, again = await _loads(browser, url, latency_ms, mbps)
                    figures[label][0].append(first)
                    figures[label][1].append(again)
        finally:
            await browser.close()
    print(f"page load at {latency_ms:g} ms RTT, {mbps:g} Mbit/s down and up; medians of {runs} runs")
    print(f"{'server':<24} {'load':<7} {'to login':>9} {'received':>10} {'requests':>9}")
    for label, (firsts, agains) in figures.items():
        for name, loads in (("first", firsts), ("reload", agains)):
            load = _median(loads)
            print(
                f"{label:<24} {name:<7} {load.seconds:>8.2f}s {load.bytes / 1000:>8.1f}KB {load.requests:>9}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", default="main", help="the git revision to compare with (default main)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latency-ms", type=float, default=150.0)
    parser.add_argument("--mbps", type=float, default=1.6)
    args = parser.parse_args()
    if not chromium_found():
        raise SystemExit(MISSING)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        before = Server(export(args.before, work / "before"), work / "before.sqlite3")
        after = Server(ROOT, work / "after.sqlite3")
        try:
            servers = {f"before ({args.before})": before.url, "after (working tree)": after.url}
            asyncio.run(measure(servers, args.runs, args.latency_ms, args.mbps))
        finally:
            before.stop()
            after.stop()


if __name__ == "__main__":
    main()

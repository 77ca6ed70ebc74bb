"""``barbu serve`` in a child process, as an operator runs it: ``Serve`` starts one that stays up (killed
with SIGKILL as a crash would), ``serve_exits`` one expected to refuse its store and exit."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Serve:
    """``barbu serve`` in a child process on a free loopback port; its output is kept in ``lines``."""

    def __init__(self, db: Path, *flags: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--db", str(db), *flags],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._listening = threading.Event()
        self.url = ""
        threading.Thread(target=self._drain, daemon=True).start()
        if not self._listening.wait(30):
            self.kill()
            raise AssertionError("the server did not start:\n" + "".join(self.lines))

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if "listening on ws://" in line:
                self.url = line.split("listening on ")[1].split()[0]
                self._listening.set()

    def limit_file_size(self, size: int | None) -> None:
        """Lower the server's file-size limit to ``size`` bytes (None: no limit), as ``prlimit --fsize``."""
        _, hard = resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(
            self.proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY if size is None else size, hard)
        )

    def kill(self) -> None:
        """kill -9, as a crash or a power cut would stop it."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def serve_exits(db: Path, *flags: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``barbu serve --port 0 --db DB FLAGS`` expected to exit at start (a store it refuses): its exit
    status, stdout and stderr. A server that starts instead is stopped (SIGTERM) once ``timeout`` seconds
    have passed, and the test sees its exit status 0 and its listening line."""
    argv = [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--db", str(db), *flags]
    with subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()
            out, err = proc.communicate()
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)

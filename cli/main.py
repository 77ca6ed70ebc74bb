"""The ``barbu`` command: one argparse parser, a sub-command per module.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its sub-commands and sets
``func`` (``(argparse.Namespace) -> int``, the exit status) as the parser default. Modules are imported only
here, so ``barbu replay`` does not pay for importing the server.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMAND_MODULES = (
    "cli.replay",
    "cli.selfplay",
    "cli.solitaire",
    "cli.play",
    "cli.serve",
    "cli.bot",
    "cli.store",
)


def build_parser() -> argparse.ArgumentParser:
    """The full ``barbu`` parser with every sub-command registered."""
    parser = argparse.ArgumentParser(prog="barbu", description="Barbu and solitaire: rules, server, clients.")
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version and which search kernels run, and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


class _Version(argparse.Action):
    """``--version``: the package's version and the search kernels' path (compiled or pure Python)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import version

        from engine.barbu.search.kernels import PATH

        print(f"barbu {version('barbu')} (kernels: {PATH})")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``barbu`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `barbu matches | head`: the reader has what it wanted
        _silence_stdout()
        return 0
    except OSError as exc:
        if exc.filename is not None:
            raise  # a file's error is the command's to say; reaching here is a bug worth its traceback
        _silence_stdout()  # the output itself failed (a full disk, /dev/full): say so once
        print(f"barbu: cannot write the output ({exc.strerror or exc})", file=sys.stderr)
        return 1
    return status


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush at exit does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())

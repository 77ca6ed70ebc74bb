"""The rules documents travel with an installed package: the build (setup.py's build_py) copies
docs/rules/*.md into the built ``web`` package, and the server built so reads its rules pages from that
copy, with no repository beside it (a wheel, a non-editable install)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READ = (
    "import web; from server.rules_pages import rules_pages, rules_source; "
    "print(web.__file__); print(len(rules_pages())); print(rules_source('barbu'), end='')"
)


def test_the_built_package_carries_and_serves_the_rules(tmp_path: Path) -> None:
    built = tmp_path / "lib"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(built)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    for name in ("barbu.md", "solitaire.md"):
        copied = built / "web" / "rules" / name
        assert copied.read_bytes() == (ROOT / "docs" / "rules" / name).read_bytes(), name
    assert not (built / "docs").exists()  # nothing to fall back on: the copy is what is read
    read = subprocess.run(
        [sys.executable, "-c", READ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(built)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    where, pages, source = read.split("\n", 2)
    assert Path(where).is_relative_to(built) and pages == "2"
    assert source == (ROOT / "docs" / "rules" / "barbu.md").read_text(encoding="utf-8")

"""The repository carries its own documents: every relative link in README.md and docs/ names a file inside
the repository that exists, and no text points outside it to the founders' ``shared/`` folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "deploy" / "README.md"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(text: str) -> list[str]:
    """The link targets of markdown ``text`` that are not web addresses or in-page anchors."""
    targets = [match.group(1) for match in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_the_rules_and_formats_are_in_the_repository() -> None:
    for name in ("docs/rules/barbu.md", "docs/rules/solitaire.md", "docs/formats.md"):
        assert (ROOT / name).is_file(), name


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_stay_inside_the_repository(document: Path) -> None:
    links = relative_links(document.read_text(encoding="utf-8"))
    for link in links:
        target = (document.parent / link.split("#", 1)[0]).resolve()
        assert target.is_relative_to(ROOT), f"{document.name}: {link} leaves the repository"
        assert target.exists(), f"{document.name}: {link} does not exist"


def test_readme_links_the_rules_and_formats() -> None:
    links = relative_links((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"docs/rules/barbu.md", "docs/rules/solitaire.md", "docs/formats.md"} <= set(links)


def test_nothing_points_to_the_shared_folder_outside_the_repository() -> None:
    offenders = []
    for folder in ("engine", "protocol", "server", "client", "cli", "tests", "benchmarks", "docs"):
        for path in (ROOT / folder).rglob("*"):
            mine = path.suffix in {".py", ".md"} and path.name != "test_docs.py"
            if mine and "shared/" in path.read_text(encoding="utf-8"):
                offenders.append(str(path.relative_to(ROOT)))
    if "shared/" in (ROOT / "README.md").read_text(encoding="utf-8"):
        offenders.append("README.md")
    assert offenders == []


def test_the_link_finder_sees_links_that_leave() -> None:
    assert relative_links("see [rules](../shared/rules/) and [web](https://x.org) [a](#top)") == [
        "../shared/rules/"
    ]

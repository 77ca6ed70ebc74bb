"""The repository carries its own documents: every relative link in README.md and docs/ names a file inside
the repository that exists, and no text points outside it to the founders' ``shared/`` folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.barbu.rules import DOMINOES_SCORES, HEART_LEAD, ROTATION, TRUMP_DUTY, Variants

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


#: A path cited in plain text (in backquotes or not) that may lead outside: ``../shared/...``, ``seeds/...``, or
#: one of the founders' seed file names (``004_7f1738be926924b1.txt``).
CITED = re.compile(r"(?:\.\./)*(?:shared|seeds)/[\w./-]*|\b\d{3}_[0-9a-f]{16}\.txt\b")


def cited_paths(text: str) -> list[str]:
    """The paths of ``shared/`` folders, ``seeds/`` files and seed file names that ``text`` cites."""
    return [m.group(0).rstrip(".") for m in CITED.finditer(text)]


def test_the_citation_finder_sees_plain_text_paths() -> None:
    text = "kept outside, `004_7f1738be926924b1.txt`; see ../shared/rules/ and [k](seeds/barbu.km.txt)."
    assert cited_paths(text) == ["004_7f1738be926924b1.txt", "../shared/rules/", "seeds/barbu.km.txt"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_plain_text_citations_stay_inside_the_repository(document: Path) -> None:
    for cited in cited_paths(document.read_text(encoding="utf-8")):
        target = (document.parent / cited).resolve()
        assert target.is_relative_to(ROOT), f"{document.name}: {cited} leaves the repository"
        assert target.exists(), f"{document.name}: {cited} is not in the repository"


def test_the_seed_documents_are_in_the_repository() -> None:
    for name in ("barbu", "forty-thieves", "pyramid", "bakers-dozen"):
        assert (ROOT / "docs" / "rules" / "seeds" / f"{name}.km.txt").stat().st_size > 1000, name


def test_the_protocol_names_every_variant_value_and_its_default() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = " ".join(text.split("## Variants", 1)[1].split("\n## ", 1)[0].split())
    default = Variants()
    values = {
        "heart-lead": (default.heart_lead, HEART_LEAD),
        "trump-duty": (default.trump_duty, TRUMP_DUTY),
        "dominoes-scores": (default.dominoes_scores, tuple(DOMINOES_SCORES)),
        "rotation": (default.rotation, ROTATION),
    }
    for key, (first, allowed) in values.items():
        listed = section.split(f"`{key}` (", 1)[1].split(")", 1)[0]
        assert all(f"`{value}`" in listed for value in allowed), (key, listed)
        assert listed.startswith(f"`{first}`"), (key, "the default first")


#: The longest line docs/client.md may have: it is read raw in a terminal as often as rendered.
CLIENT_DOC_COLUMNS = 110


def test_the_client_document_reads_in_a_terminal() -> None:
    """docs/client.md has no table of long cells (each screen's keys are a list under its own heading) and no
    line wider than ``CLIENT_DOC_COLUMNS``."""
    lines = (ROOT / "docs" / "client.md").read_text(encoding="utf-8").splitlines()
    wide = [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) > CLIENT_DOC_COLUMNS]
    assert wide == []
    for heading in ("Everywhere", "Lobby", "Solitaire games", "New table", "Barbu table", "Solitaire"):
        assert f"### {heading}" in lines, heading

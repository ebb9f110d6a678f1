"""The documents in docs/: what the code and the tests cite there exists, and links resolve.

The § numbers of docs/rules.md are cited all over the tests and docstrings; a renumbered or dropped
section would leave those citations leading nowhere, as the old links outside the repository did.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CITING = sorted([*ROOT.joinpath("tests").glob("*.py"), *ROOT.joinpath("musbot").rglob("*.py"),
                 *ROOT.joinpath("musbot").rglob("*.sql")])
SECTION = re.compile(r"^## §(\d+)\. ", re.MULTILINE)
CITATION = re.compile(r"§(\d+)(?:\.(\d+))?")


def rules_sections() -> dict[int, str]:
    """Each ``## §N.`` section of docs/rules.md and its text, up to the next heading."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    found: dict[int, str] = {}
    for part in parts:
        match = re.match(r"§(\d+)\. ", part)
        if match:
            found[int(match.group(1))] = part
    return found


def test_rules_keep_the_sections_one_to_nine_in_order() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert [int(n) for n in SECTION.findall(text)] == list(range(1, 10))


def test_every_section_cited_in_code_and_tests_exists() -> None:
    """``§N`` and ``§N.k`` (rule k of §N's numbered list) anywhere in tests/ and musbot/."""
    sections = rules_sections()
    missing: list[str] = []
    cited = 0
    for path in CITING:
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            cited += 1
            number, rule = int(match.group(1)), match.group(2)
            body = sections.get(number)
            if body is None or (rule and not re.search(rf"^{rule}\. ", body, re.MULTILINE)):
                missing.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert cited > 100  # the pattern still finds the citations
    assert missing == []


def test_no_reference_to_the_documents_outside_the_repository() -> None:
    old = re.compile(r"\b(?:RULES|REPLAY)\\?\.md|\.\./shared/")
    me = Path(__file__).resolve()
    stale = [str(p.relative_to(ROOT)) for p in [*CITING, ROOT / "README.md", *DOCS.glob("*.md")]
             if p != me and old.search(p.read_text(encoding="utf-8"))]
    assert stale == []


@pytest.mark.parametrize("doc", ["README.md", "docs/rules.md", "docs/replay.md"])
def test_relative_links_resolve(doc: str) -> None:
    path = ROOT / doc
    if not path.exists():
        pytest.fail(f"{doc} is missing")
    links = re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8"))
    local = [link.split("#")[0] for link in links if "://" not in link and link.split("#")[0]]
    assert [link for link in local if not (path.parent / link).exists()] == []

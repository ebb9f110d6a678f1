"""The documents in docs/ and README.md: what the code and the tests cite there exists, and what
they link to and name (files, modules) exists.

The § numbers of docs/rules.md are cited all over the tests and docstrings; a renumbered or dropped
section would leave those citations leading nowhere, as the old links outside the repository did.
"""

from __future__ import annotations

import importlib
import importlib.util
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


DOCUMENTS = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
NAMED_PATH = re.compile(r"(?<![\w/.-])((?:musbot|cogs|tests|tools|deploy|docs)/[\w./-]*[\w/])")
"""A file or folder of the repository named in a document: `musbot/i18n/locale/`,
`tests/test_hostile.py`, `deploy/musbot.service`."""
NAMED_MODULE = re.compile(r"(?<![\w./-])(musbot(?:\.[A-Za-z_]\w*)+)")
"""A module named dotted, maybe with an attribute: `musbot.runtime`, `musbot.engine.Rules`."""
FILE_NAMES = frozenset({"db", "dump", "pot", "po", "json", "md", "py", "service", "toml"})
"""Last parts that make a dotted name a file's (musbot.db, musbot.pot), not a module's."""


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces
    as hyphens."""
    headings = re.findall(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path) -> None:
    """Every relative link of README.md and docs/: its file, and its anchor in that file."""
    broken = []
    for link in LINK.findall(doc.read_text(encoding="utf-8")):
        if "://" in link or link.startswith("mailto:"):
            continue
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        if not (path.exists() and (not anchor or path.suffix != ".md"
                                   or anchor in anchors(path))):
            broken.append(link)
    assert broken == []


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_path_and_module_named_exists(doc: Path) -> None:
    """Issue 46: docs/replay.md named musbot/i18n/es.py, gone since the catalogues became
    gettext's; docs/glossary.md a docs/rules.fr.md that never was."""
    text = doc.read_text(encoding="utf-8")
    missing = [name for name in NAMED_PATH.findall(text) if not (ROOT / name).exists()]
    for name in NAMED_MODULE.findall(text):
        if name.rsplit(".", 1)[1] in FILE_NAMES:
            continue
        parts = name.split(".")
        found = next((i for i in range(len(parts), 1, -1)
                      if importlib.util.find_spec(".".join(parts[:i])) is not None), None)
        if found is None or not _has(".".join(parts[:found]), parts[found:]):
            missing.append(name)
    assert missing == []


def _has(module: str, attributes: list[str]) -> bool:
    value: object = importlib.import_module(module)
    for name in attributes:
        if not hasattr(value, name):
            return False
        value = getattr(value, name)
    return True


def test_the_named_paths_are_found() -> None:
    """The patterns still see what the documents name."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "musbot/engine/" in NAMED_PATH.findall(readme)
    assert "musbot.engine.Rules" in NAMED_MODULE.findall((DOCS / "rules.md").read_text())
    assert "variants-at-a-glance" in anchors(DOCS / "rules.md")

"""tools/po_from_dicts.py: a branch that still adds sentences to the old dict catalogues merges
mechanically into the gettext catalogues (issue 25)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import po_from_dicts  # noqa: E402


def entries(path: Path) -> dict[str | None, object]:
    with path.open("rb") as handle:
        return {m.context: m for m in read_po(handle) if m.id}


@pytest.fixture
def locale(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "musbot" / "i18n" / "locale", tmp_path / "locale")
    return tmp_path / "locale"


def block(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_block_becomes_entries_with_its_plural_and_empty_translations(
        tmp_path: Path, locale: Path) -> None:
    es = block(tmp_path, "es.py", 'TABLE.update({"coach_tip": "Consejo: {tip}",\n'
               '"cards_one": "{n} carta", "cards_other": "{n} cartas"})\n')
    en = block(tmp_path, "en.py", 'TABLE.update({"coach_tip": "Tip: {tip}",\n'
               '"cards_one": "{n} card", "cards_other": "{n} cards"})\n')
    assert po_from_dicts.main(["--es", str(es), "--en", str(en), "--out", str(locale)]) == 0
    template, english, french = (entries(locale / name)
                                 for name in ("musbot.pot", "en.po", "fr.po"))
    assert template["TABLE.cards_n"].id == ("{n} carta", "{n} cartas")  # type: ignore[attr-defined]
    assert english["TABLE.cards_n"].string == ("{n} card", "{n} cards")  # type: ignore[attr-defined]
    assert english["TABLE.coach_tip"].string == "Tip: {tip}"  # type: ignore[attr-defined]
    assert french["TABLE.coach_tip"].string == ""  # type: ignore[attr-defined]
    assert "plural: n" in french["TABLE.cards_n"].auto_comments  # type: ignore[attr-defined]


def test_a_key_missing_in_english_is_refused_and_nothing_is_written(
        tmp_path: Path, locale: Path) -> None:
    before = (locale / "musbot.pot").read_bytes()
    es = block(tmp_path, "es.py", 'SERVER.update({"x": "equis"})\n')
    en = block(tmp_path, "en.py", "SERVER.update({})\n")
    assert po_from_dicts.main(["--es", str(es), "--en", str(en), "--out", str(locale)]) == 2
    assert (locale / "musbot.pot").read_bytes() == before


def test_keys_already_moved_are_left_alone(tmp_path: Path, locale: Path) -> None:
    es = block(tmp_path, "es.py", 'TABLE = {"mus": "{name}: mus.", "timeout_set": "x"}\n')
    en = block(tmp_path, "en.py", 'TABLE = {"mus": "{name}: mus.", "timeout_set": "x"}\n')
    before = {name: (locale / name).read_bytes() for name in ("musbot.pot", "eu.po")}
    assert po_from_dicts.main(["--es", str(es), "--en", str(en), "--out", str(locale)]) == 0
    assert {name: (locale / name).read_bytes() for name in before} == before

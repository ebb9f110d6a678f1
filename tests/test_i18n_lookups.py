"""One catalogue lookup (issue 45, item 5): :func:`musbot.i18n.translate`, and a handle per
audience (:class:`musbot.i18n.Texts`: ``TABLE``, ``DISCORD``, ``SERVER``, ``CLI``…) that words
through it. No other module looks a sentence up on its own: a ``say`` of its own would be a
lookup with its own fallback and its own way with plurals, as four of them once were."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import musbot.i18n as i18n
from musbot.i18n import (
    CLI,
    COACH,
    LANCE_NAME,
    REPLAY,
    SCORE_KIND,
    TABLE,
    TXAPELKETA,
    Texts,
    catalog,
    translate,
)

ROOT = Path(__file__).resolve().parent.parent
LOOKUPS = frozenset({"translate", "catalog", "compiled"})
""":mod:`musbot.i18n`'s own ways into the catalogues: the handles use them, nothing else does."""
I18N = "musbot.i18n"


def module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def own_lookups(path: Path, root: Path = ROOT) -> list[str]:
    """Where a module outside :mod:`musbot.i18n` reads the catalogues itself: a name of
    :data:`LOOKUPS` imported from it (or reached as ``i18n.translate``) and used, or a
    :class:`~musbot.i18n.Texts` handle of its own."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module_of(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join([*base, source] if source else base)
            for alias in node.names:
                if source == I18N and alias.name in LOOKUPS | {"Texts"}:
                    names.add(alias.asname or alias.name)
                elif f"{source}.{alias.name}" == I18N:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(alias.asname for alias in node.names
                           if alias.name == I18N and alias.asname)
    rel = path.relative_to(root).as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            found.append(f"{rel}:{node.lineno} {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in LOOKUPS | {"Texts"}:
            owner = ast.unparse(node.value)
            if owner in modules or owner == I18N:
                found.append(f"{rel}:{node.lineno} {owner}.{node.attr}")
    return found


def breaches(root: Path = ROOT) -> list[str]:
    return [where for folder in ("musbot", "cogs", "tools")
            for path in sorted((root / folder).rglob("*.py"))
            if not module_of(path, root).startswith(I18N)
            for where in own_lookups(path, root)]


def test_only_the_i18n_package_looks_a_sentence_up() -> None:
    assert breaches() == []


@pytest.mark.parametrize("source", [
    "from musbot.i18n import translate\n\ndef say(key, lang):\n"
    "    return translate(f'COACH.{key}', lang)\n",
    "from musbot.i18n import catalog as cat\n\ndef say(key, lang):\n"
    "    return cat(lang).COACH[key]\n",
    "from musbot import i18n\n\ndef say(key, lang):\n    return i18n.translate(key, lang)\n",
    "import musbot.i18n\n\nSAY = musbot.i18n.translate\n",
    "from ..i18n import catalog\n\nWORDS = catalog('es').WORDS\n",
    "from musbot.i18n import Texts\n\nMINE = Texts('TABLE')\n",
])
def test_a_lookup_of_its_own_is_seen(tmp_path: Path, source: str) -> None:
    module = tmp_path / "musbot" / "table" / "mine.py"
    module.parent.mkdir(parents=True)
    module.write_text(source, encoding="utf-8")
    assert len(breaches(tmp_path)) == 1


def test_a_handle_is_not_a_lookup_of_its_own(tmp_path: Path) -> None:
    module = tmp_path / "musbot" / "table" / "mine.py"
    module.parent.mkdir(parents=True)
    module.write_text("from musbot.i18n import TABLE\n\ndef said(lang):\n"
                      "    return TABLE('said_mus', lang)\n", encoding="utf-8")
    assert breaches(tmp_path) == []


def handles() -> list[Texts]:
    return [value for value in vars(i18n).values() if isinstance(value, Texts)]


@pytest.mark.parametrize("handle", handles(), ids=repr)
def test_every_handle_names_a_section_of_the_catalogues(handle: Texts) -> None:
    prefix = f"{handle.section}." if handle.section else ""
    keys = [key for key in catalog("es").entries if key.startswith(prefix)
            and (prefix or "." not in key)]
    assert keys, f"no sentence in section {handle.section!r}"
    for lang in i18n.LANGUAGE_CODES:
        for key in keys:
            assert handle.entry(key.removeprefix(prefix), lang) is catalog(lang).entries[key]


def test_a_handle_words_as_translate_does() -> None:
    """Plural forms by the language's own rule, values by ``str.format``, the template as it is
    without values (a literal brace included)."""
    assert TABLE("tantos_n", "es", n=1) == translate("TABLE.tantos_n", "es", n=1) == "1 tanto"
    assert TABLE("tantos_n", "es", n=2) == "2 tantos"
    assert TABLE("tantos_n", "fr", n=0) == translate("TABLE.tantos_n", "fr", n=0)
    assert TABLE("tantos_n", "fr", n=0) != TABLE("tantos_n", "fr", n=2)
    assert "{{" in REPLAY("rules_type", "es") == translate("REPLAY.rules_type", "es")
    worded = REPLAY("rules_type", "es", found="7")
    assert '{"reyes"' in worded and "{{" not in worded and "no 7" in worded
    assert LANCE_NAME(0, "es") == "Grande" and LANCE_NAME(0, "eu") == "Handia"


def test_a_language_without_the_bot_speaks_spanish() -> None:
    """A language the bot does not have (Discord's ``de``) is answered in Spanish, by every
    handle the same way (the coach's own ``say`` once fell back its own way)."""
    for handle, key in ((COACH, "heading"), (TXAPELKETA, "anonymous"), (CLI, "json")):
        assert handle(key, "de") == handle(key, "es")


def test_get_gives_the_default_for_a_key_the_section_lacks() -> None:
    assert SCORE_KIND.get("paso", "es", "?") == SCORE_KIND("paso", "es")
    assert SCORE_KIND.get("no_such_kind", "es", "no_such_kind") == "no_such_kind"
    assert 7 not in LANCE_NAME and 0 in LANCE_NAME

"""Turns dict catalogues (the i18n format before issue 25) into gettext entries, so that a branch
which still adds ``TABLE.update({...})`` blocks to ``musbot/i18n/es.py`` / ``en.py`` merges
mechanically into ``musbot/i18n/locale/``.

    python tools/po_from_dicts.py --es OLD_es.py --en OLD_en.py

Reads each file (a whole old module, or only the blocks added: ``ERRORS.update({...})``,
``CLI = {...}`` …), and for every key the template (``musbot.pot``, Spanish) does not have yet:
adds it to the template, adds the English sentence to ``en.po``, and adds an *empty* entry to
every other language's ``.po`` (``eu.po``, ``fr.po``), which ``tests/test_i18n.py`` then reports
as missing until a translator fills it. Keys already in the template are left alone (``--update``
replaces their Spanish and English and marks the other languages' entries fuzzy, to be
reviewed). A pair ``x_one`` / ``x_other`` becomes one plural entry ``x_n`` counting ``{n}``.

Each entry: ``msgctxt`` = ``SECTION.key`` (what the code asks for), ``msgid`` = the Spanish
sentence (what translators read), ``msgstr`` = the translation.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "musbot" / "i18n" / "locale"
TEMPLATE = "musbot.pot"
SOURCE_LANGUAGE = "es"
PLURAL_FORMS = {
    # gettext's own table (the GNU gettext manual, "Plural forms"), which Poedit and Weblate use
    # too: French says the singular for 0 («0 point»), Basque and English do not.
    "es": "nplurals=2; plural=(n != 1);",
    "en": "nplurals=2; plural=(n != 1);",
    "eu": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}
PLURAL_COMMENT = "plural: "
"""An extracted comment (``#. plural: n``) naming the parameter whose number picks the form."""
WIDTH = 100
RETIRED = frozenset({"TABLE.timeout_set", "DISCORD.table_footer"})
"""Keys of the old dict catalogues no code used, dropped in the move (issue 25): a whole old
catalogue given again does not bring them back."""


class _Sections(dict[str, Any]):
    """Names used by a block before it defines them (``TABLE.update`` alone) start empty."""

    def __missing__(self, name: str) -> Any:
        self[name] = value = {}
        return value


def read_dicts(path: Path) -> dict[str, Any]:
    """The upper-case names a dict catalogue (or a piece of one) defines."""
    names = _Sections()
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), {}, names)
    return {name: value for name, value in names.items() if name.isupper()}


def flatten(sections: dict[str, Any]) -> dict[str, str | tuple[str, str]]:
    """``SECTION.key`` → sentence; a tuple by position, a single text by its name; a ``_one`` /
    ``_other`` pair as one (singular, plural) named ``_n`` (``tantos`` is another sentence)."""
    flat: dict[str, str | tuple[str, str]] = {}
    for name, value in sections.items():
        if isinstance(value, str):
            flat[name] = value
            continue
        items = enumerate(value) if isinstance(value, tuple) else value.items()
        for key, text in items:
            flat[f"{name}.{key}"] = text
    for context in [c for c in flat if c.endswith("_one")]:
        base = context.removesuffix("_one")
        other = flat.get(base + "_other")
        if isinstance(other, str):
            one = flat.pop(context)
            flat.pop(base + "_other")
            assert isinstance(one, str)
            flat[base + "_n"] = (one, other)
    return flat


def load(path: Path, locale: str | None) -> Catalog:
    if path.exists():
        with path.open("rb") as handle:
            return read_po(handle, locale=locale, abort_invalid=True)
    catalog = Catalog(locale=locale, project="musbot", fuzzy=False)
    if locale is not None:
        catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", PLURAL_FORMS[locale])]
    else:
        catalog.mime_headers = [*catalog.mime_headers,
                                ("Plural-Forms", PLURAL_FORMS[SOURCE_LANGUAGE])]
    return catalog


def save(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=WIDTH, omit_header=False, sort_output=False,
                 include_previous=False)


def _find(catalog: Catalog, context: str) -> Message | None:
    for message in catalog:
        if message.context == context and message.id:
            return message
    return None


def merge(spanish: dict[str, str | tuple[str, str]], english: dict[str, str | tuple[str, str]],
          update: bool, out: Path = LOCALE) -> list[str]:
    """Adds (or with ``update`` replaces) the entries; returns the contexts touched."""
    template = load(out / TEMPLATE, None)
    others = {path.stem: load(path, path.stem) for path in sorted(out.glob("*.po"))}
    others.setdefault("en", load(out / "en.po", "en"))
    touched = []
    for context, text in spanish.items():
        if context in RETIRED:
            continue
        old = _find(template, context)
        if old is not None and (not update or old.id == text):
            continue
        comments = [PLURAL_COMMENT + "n"] if isinstance(text, tuple) else []
        if old is not None:
            template.delete(old.id, context=context)
        template.add(text, context=context, auto_comments=comments)
        for lang, catalog in others.items():
            previous = _find(catalog, context)
            if previous is not None:
                catalog.delete(previous.id, context=context)
            if lang == "en" and context in english:
                string: Any = english[context]
                flags: list[str] = []
            else:
                string = previous.string if previous is not None else (
                    ("", "") if isinstance(text, tuple) else "")
                flags = ["fuzzy"] if previous is not None else []
            catalog.add(text, string, context=context, auto_comments=comments, flags=flags)
        touched.append(context)
    save(template, out / TEMPLATE)
    for lang, catalog in others.items():
        save(catalog, out / f"{lang}.po")
    return touched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--es", type=Path, required=True, help="Spanish dict catalogue (source)")
    parser.add_argument("--en", type=Path, help="English dict catalogue")
    parser.add_argument("--update", action="store_true",
                        help="replace the keys the template has already (others become fuzzy)")
    parser.add_argument("--out", type=Path, default=LOCALE, help="the locale folder")
    args = parser.parse_args(argv)
    spanish = flatten(read_dicts(args.es))
    english = flatten(read_dicts(args.en)) if args.en else {}
    missing = sorted(set(spanish) - set(english)) if args.en else []
    if missing:
        print("not in the English catalogue: " + ", ".join(missing), file=sys.stderr)
        return 2
    touched = merge(spanish, english, args.update, args.out)
    print(f"{len(touched)} entries added or replaced" + (": " if touched else "")
          + ", ".join(touched))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

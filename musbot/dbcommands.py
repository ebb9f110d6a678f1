"""``musbot db check``, ``db migrate``, ``db backup`` and ``db hand``: the administrator's side of
:mod:`musbot.storage.maintenance`, every sentence from the ``CLI`` catalog.

Exit statuses: 0 done; 1 the database is damaged or unavailable, or the backup did not check
out (or could not be made here: no ``pg_dump``); 2 refused: a database that is missing, not
musbot's, or newer than this code, a destination that exists, a mistyped URL, a hand it does
not hold.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from musbot.config import ConfigError, env_file_from, load_config, resolve_db
from musbot.i18n import CLI

if TYPE_CHECKING:
    from musbot.storage.maintenance import Inspection

T = TypeVar("T")
Say = Callable[[str], object]
BACKUP_REFUSALS = {"exists": "backup_exists", "no_folder": "backup_no_folder",
                   "not_writable": "backup_not_writable"}
"""Each :class:`~musbot.storage.maintenance.BackupRefused` key and its sentence."""


def add_arguments(db_sub: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: list[argparse.ArgumentParser]) -> None:
    from musbot.config import add_env_file_option

    def database_option(parser: argparse.ArgumentParser) -> None:
        add_env_file_option(parser, lang)
        parser.add_argument("--db", default=None, metavar="DB", help=CLI("db_option", lang))

    check = db_sub.add_parser("check", parents=parents, help=CLI("db_check", lang),
                              description=CLI("db_check", lang))
    database_option(check)
    check.set_defaults(func=run_check)
    migrate_ = db_sub.add_parser("migrate", parents=parents, help=CLI("db_migrate", lang),
                                 description=CLI("db_migrate", lang))
    database_option(migrate_)
    migrate_.set_defaults(func=run_migrate)
    backup_ = db_sub.add_parser("backup", parents=parents, help=CLI("db_backup", lang),
                                description=CLI("db_backup_description", lang))
    backup_.add_argument("dest", metavar="DEST", help=CLI("db_backup_dest", lang))
    database_option(backup_)
    backup_.set_defaults(func=run_backup)
    hand = db_sub.add_parser("hand", parents=parents, help=CLI("db_hand", lang),
                             description=CLI("db_hand_description", lang))
    hand.add_argument("hand_id", type=_hand_id(lang), metavar="ID",
                      help=CLI("db_hand_id", lang))
    hand.add_argument("--result", action="store_true", help=CLI("db_hand_result", lang))
    database_option(hand)
    hand.set_defaults(func=run_hand)


def _hand_id(lang: str) -> Callable[[str], int]:
    def check(text: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(CLI("positive", lang, value=text))
        return int(text)

    return check


def target_of(args: argparse.Namespace) -> str:
    """``--db`` as given (a relative path from here, as on any command line), else MUSBOT_DB
    resolved as ``musbot run`` resolves it."""
    if args.db is not None:
        return resolve_db(args.db)[0]
    return load_config(env_file_from(args)).db


def _run(args: argparse.Namespace, work: Callable[[str], Coroutine[Any, Any, T]],
         done: Callable[[T], int], say: Say = print) -> int:
    """``work(target)`` with every failure worded as one sentence on standard error."""
    from musbot.storage.errors import (
        CorruptDatabase,
        DatabaseTooNew,
        DatabaseUnavailable,
        ForeignDatabase,
        StorageError,
    )
    from musbot.storage.maintenance import (
        BackupFailed,
        BackupRefused,
        NoPgDump,
        pg_dump_command,
    )
    from musbot.storage.sqlite_file import NoDatabase, NotADatabase

    lang: str = args.idioma

    def refuse(key: str, status: int = 2, **params: object) -> int:
        print(CLI(key, lang, **params), file=sys.stderr)
        return status

    try:
        target = target_of(args)
        result = asyncio.run(work(target))
    except ConfigError as problem:
        print(problem.message(lang), file=sys.stderr)
        return 2
    except NoDatabase as exc:
        from musbot.storage.database import absolute_reading

        meant = absolute_reading(args.db or "")
        if meant is not None:
            return refuse("db_missing_url", where=exc.where, url=meant)
        return refuse("db_missing", where=exc.where)
    except NotADatabase as exc:
        return refuse(exc.key, where=exc.where, detail=exc.detail)
    except BackupRefused as exc:
        return refuse(BACKUP_REFUSALS[exc.key], path=exc.where, detail=exc.detail)
    except BackupFailed as exc:
        return refuse("backup_failed", 1, detail=exc.detail)
    except NoPgDump as exc:
        command = shlex.join(pg_dump_command(exc.url, Path(args.dest)))
        return refuse("backup_no_pg_dump", 1, command=command)
    except DatabaseTooNew as exc:
        return refuse("db_too_new", where=exc.where, found=exc.found, known=exc.known)
    except ForeignDatabase as exc:
        return refuse("db_foreign", where=exc.where)
    except CorruptDatabase as exc:
        return refuse("db_damaged", 1, where=exc.where, detail=exc.detail)
    except DatabaseUnavailable as exc:
        return refuse("db_unavailable", 1, where=exc.where, detail=exc.detail)
    except StorageError as exc:
        return refuse("db_failed", 1, detail=exc)
    return done(result)


def rows_text(rows: dict[str, int]) -> str:
    return ", ".join(f"{table} {count}" for table, count in rows.items())


def report(found: Inspection, lang: str, say: Say = print) -> None:
    from musbot.storage import schema

    say(CLI("check_where", lang, where=found.where))
    if found.integrity is None:
        say(CLI("check_server", lang))
    elif found.sound:
        say(CLI("check_ok", lang))
    else:
        say(CLI("check_bad", lang, detail="; ".join(found.integrity[:5])))
    say(CLI("check_version", lang, found=found.version, known=schema.SCHEMA_VERSION))
    if found.pending:
        say(CLI("check_pending", lang, count=len(found.pending),
                names=", ".join(f"{m.version:04d}_{m.name}" for m in found.pending)))
    elif not found.too_new:
        say(CLI("check_current", lang))
    if found.rows:
        say(CLI("check_rows", lang, rows=rows_text(found.rows)))


def run_check(args: argparse.Namespace, say: Say = print) -> int:
    """0 sound (pending migrations are said, not an error); 1 damaged; 2 too new."""
    from musbot.storage import schema
    from musbot.storage.maintenance import inspect

    lang: str = args.idioma

    def done(found: Inspection) -> int:
        report(found, lang, say)
        if found.too_new:
            print(CLI("db_too_new", lang, where=found.where, found=found.version,
                      known=schema.SCHEMA_VERSION), file=sys.stderr)
            return 2
        return 0 if found.sound else 1

    return _run(args, inspect, done, say)


def run_migrate(args: argparse.Namespace, say: Say = print) -> int:
    from musbot.storage.errors import CorruptDatabase
    from musbot.storage.maintenance import inspect, migrate

    lang: str = args.idioma

    def done(result: tuple[Inspection, Inspection]) -> int:
        before, after = result
        if before.version == after.version:
            say(CLI("migrate_nothing", lang, where=after.where, version=after.version))
        else:
            names = ", ".join(f"{m.version:04d}_{m.name}" for m in before.pending)
            say(CLI("migrate_done", lang, where=after.where, before=before.version,
                    after=after.version, names=names))
        return 0

    async def work(target: str) -> tuple[Inspection, Inspection]:
        found = await inspect(target)  # a damaged one is refused before anything is written
        if not found.sound:
            raise CorruptDatabase(found.where, "; ".join((found.integrity or ())[:3]))
        return await migrate(target)

    return _run(args, work, done, say)


def run_backup(args: argparse.Namespace, say: Say = print) -> int:
    from musbot.storage.maintenance import backup

    lang: str = args.idioma
    where: list[str] = []

    async def work(target: str) -> Any:
        from musbot.storage.database import backend_for

        where.append(backend_for(target).where)
        return await backup(target, Path(args.dest))

    def done(made: Any) -> int:
        key = "backup_done" if made.dialect == "sqlite" else "backup_done_pg"
        say(CLI(key, lang, path=made.path, size=made.bytes, where=where[0],
                version=made.version, rows=sum(made.rows.values()),
                hands=made.rows.get("hands", 0), seconds=f"{made.seconds:.2f}"))
        say(CLI("check_rows", lang, rows=rows_text(made.rows)))
        return 0

    return _run(args, work, done, say)


def run_hand(args: argparse.Namespace, say: Say = print) -> int:
    """A stored hand's transcript (``--result``: its stored outcome), printed as ``musbot
    replay`` prints: so ``musbot db hand ID | musbot replay -`` scores it again, to the same
    lines as ``musbot db hand ID --result``. 2 when the database holds no such hand."""
    from musbot.replay import in_print_order, print_json
    from musbot.storage.database import backend_for
    from musbot.storage.maintenance import StoredHand, stored_hand

    lang: str = args.idioma
    where: list[str] = []

    async def work(target: str) -> StoredHand | None:
        where.append(backend_for(target).where)
        return await stored_hand(target, args.hand_id)

    def done(found: StoredHand | None) -> int:
        if found is None:
            print(CLI("hand_missing", lang, hand=args.hand_id, where=where[0]),
                  file=sys.stderr)
            return 2
        transcript, result = found
        print_json(in_print_order(result if args.result else transcript), sys.stdout, indent=2)
        return 0

    return _run(args, work, done, say)

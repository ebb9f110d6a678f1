"""``musbot play``: Mus in the console, through the very same table, grammar and texts as Discord.

You sit at seat 0 (pair 1) with three bots; your cards and your partner's señas are printed for you
only, exactly as they would reach you by DM. ``--auto --seed N`` lets four bots play a whole match,
reproducibly, printing the public table (showdowns included).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections.abc import Callable
from typing import Any

from musbot.ai import DEFAULT_LEVEL, LEVELS
from musbot.engine import MusError, Rules, secure_shuffle, seeded_shuffler
from musbot.i18n import catalog
from musbot.table import Table, render
from musbot.table.clock import RealClock

YOU = 1
"""The terminal player's user id."""

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


def _tt(key: str, lang: str = "es", **params: Any) -> str:
    cat = catalog(lang)
    table = getattr(cat, "TERMINAL", None) or catalog("es").TERMINAL
    return str(table.get(key) or catalog("es").TERMINAL[key]).format(**params)


class TerminalTransport:
    """Prints what the terminal player may see: every line of the table's pages as it comes,
    and private messages addressed to them. Private messages to anyone else (there is nobody
    else) are dropped."""

    def __init__(self, output: OutputFn = print, lang: str = "es") -> None:
        self.output = output
        self.lang = lang
        self.last_view = ""
        self._printed: tuple[int, int] = (0, 0)
        """(page number, lines of it printed)."""

    def changed(self, table: Table) -> None:
        page_number, done = self._printed
        previous = table.previous
        if previous is not None and previous.number == page_number:
            self._print(previous.lines[done:])  # the end of the hand the new deal turned over
            page_number, done = previous.number + 1, 0
        page = table.page
        if page.number != page_number:
            done = 0
        self._print(page.lines[done:])
        self._printed = (page.number, len(page.lines))

    def _print(self, lines: list[str]) -> None:
        if lines:
            self.output("\n".join(lines))

    async def alert(self, channel_id: int, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        self.output(text)

    async def private(self, channel_id: int, user_id: int, text: str) -> None:
        if user_id == YOU:
            self.output(_tt("private", self.lang, text=text))

    async def reply(self, channel_id: int, user_id: int, text: str) -> None:
        if user_id == YOU:
            self.output(_tt("reply", self.lang, text=text))

    def wants_view(self, channel_id: int, user_id: int) -> bool:
        return user_id == YOU

    async def update_view(self, channel_id: int, user_id: int, text: str) -> None:
        if user_id == YOU:
            self.last_view = text

    def mention(self, user_id: int) -> str:
        return _tt("you", self.lang) if user_id == YOU else str(user_id)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``musbot play`` (the variants of docs/rules.md, and the demo mode)."""
    parser.add_argument("--reyes", type=int, choices=(4, 8), default=8, help="4 u 8 reyes")
    parser.add_argument("--puntos", type=int, default=None, help="tantos por juego (40)")
    parser.add_argument("--juegos", type=int, default=3, help="juegos por vaca")
    parser.add_argument("--vacas", type=int, default=1, help="vacas por partida")
    parser.add_argument("--real", action="store_true", help="la real (7-7-7-sota)")
    parser.add_argument("--corrido", action="store_true", help="mus corrido")
    parser.add_argument("--sin-senas", dest="sin_senas", action="store_true", help="sin señas")
    parser.add_argument("--jugadores", type=int, choices=(2, 4, 6), default=4)
    parser.add_argument("--nivel", choices=sorted(LEVELS), default=DEFAULT_LEVEL,
                        help="nivel de los bots")
    parser.add_argument("--niveles", type=_levels, default=None,
                        help="nivel por asiento, p. ej. facil,normal,dificil,normal "
                             "(en juego interactivo el tuyo se ignora)")
    parser.add_argument("--nombre", default=None, help="tu nombre en la mesa")
    parser.add_argument("--idioma", choices=("es", "en"), default="es")
    parser.add_argument("--auto", action="store_true", help="cuatro bots juegan una partida")
    parser.add_argument("--seed", type=int, default=None,
                        help="semilla: la misma partida cada vez (solo para pruebas)")


def _levels(text: str) -> list[str]:
    """``--niveles``: one level per seat, comma separated."""
    levels = [w.strip().lower() for w in text.split(",") if w.strip()]
    unknown = [w for w in levels if w not in LEVELS]
    if not levels or unknown:
        raise argparse.ArgumentTypeError(
            f"niveles: {', '.join(sorted(LEVELS))} (separados por comas)")
    return levels


async def _seat_bots(table: Table, args: argparse.Namespace) -> None:
    """Seats a bot of the level ``--niveles`` gives each free seat, in seat order."""
    levels = getattr(args, "niveles", None)
    if not levels:
        return
    if len(levels) != table.players:
        raise SystemExit(f"--niveles: {table.players} niveles, uno por asiento")
    for seat, level in enumerate(levels):
        if table.seats[seat] is None:
            await table.add_bot(level=level)


def rules_from_args(args: argparse.Namespace) -> Rules:
    variants: dict[str, Any] = {
        "reyes": args.reyes, "real": args.real, "mus_corrido": args.corrido,
        "senas": not args.sin_senas, "juegos": args.juegos, "vacas": args.vacas,
    }
    if args.puntos is not None:
        variants["puntos"] = args.puntos
    return Rules.for_players(args.jugadores, **variants)


def make_table(args: argparse.Namespace, transport: TerminalTransport) -> Table:
    """A table with no turn timer; seeded shuffling and bots when ``--seed`` is given."""
    rules = rules_from_args(args)
    seed = args.seed
    return Table(
        0, transport, rules=rules, clock=RealClock(),
        rng=random.Random(seed) if seed is not None else random.Random(),
        shuffler=seeded_shuffler(seed) if seed is not None else secure_shuffle,
        first_mano=seed % rules.jugadores if seed is not None else None,
        turn_seconds=None, bot_level=args.nivel, lang=args.idioma, bots_alone=args.auto,
    )


async def play_auto(args: argparse.Namespace, output: OutputFn = print) -> int:
    """Four (or 2, 6) bots play one whole match; 0 when it ends."""
    table = make_table(args, TerminalTransport(output, args.idioma))
    await _seat_bots(table, args)
    await table.start()
    return 0 if table.state == "finished" else 1


async def play_interactive(args: argparse.Namespace, input_fn: InputFn = input,
                           output: OutputFn = print) -> int:
    lang = args.idioma
    transport = TerminalTransport(output, lang)
    table = make_table(args, transport)
    await table.join(YOU, args.nombre or _tt("you", lang), pair=0)
    await _seat_bots(table, args)
    output(_tt("help", lang))
    await table.start(YOU)
    while table.state == "playing":
        _turn_hint(table, output, lang)
        try:
            line = input_fn(_tt("prompt", lang))
        except (EOFError, KeyboardInterrupt):
            break
        await _command(table, line, output, lang)
        if line.strip().lower() in ("salir", "quit", "exit"):
            break
    output(_tt("bye", lang))
    return 0


def _turn_hint(table: Table, output: OutputFn, lang: str) -> None:
    """Says «te toca» with the legal words when the prompt is for a move, as a DM would."""
    seat = table.seat_of(YOU)
    match = table.match
    if seat is None or match is None or match.to_act != seat:
        return
    output(render.t("your_turn", lang, words=render.legal_words(match.view(seat).legal, lang)))


async def _command(table: Table, line: str, output: OutputFn, lang: str) -> None:
    words = line.strip()
    low = words.lower()
    if not words or low in ("salir", "quit", "exit"):
        return
    if low in ("ayuda", "help", "?"):
        output(_tt("help", lang))
    elif low in ("cartas", "ver", "mano", "ver mis cartas"):
        output(_tt("private", lang, text=table.private_text(YOU)))
    elif low in ("mesa", "estado", "status"):
        output(table.status())
    elif low.startswith(("seña", "sena", "senya")):
        name = words.split(maxsplit=1)[1] if " " in words else ""
        try:
            sena = await table.send_sena(YOU, name)
        except MusError as error:
            output(_tt("reply", lang, text=error.message(lang, table.names())))
        else:
            output(_tt("sena_sent", lang, sena=sena.nombre))
    elif not await table.handle_text(YOU, words):
        output(_tt("unknown", lang))


def run_play(args: argparse.Namespace, input_fn: InputFn = input,
             output: OutputFn = print) -> int:
    """Entry point for ``musbot play``; returns the exit status."""
    if args.auto:
        return asyncio.run(play_auto(args, output))
    return asyncio.run(play_interactive(args, input_fn, output))


def parse_play_args(argv: list[str]) -> argparse.Namespace:
    """``musbot play`` options alone, for tests and ``python -m musbot.terminal``."""
    parser = argparse.ArgumentParser(prog="musbot play")
    add_play_arguments(parser)
    return parser.parse_args(argv)


if __name__ == "__main__":
    import sys

    sys.exit(run_play(parse_play_args(sys.argv[1:])))

"""``musbot play``: Mus in the console, through the very same table, grammar and texts as Discord.

You sit in seat 1 (pair 1) with three bots; your cards and your partner's señas are printed for
you only, exactly as they would reach you by DM. ``--auto --seed N`` lets four bots play a whole
match, reproducibly, printing the public table (showdowns included).

Leaving: «salir» or the end of input (status 0); Ctrl-C at once, whatever is going on (status
130, :data:`~musbot.console.INTERRUPTED`); a reader that closes the output (``| head``) stops the
match quietly (status 141, :data:`~musbot.console.READER_GONE`).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Final

from musbot.ai import DEFAULT_LEVEL, LEVELS
from musbot.coach.reviewer import REVIEWER, ReviewRefused
from musbot.console import (
    INTERRUPTED,
    READER_GONE,
    add_language_option,
    cli_language,
    silence_stdout,
    whole,
)
from musbot.engine import Rules, secure_shuffle, seeded_shuffler
from musbot.engine.rules import PLAYER_COUNTS
from musbot.grammar import Request, SendSena, suggest, vocabulary
from musbot.i18n import CLI, COACH, TABLE, TERMINAL, error_text
from musbot.settings import TableSettings
from musbot.table import Table, TableState, render
from musbot.table.clock import RealClock
from musbot.words import (
    REVIEW_WORDS,
)

YOU = 1
"""The terminal player's user id."""

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

MAX_PUNTOS: Final = 1000
"""The engine's bound for a game's target (:class:`~musbot.engine.Rules`)."""


class ReaderGone(BaseException):
    """Standard output was closed by its reader (``musbot play --auto | head``). Not an
    :class:`Exception`: the table's guards against a failing transport (which log it and play
    on) must let it through, so the match stops at once."""


class Screen:
    """Where the terminal prints: turns a closed output into :class:`ReaderGone` and, between
    two prompts (:meth:`ask`), remembers the lines printed, so that a hint already on screen
    («Te toca hablar», inside your cards) is not printed again."""

    def __init__(self, output: OutputFn = print) -> None:
        self.output = output
        self.since_prompt: set[str] | None = None
        """None until the first prompt: a match of bots asks nothing and keeps nothing."""

    def __call__(self, text: str) -> None:
        try:
            self.output(text)
        except BrokenPipeError:
            raise ReaderGone from None
        if self.since_prompt is not None:
            self.since_prompt.update(text.split("\n"))

    def shown(self, line: str) -> bool:
        return self.since_prompt is not None and line in self.since_prompt

    def forget(self) -> None:
        """From here on, remember the lines printed until the next prompt."""
        self.since_prompt = set()

    def ask(self, input_fn: InputFn, prompt: str) -> str:
        self.forget()
        return input_fn(prompt)


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
        previous = table.state.pages.previous
        if previous is not None and previous.number == page_number:
            self._print(previous.lines[done:])  # the end of the hand the new deal turned over
            page_number, done = previous.number + 1, 0
        page = table.state.page
        if page.number != page_number:
            done = 0
            if page.hand_number == 1:
                # A match begins («¡Empieza la partida!»): then the table at a glance.
                done = sum(1 for position, _ in page.notes if position == 0)
                self._print(page.lines[:done])
                self.output(table.status())
        self._print(page.lines[done:])
        self._printed = (page.number, len(page.lines))

    def _print(self, lines: list[str]) -> None:
        if lines:
            self.output("\n".join(lines))

    async def alert(self, table: Table, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        self.output(text)

    async def private(self, table: Table, user_id: int, text: str, *,
                      cards: bool = False) -> None:
        if user_id == YOU:
            self.output(TERMINAL("private", self.lang, text=text))

    def private_changed(self, table: Table, user_id: int) -> None:
        if user_id == YOU:
            self.last_view = table.private_text(user_id)

    async def discard_round(self, table: Table, user_id: int, text: str) -> None:
        """Nothing: the terminal player discards by typing, with their cards on screen."""

    def mention(self, user_id: int) -> str:
        return TERMINAL("you", self.lang) if user_id == YOU else str(user_id)


def add_play_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    """The options of ``musbot play`` (the variants of docs/rules.md, and the demo mode)."""
    lang = lang or cli_language([])

    def text(key: str) -> str:
        return CLI(key, lang)

    parser.add_argument("--reyes", type=int, choices=(4, 8), default=8, help=text("reyes"))
    parser.add_argument("--puntos", type=whole(lang, 1, MAX_PUNTOS), default=None, metavar="N",
                        help=text("puntos"))
    parser.add_argument("--juegos", type=whole(lang), default=3, metavar="N",
                        help=text("juegos"))
    parser.add_argument("--vacas", type=whole(lang), default=1, metavar="N",
                        help=text("vacas"))
    parser.add_argument("--real", action="store_true", help=text("real"))
    parser.add_argument("--corrido", action="store_true", help=text("corrido"))
    parser.add_argument("--sin-senas", dest="sin_senas", action="store_true",
                        help=text("sin_senas"))
    parser.add_argument("--jugadores", type=int, choices=PLAYER_COUNTS, default=4,
                        help=text("jugadores"))
    parser.add_argument("--nivel", choices=sorted(LEVELS), default=DEFAULT_LEVEL,
                        help=text("nivel"))
    parser.add_argument("--niveles", type=_levels(lang), default=None,
                        metavar=text("levels_metavar"), help=text("niveles"))
    parser.add_argument("--nombre", default=None, metavar=text("name"), help=text("nombre"))
    parser.add_argument("--auto", action="store_true", help=text("auto"))
    parser.add_argument("--seed", type=int, default=None, metavar="N", help=text("seed"))


def _levels(lang: str) -> Callable[[str], list[str]]:
    """``--niveles``: one level per seat, comma separated."""

    def levels(text: str) -> list[str]:
        chosen = [w.strip().lower() for w in text.split(",") if w.strip()]
        if not chosen or any(w not in LEVELS for w in chosen):
            raise argparse.ArgumentTypeError(
                CLI("levels_list", lang, levels=", ".join(sorted(LEVELS))))
        return chosen

    return levels


async def _seat_bots(table: Table, args: argparse.Namespace) -> None:
    """Seats a bot of the level ``--niveles`` gives each free seat, in seat order (checked
    against the number of seats by :func:`run_play`)."""
    for seat, level in enumerate(getattr(args, "niveles", None) or ()):
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
    settings = TableSettings(rules=rules, language=args.idioma, turn_seconds=None,
                             bot_level=args.nivel)
    state = TableState(
        0, settings, bots_alone=args.auto,
        rng=random.Random(seed) if seed is not None else random.Random(),
        shuffler=seeded_shuffler(seed) if seed is not None else secure_shuffle,
        first_mano=seed % rules.jugadores if seed is not None else None)
    return Table(state, transport, clock=RealClock())


def help_text(lang: str) -> str:
    """``ayuda``: every move in every word the grammar reads (from its own tables, see
    :func:`musbot.grammar.vocabulary`), the reader's own first, then the other requests in
    the reader's words (``WORDS``)."""
    lines = [TERMINAL("help_moves", lang)]
    for words, others in vocabulary(render.shown(lang)):
        item = (TERMINAL("help_item", lang, words=words, others=", ".join(others)) if others
                else words)
        lines.append("  " + item)
    word = functools.partial(render.typed_word, lang=lang)
    lines += [TERMINAL("help_discard", lang), TERMINAL("help_amounts", lang),
              TERMINAL("help_other", lang, cards=word("cards"), status=word("status"),
                       sena=word("sena"), help=word("help"), quit=word("quit"))]
    return "\n".join(lines)


async def play_auto(args: argparse.Namespace, output: OutputFn = print) -> int:
    """Four (or 2, 6) bots play one whole match; 0 when it ends."""
    table = make_table(args, TerminalTransport(output, args.idioma))
    await _seat_bots(table, args)
    await table.start()
    return 0 if table.lifecycle == "finished" else 1


async def play_interactive(args: argparse.Namespace, input_fn: InputFn = input,
                           output: OutputFn = print) -> int:
    """You against the bots until the match ends, «salir» or the end of input (then 0)."""
    lang = args.idioma
    screen = output if isinstance(output, Screen) else Screen(output)
    table = make_table(args, TerminalTransport(screen, lang))
    await table.join(YOU, args.nombre or TERMINAL("you", lang), pair=0)
    await _seat_bots(table, args)
    screen(help_text(lang))
    screen.forget()
    await table.start(YOU)
    hands = _hands_over(table)
    while table.lifecycle == "playing":
        _turn_hint(table, screen, lang)
        try:
            line = screen.ask(input_fn, TERMINAL("prompt", lang))
        except EOFError:
            break
        if not await _command(table, line, screen, lang):
            break
        if _hands_over(table) > hands:
            hands = _hands_over(table)
            screen(COACH("terminal_offer", lang, number=hands))
    screen(TERMINAL("bye", lang))
    return 0


def _turn_hint(table: Table, screen: Screen, lang: str) -> None:
    """Says «te toca» with the legal words when the prompt is for a move, as a DM would; not
    when it is on screen already since the last prompt (in your cards, on your turn)."""
    seat = table.seat_of(YOU)
    match = table.match
    if seat is None or match is None or match.to_act != seat:
        return
    hint = TABLE("your_turn", lang, words=render.legal_words(match.view(seat).legal, lang))
    if not screen.shown(hint):
        screen(hint)


def _hands_over(table: Table) -> int:
    """Hands of the match finished so far."""
    match = table.match
    if match is None:
        return 0
    return match.hand_number if match.finished else match.hand_number - 1


async def _review(table: Table, words: str, output: OutputFn, lang: str) -> None:
    """«repaso [N]»: «¿Cómo jugué?» for your seat in hand N (the last finished one)."""
    _, _, rest = words.partition(" ")
    number = int(rest) if rest.strip().isdigit() else None
    try:
        output(await table.review(YOU, number))
    except ReviewRefused as refused:
        output(refused.text(lang))


async def _command(table: Table, line: str, output: OutputFn, lang: str) -> bool:
    """One line typed at the prompt, read by the one grammar as a DM would be (and «ayuda»,
    «mesa», «salir», «repaso», which only the terminal answers); False to leave."""
    words = line.strip()
    if not words:
        return True
    if words.split()[0].lower() in REVIEW_WORDS:
        await _review(table, words, output, lang)
        return True
    outcome = await table.typed(YOU, words)
    command = outcome.command
    if outcome.error is not None:
        # An error naming a card says something of a hand: said as privately as a DM.
        form = "private" if "card" in outcome.error.params else "reply"
        output(TERMINAL(form, lang, text=error_text(outcome.error, lang, table.names())))
    elif command == Request("quit"):
        return False
    elif command == Request("help"):
        output(help_text(lang))
    elif command == Request("status"):
        output(table.status())
    elif command == Request("cards") and outcome.text is not None:
        output(TERMINAL("private", lang, text=outcome.text))
    elif isinstance(command, SendSena):
        output(TERMINAL("sena_sent", lang, sena=render.sena_name(command.sena, lang)))
    elif command is None:
        output(_not_a_move(table, words, lang))
    return True


def _not_a_move(table: Table, words: str, lang: str) -> str:
    """«No es una jugada», with the move it looks like when there is one (``envdo``)."""
    seat = table.seat_of(YOU)
    hand = table.match.view(seat).cards if table.match is not None and seat is not None else None
    guess = suggest(words, hand, render.shown(lang))
    return TERMINAL("unknown_suggest", lang, words=guess) if guess else TERMINAL("unknown", lang)


def run_play(args: argparse.Namespace, input_fn: InputFn = input,
             output: OutputFn = print) -> int:
    """Entry point for ``musbot play``; returns the exit status (see the module docstring)."""
    lang = getattr(args, "idioma", None) or cli_language()
    args.idioma = lang
    levels = getattr(args, "niveles", None)
    if levels and len(levels) != args.jugadores:
        print(CLI("levels_count", lang, count=args.jugadores), file=sys.stderr)
        return 2
    screen = Screen(output)
    game = play_auto(args, screen) if args.auto else play_interactive(args, input_fn, screen)
    try:
        try:
            status = _run(game)
            sys.stdout.flush()  # a reader gone while the last lines were buffered: caught here
            return status
        except KeyboardInterrupt:
            with _ctrl_c_ignored():
                screen(TERMINAL("bye", lang))
                sys.stdout.flush()
            return INTERRUPTED
    except (ReaderGone, BrokenPipeError):
        silence_stdout()
        return READER_GONE
    finally:
        REVIEWER.close()  # the review's worker process, if «repaso» started one


def _run(game: Coroutine[Any, Any, int]) -> int:
    """Plays ``game`` on an event loop of its own rather than with :func:`asyncio.run`, whose
    first Ctrl-C only cancels the main task: neither a blocking ``input()`` nor a match of bots
    (which never waits on anything) would notice it until later. Here Ctrl-C is the plain
    :class:`KeyboardInterrupt` it is outside asyncio, wherever it lands."""
    loop = asyncio.new_event_loop()
    task = loop.create_task(game)
    try:
        return loop.run_until_complete(task)
    finally:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: asyncio must not report it again at exit
        pending = asyncio.all_tasks(loop)
        for other in pending:
            other.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """While saying goodbye after a Ctrl-C, a second one must not cut it with a traceback."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nobody there gets SIGINT anyway
        previous = None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def parse_play_args(argv: list[str]) -> argparse.Namespace:
    """``musbot play`` options alone, for tests and ``python -m musbot.terminal``; the language
    is :func:`~musbot.console.cli_language`'s, as for ``musbot play``."""
    lang = cli_language(argv)
    parser = argparse.ArgumentParser(prog="musbot play")
    add_language_option(parser, lang)
    add_play_arguments(parser, lang)
    args = parser.parse_args(argv)
    args.idioma = getattr(args, "idioma", None) or lang
    return args


if __name__ == "__main__":
    sys.exit(run_play(parse_play_args(sys.argv[1:])))

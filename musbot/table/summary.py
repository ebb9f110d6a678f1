"""A finished hand in about ten lines (issue 43), as a Mus player reads a table once the cards
are down: how the mus went, each lance's result once, the hands shown in order, the score once,
and the game, vaca or match the hand won.

    Mus: 2 descartes; no hay mus (Ana)
    Grande: querido a 5 → Pareja 1 +5
    Chica: querido a 6 → Pareja 2 +6
    Pares: querido a 2 → Pareja 1 +6 (2 envite + 4 por tener)
    Juego: sin envite → Pareja 2 +2
    Pareja 1 — Ana: 3🪙=12 3🗡️=12 4🪙 4🗡️ · Carlos: 6🍷 5🪙 5🪵 1🗡️
    Pareja 2 — Bea: 3🪵=12 11🗡️ 11🪵 4🍷 · Dani (mano): 12🍷 10🍷 4🪵 2🗡️=1
    Pareja 1: 11 (2 amarracos y 1) · Pareja 2: 8 (1 amarraco y 3)

Pure, like :mod:`~musbot.table.render` (whose words it reuses): public events in, lines out.
A lance's tantos are the sum of its ``Scored`` steps (docs/rules.md §5), so the figures are the
engine's, never worked out again; a lance played but not scored because the game ended before
it (§5: nothing after the winning step counts) says so. Cards are sorted as for the Grande (§3),
and with 8 reyes a 3 shows ``=12`` and a 2 ``=1`` (§1), as the showdown's picture marks them
(:mod:`musbot.pictures.table`). The games and vacas shown are those after the hand (§6): once a
vaca is won its games start again at 0–0, so the line says the vacas, not the games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from musbot.engine import ActionKind, Lance, Rules
from musbot.engine import events as ev
from musbot.engine.cards import SUITS, Card, rank, suit
from musbot.engine.evaluation import rank_class
from musbot.i18n import SCORE_KIND, TABLE
from musbot.words import columns, visible_name

from .render import card_text, count, lance_name, name_of, pair_label

MAX_LINES: Final = 10
"""At most this many lines, whatever the hand (nine at most in fact: see :func:`hand_summary`)."""
MAX_CHARS: Final = 650
"""Characters (code points, newlines included) with :func:`~musbot.table.render.card_text`:
names are shortened until the summary fits."""
MIN_NAME: Final = 3
"""Names are never shortened below this many columns (the ellipsis included)."""

_COUNTS_AS: Final = {3: 12, 2: 1}
"""With 8 reyes (§1): a 3 is a rey, a 2 an as."""


@dataclass(slots=True)
class LanceSummary:
    """One lance of a finished hand, as its line says it."""

    lance: Lance
    outcome: str
    """As :class:`~musbot.engine.events.LanceEnded` says it (``paso``, ``querido``, ``deje``,
    ``ordago``), or ``sin_apuesta`` (only one side holds pares/juego) or ``nadie`` (nobody
    does), as :class:`~musbot.engine.events.LanceWithoutBetting` says it (§3)."""
    bet: int = 0
    """The accepted bet (``querido``)."""
    ordago_refused: bool = False
    """A deje of an órdago (§4.5)."""
    team: int | None = None
    """The side that took the lance: the one its ``Scored`` steps went to, else the deje's, the
    only side holding, or the best hand's at the showdown; None if nobody knows (no showdown)."""
    scored: list[tuple[str, int]] = field(default_factory=list)
    """Its ``Scored`` steps, (kind, tantos), in order (a lance scores for one side only, §5);
    the órdago's step left out (it wins the game, not tantos)."""

    @property
    def tantos(self) -> int:
        return sum(tantos for _, tantos in self.scored)


def lance_summaries(events: Sequence[ev.Event]) -> list[LanceSummary]:
    """The lances of a hand's events, in the order played, each with what it scored."""
    found: dict[Lance, LanceSummary] = {}
    ordago_called: set[Lance] = set()
    current: Lance | None = None
    winners: Mapping[str, int | None] = {}
    for event in events:
        if isinstance(event, ev.LanceStarted):
            current = event.lance
        elif isinstance(event, ev.Spoke):
            if event.action.kind is ActionKind.ORDAGO and current is not None:
                ordago_called.add(current)
        elif isinstance(event, ev.LanceEnded):
            found[event.lance] = LanceSummary(
                event.lance, event.outcome, bet=event.tantos if event.outcome == "querido" else 0,
                ordago_refused=event.outcome == "deje" and event.lance in ordago_called,
                team=event.team)
        elif isinstance(event, ev.LanceWithoutBetting):
            found[event.lance] = LanceSummary(
                event.lance, "nadie" if event.team is None else "sin_apuesta", team=event.team)
        elif isinstance(event, ev.Showdown):
            winners = event.winners
        elif isinstance(event, ev.Scored):
            summary = found.setdefault(event.lance, LanceSummary(event.lance, "paso"))
            summary.team = event.team
            if event.kind != "ordago":
                summary.scored.append((event.kind, event.tantos))
    for summary in found.values():
        seat = winners.get(summary.lance.nombre)
        if summary.team is None and seat is not None:
            summary.team = Rules.team(seat)
    return [found[lance] for lance in sorted(found)]


def hand_summary(events: Sequence[ev.Event], names: Mapping[int, str], *, players: int,
                 target: int, reyes: int, lang: str = "es",
                 card: Callable[[Card], str] = card_text, max_chars: int = MAX_CHARS
                 ) -> list[str]:
    """A finished hand (its events from ``HandStarted`` to ``HandEnded``, and the ``VacaWon``
    and ``MatchWon`` after it if any) in at most :data:`MAX_LINES` lines: the mus (one line),
    each lance (four at most), the hands shown by side (two; or the sides' names when no hand
    was shown), the score and the game won (one each).

    It is at most ``max_chars`` characters long (code points, newlines included): names are
    shortened until it fits, never below :data:`MIN_NAME`, which with
    :func:`~musbot.table.render.card_text` always suffices (``tests/test_table_summary.py``). A
    ``card`` of longer markup (custom emojis) is counted as its markup: give a ``max_chars``
    that allows for it, or names are shortened for nothing."""
    facts = _Facts.of(events)
    # One plain line each (the line count is the Discord side's budget): musbot.words says how.
    full = {seat: visible_name(name_of(seat, names, lang), fallback=name_of(seat, {}, lang))
            for seat in range(players)}
    width = max(sum(map(columns, name)) for name in full.values())
    while True:
        shown = _shortened(full, width)
        lines = _lines(facts, shown, players=players, target=target, reyes=reyes, lang=lang,
                       card=card)
        if sum(map(len, lines)) + len(lines) - 1 <= max_chars or width <= MIN_NAME:
            return lines
        width -= 1


def score_line(scores: Sequence[int], target: int, players: int, lang: str = "es", *,
               dentro: bool = True) -> str:
    """«Pareja 1: 7 (1 amarraco y 2) · Pareja 2: 36 (7 amarracos y 1) — dentro»: the score of
    docs/rules.md §5 without the word «tantos» repeated, and under 5 tantos (no amarraco yet)
    the number alone; ``dentro`` False once a game is won."""
    parts = []
    for team in (0, 1):
        tantos = scores[team]
        amarrakos, resto = divmod(tantos, 5)
        text = str(tantos) if not amarrakos else TABLE(
            "tantos", lang, tantos=tantos, amarrakos=count("amarrakos", amarrakos, lang),
            resto=resto)
        if dentro and tantos >= target - 5:
            text += TABLE("dentro", lang)
        parts.append(TABLE("score", lang, label=pair_label(team, players, lang), tantos=text))
    return TABLE("score_line", lang, a=parts[0], b=parts[1])


def sorted_hand(cards: Sequence[Card], reyes: int) -> list[Card]:
    """As a player holds them for the Grande (§3): reyes down to ases, with 8 reyes a 3 among
    the reyes (after the 12s) and a 2 among the ases (after the 1s); a suit order breaks ties."""
    return sorted(cards, key=lambda c: (-rank_class(rank(c), reyes), rank(c) in (3, 2),
                                        SUITS.index(suit(c))))


def card_shown(card: Card, reyes: int, text: Callable[[Card], str] = card_text) -> str:
    """A card as the summary shows it: with 8 reyes, ``3🪙=12`` and ``2🗡️=1`` (§1)."""
    shown = text(card)
    as_rank = _COUNTS_AS.get(rank(card)) if reyes == 8 else None
    return shown if as_rank is None else f"{shown}={as_rank}"


# --- the facts of the hand ------------------------------------------------------------------------


@dataclass(slots=True)
class _Facts:
    """What the lines say, read once from the events (the lines may be built several times
    while names are shortened)."""

    mano: int | None = None
    corrido: bool = False
    cutter: int | None = None
    rounds: int = 0
    lances: list[LanceSummary] = field(default_factory=list)
    hands: tuple[tuple[Card, ...], ...] | None = None
    scores: tuple[int, int] = (0, 0)
    game: ev.GameWon | None = None
    vaca: ev.VacaWon | None = None
    match: ev.MatchWon | None = None

    @classmethod
    def of(cls, events: Sequence[ev.Event]) -> _Facts:
        facts = cls(lances=lance_summaries(events))
        for event in events:
            if isinstance(event, ev.HandStarted):
                facts.mano, facts.corrido, facts.scores = event.mano, event.corrido, event.scores
            elif isinstance(event, ev.ManoChanged):
                facts.mano = event.mano
            elif isinstance(event, ev.MusSaid) and not event.mus:
                facts.cutter = event.seat
            elif isinstance(event, ev.CardsReplaced):
                facts.rounds += 1
            elif isinstance(event, ev.Showdown):
                facts.hands = event.hands
            elif isinstance(event, ev.Scored | ev.HandEnded):
                facts.scores = event.scores
            elif isinstance(event, ev.GameWon):
                facts.game = event
            elif isinstance(event, ev.VacaWon):
                facts.vaca = event
            elif isinstance(event, ev.MatchWon):
                facts.match = event
        return facts


def _lines(facts: _Facts, names: Mapping[int, str], *, players: int, target: int, reyes: int,
           lang: str, card: Callable[[Card], str]) -> list[str]:
    def who(seat: int) -> str:
        return TABLE("summary_mano", lang, name=names[seat]) if seat == facts.mano else names[seat]

    lines = []
    if facts.cutter is not None:
        lines.append(_mus_line(facts, names[facts.cutter], lang))
    lines += [_lance_line(summary, players, lang) for summary in facts.lances]
    if facts.hands is not None:
        hands = facts.hands
        for team in (0, 1):
            shown = [TABLE("showdown_hand", lang, name=who(seat),
                           cards=" ".join(card_shown(c, reyes, card)
                                          for c in sorted_hand(hands[seat], reyes)))
                     for seat in range(team, players, 2)]
            lines.append(TABLE("summary_hands", lang, label=pair_label(team, players, lang),
                               hands=" · ".join(shown)))
    else:
        sides = [TABLE("summary_side", lang, label=pair_label(team, players, lang),
                       names=_joined([who(seat) for seat in range(team, players, 2)], lang))
                 for team in (0, 1)]
        lines.append(TABLE("score_line", lang, a=sides[0], b=sides[1]))
    lines.append(score_line(facts.scores, target, players, lang, dentro=facts.game is None))
    ended = _ended_line(facts, players, lang)
    if ended is not None:
        lines.append(ended)
    return lines


def _mus_line(facts: _Facts, cutter: str, lang: str) -> str:
    if facts.rounds:
        text = TABLE("summary_mus_n", lang, n=facts.rounds, name=cutter)
    else:
        text = TABLE("summary_no_mus", lang, name=cutter)
    return TABLE("summary_corrido", lang, mus=text) if facts.corrido else text


def _lance_line(summary: LanceSummary, players: int, lang: str) -> str:
    lance = lance_name(summary.lance, lang)
    outcome = summary.outcome
    if outcome == "nadie":
        return TABLE("summary_lance", lang, lance=lance, how=TABLE("summary_nadie", lang))
    if outcome == "paso":
        how = SCORE_KIND("paso", lang)
    elif outcome == "querido":
        how = TABLE("summary_querido", lang, tantos=summary.bet)
    elif outcome == "deje":
        how = TABLE("summary_ordago_deje" if summary.ordago_refused else "said_no_quiero", lang)
    elif outcome == "ordago":
        how = TABLE("summary_ordago", lang)
    else:
        how = TABLE("summary_sin_envite", lang)
    text = TABLE("summary_lance", lang, lance=lance, how=how)
    if summary.team is None:
        return TABLE("summary_uncounted", lang, text=text)
    label = pair_label(summary.team, players, lang)
    if outcome == "ordago":
        return TABLE("summary_taken", lang, text=text, label=label)
    if not summary.scored:
        return TABLE("summary_uncounted_by", lang, text=text, label=label)
    text = TABLE("summary_won", lang, text=text, label=label, tantos=summary.tantos)
    if len(summary.scored) == 1:
        return text
    return TABLE("summary_parts", lang, text=text, parts=" + ".join(
        TABLE("summary_part", lang, tantos=tantos, kind=SCORE_KIND.get(kind, lang, kind))
        for kind, tantos in summary.scored))


def _ended_line(facts: _Facts, players: int, lang: str) -> str | None:
    """The game won, and with it the vaca and the match: the counts after the hand (§6)."""
    if facts.game is None:
        return None
    label = pair_label(facts.game.team, players, lang)
    if facts.vaca is not None:
        key = "summary_match" if facts.match is not None else "summary_vaca"
        return TABLE(key, lang, label=label, a=facts.vaca.vacas[0], b=facts.vaca.vacas[1])
    return TABLE("summary_game", lang, label=label, a=facts.game.games[0], b=facts.game.games[1])


# --- names --------------------------------------------------------------------------------------


def _joined(items: list[str], lang: str) -> str:
    """«Ana, Carlos y Eva» (:func:`~musbot.table.render.pair_text`'s way)."""
    if len(items) > 2:
        items = [", ".join(items[:-1]), items[-1]]
    return TABLE("and", lang).join(items)


def _shortened(names: Mapping[int, str], width: int) -> dict[int, str]:
    """Each name at most ``width`` columns (:func:`musbot.words.visible_name` cuts it with an
    ellipsis); names that would then read alike keep their last two characters too («Bot 4
    (asiento 1)» beside «Bot 4 (asiento 3)»)."""
    short = {seat: visible_name(name, width) for seat, name in names.items()}
    taken = list(short.values())
    for seat, name in names.items():
        if taken.count(short[seat]) > 1 and short[seat] != name:
            short[seat] = visible_name(name, width - 2).removesuffix("…") + "…" + name[-2:]
    return short

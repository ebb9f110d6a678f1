"""A finished hand in about ten lines (issue 43): :mod:`musbot.table.summary` over random hands of
every player count and variant, in every language, checked against the engine's own events; and
hands written by hand, worked out from docs/rules.md."""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from helpers_rules import cut, make_hand, pass_lance
from hypothesis import given, settings
from hypothesis import strategies as st
from table_helpers import ANY_CARD

from musbot.engine import (
    MUS,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    QUIERO,
    Lance,
    Match,
    Rules,
    descarte,
    envido,
)
from musbot.engine import events as ev
from musbot.engine.cards import Card, card_code, rank, seeded_shuffler
from musbot.engine.evaluation import rank_class
from musbot.engine.randomplay import random_action
from musbot.i18n import LANGUAGE_CODES, TABLE
from musbot.table.render import lance_name, pair_label
from musbot.table.summary import MAX_CHARS, MAX_LINES, hand_summary, score_line

REALISTIC = ("Ane Etxeberri", "Iñaki Urrutia", "Maite Goñi", "Bot 4", "Xabier Arana", "Bot 6")
"""Names as people type them, up to 13 characters."""
LONG = ("W" * 32, "Ñ" * 31 + "1", "M" * 30 + "x2", "Bot 4 (asiento 1) de la mesa 7",
        "Xabier " * 4 + "Arana", "Z" * 32)
"""The longest a Discord nickname can be (32), and a name the table made unique by its seat."""


@dataclass(frozen=True)
class Played:
    """One finished hand of a match: its events with the vaca and match won after it, and the
    match's games and vacas once it was over."""

    rules: Rules
    events: tuple[ev.Event, ...]
    games: tuple[int, int]
    vacas: tuple[int, int]

    def first(self, kind: type[ev.Event]) -> ev.Event | None:
        return next((e for e in self.events if isinstance(e, kind)), None)


def match_hands(seed: int, rules: Rules) -> Iterator[Played]:
    """Every hand of a match of random legal play (musbot.engine.randomplay)."""
    rng = random.Random(seed)
    match = Match(rules, first_mano=seed % rules.jugadores, shuffler=seeded_shuffler(seed))
    current: list[ev.Event] = list(match.hand.events)

    def done() -> Played:
        return Played(rules, tuple(current), (match.games[0], match.games[1]),
                      (match.vacas[0], match.vacas[1]))
    while not match.finished:
        seat = match.to_act
        assert seat is not None
        for event in match.apply(seat, random_action(match.legal_actions(seat), rng)):
            if isinstance(event, ev.HandStarted):  # the next deal: the hand before is over
                yield done()
                current = []
            current.append(event)
    yield done()


VARIANTS = [Rules.for_players(players, reyes=reyes, real=real, mus_corrido=corrido, puntos=25,
                              juegos=2, vacas=2)
            for players, reyes, (real, corrido) in itertools.product(
                (2, 4, 6), (4, 8), ((False, False), (True, True)))]
"""§8 player counts, §1 reyes, §3 la real, §2 mus corrido; short games, so that many hands win
a game, a vaca or the match (§6)."""


@functools.cache
def played() -> tuple[Played, ...]:
    hands = tuple(hand for seed, rules in itertools.product(range(3), VARIANTS)
                  for hand in match_hands(1000 * seed + rules.jugadores, rules))
    assert len(hands) > 500
    return hands


def summary(hand: Played, lang: str, names: tuple[str, ...] = REALISTIC, **options: object
            ) -> list[str]:
    rules = hand.rules
    return hand_summary(hand.events, dict(enumerate(names[:rules.jugadores])),
                        players=rules.jugadores, target=rules.puntos, reyes=rules.reyes,
                        lang=lang, **options)  # type: ignore[arg-type]


LANCE_NAMES = {lang: {lance_name(lance, lang) for lance in Lance} for lang in LANGUAGE_CODES}


def coded(card: Card) -> str:
    """A card as a token no other text can hold: each is counted in the summary."""
    return f"[{card_code(card)}]"


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_at_most_ten_lines_and_650_characters(lang: str) -> None:
    """Realistic names whole, at six players too; the longest names shortened until it fits."""
    for hand in played():
        players = hand.rules.jugadores
        for names in (REALISTIC, LONG):
            lines = summary(hand, lang, names)
            text = "\n".join(lines)
            assert len(lines) <= MAX_LINES and len(text) <= MAX_CHARS, text
            assert text.splitlines() == lines and all(line.strip() for line in lines), text
            if names is REALISTIC:
                assert "…" not in text
                assert all(name in text for name in REALISTIC[:players]), text


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_lances_tantos_add_up_to_the_hand_s_score(lang: str) -> None:
    """docs/rules.md §5: each lance says once what its steps scored, and by side they are what
    the hand added to the score, from ``HandStarted`` to ``HandEnded``."""
    for hand in played():
        players = hand.rules.jugadores
        teams = {pair_label(team, players, lang): team for team in (0, 1)}
        started, ended = hand.first(ev.HandStarted), hand.first(ev.HandEnded)
        assert isinstance(started, ev.HandStarted) and isinstance(ended, ev.HandEnded)
        lines = summary(hand, lang)
        added = [0, 0]
        for label, tantos in re.findall(r"→ (.+?) \+(\d+)", "\n".join(lines)):
            added[teams[label]] += int(tantos)
        assert added == [ended.scores[0] - started.scores[0],
                         ended.scores[1] - started.scores[1]], lines
        played_lances = [lance_name(e.lance, lang) for e in hand.events
                         if isinstance(e, ev.LanceEnded | ev.LanceWithoutBetting)]
        assert [line.split(":")[0].strip() for line in lines
                if line.split(":")[0].strip() in LANCE_NAMES[lang]] == played_lances, lines


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_card_shown_once_sorted_for_the_grande_and_marked_with_8_reyes(lang: str) -> None:
    """§3: each hand best first for the Grande, each side on its line; §1: with 8 reyes a 3 shows
    ``=12`` (a rey) and a 2 ``=1`` (an as). No showdown, no card."""
    for hand in played():
        rules = hand.rules
        text = "\n".join(summary(hand, lang, card=coded))
        shown = re.findall(r"\[(\w+)\](=\d+)?", text)
        showdown = hand.first(ev.Showdown)
        if not isinstance(showdown, ev.Showdown):
            assert not shown
            continue
        seats = [*range(0, rules.jugadores, 2), *range(1, rules.jugadores, 2)]
        assert len(shown) == 4 * rules.jugadores
        for k, seat in enumerate(seats):
            mine = shown[4 * k:4 * k + 4]
            assert sorted(code for code, _ in mine) == sorted(map(card_code,
                                                                  showdown.hands[seat]))
            held = [next(c for c in showdown.hands[seat] if card_code(c) == code)
                    for code, _ in mine]
            classes = [rank_class(rank(c), rules.reyes) for c in held]
            assert classes == sorted(classes, reverse=True), mine
            for card, (_, mark) in zip(held, mine, strict=True):
                wanted = {3: "=12", 2: "=1"}.get(rank(card), "") if rules.reyes == 8 else ""
                assert mark == wanted, (card_code(card), mark)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_score_once_as_the_hand_ended_and_the_games_and_vacas_after_it(lang: str) -> None:
    """§5 the score the hand ended with, once; §6 a game won says the games after the hand, and
    a vaca won (its games back to 0–0) the vacas: what the match holds once the hand is over."""
    for hand in played():
        rules = hand.rules
        ended = hand.first(ev.HandEnded)
        game = hand.first(ev.GameWon)
        assert isinstance(ended, ev.HandEnded)
        lines = summary(hand, lang)
        score = score_line(ended.scores, rules.puntos, rules.jugadores, lang,
                           dentro=game is None)
        assert lines.count(score) == 1
        assert [int(n) for n in re.findall(r": (\d+)", score)] == list(ended.scores)
        if not isinstance(game, ev.GameWon):
            assert lines[-1] == score
            continue
        assert lines[-2] == score
        label = pair_label(game.team, rules.jugadores, lang)
        vaca = hand.first(ev.VacaWon)
        if vaca is None:
            key, counts = "game", hand.games
            assert game.games == hand.games
        else:
            key = "match" if hand.first(ev.MatchWon) else "vaca"
            counts = hand.vacas
            assert hand.games == (0, 0)
        assert lines[-1] == TABLE(f"summary_{key}", lang, label=label, a=counts[0], b=counts[1])


def hand_of(match: Match, *moves: tuple[int, object]) -> list[ev.Event]:
    """The events of the match's hand in play once ``moves`` are made, up to the next deal."""
    events = list(match.hand.events)
    for seat, action in moves:
        events += match.apply(seat, action)  # type: ignore[arg-type]
    later = [i for i, e in enumerate(events) if isinstance(e, ev.HandStarted)][1:]
    return events[:later[0]] if later else events


NAMES = {0: "Oier", 1: "Bea", 2: "Carlos", 3: "Dani"}


@pytest.mark.parametrize(("juegos", "vacas", "last"), [
    (3, 1, "🏆 Pareja {label} gana el juego. Juegos {a}–{b}."),
    (1, 2, "🐄 Pareja {label} gana el juego y la vaca. Vacas {a}–{b}."),
    (1, 1, "🎉 Pareja {label} gana el juego, la vaca y la partida. Vacas {a}–{b}."),
])
def test_an_ordago_that_ends_the_game_says_the_game_and_the_counts_after_it(
        juegos: int, vacas: int, last: str) -> None:
    """§4.7: an accepted órdago wins the game, whatever the score; §6: the games after it, or,
    when it wins the vaca too, the vacas (its games start again at 0–0: never «Juegos 1–0»
    above a table at 0–0)."""
    match = Match(Rules(juegos=juegos, vacas=vacas), first_mano=0, shuffler=seeded_shuffler(3))
    events = hand_of(match, (0, NO_HAY_MUS), (0, ORDAGO), (1, QUIERO))
    won = next(e for e in events if isinstance(e, ev.GameWon))
    assert won.ordago
    lines = hand_summary(events, NAMES, players=4, target=40, reyes=8)
    label = f"Pareja {won.team + 1}"
    assert lines[1] == f"Grande: órdago, quiero → {label}"
    counts = match.games if juegos > 1 else match.vacas
    assert lines[-1] == last.format(label=won.team + 1, a=counts[0], b=counts[1])
    assert ("Juegos" in lines[-1]) == (juegos > 1)
    assert lines[-2] == "Pareja 1: 0 · Pareja 2: 0"


def oier_hand() -> list[ev.Event]:
    """8 reyes (§1), mano Oier with 4 3 2 12: a par of reyes (the 3 is a rey) and an as (the 2).
    Everything en paso: Grande and Chica to Oier (R R 4 A; the as is the lowest card), Pares to
    his par of reyes over Bea's caballos (§3), Juego only to Bea (31: 3, §5)."""
    hand = make_hand(["4c 3o 2e 12c", "11o 11b 5c 6c", "7o 6o 5o 10b", "7b 6b 5b 10e"])
    cut(hand)
    while not hand.finished:
        pass_lance(hand)
    return list(hand.events)


def test_a_hand_whose_pares_nobody_could_read_reads_as_a_player_holds_it() -> None:
    """The 3 beside the 12 and marked as a rey, the 2 last and marked as an as: with 8 reyes
    «4🍷 3🪙 2🗡️ 12🍷» is «12🍷 3🪙=12 4🍷 2🗡️=1», a par of reyes."""
    assert hand_summary(oier_hand(), NAMES, players=4, target=40, reyes=8) == [
        "No hay mus (Oier)",
        "Grande: en paso → Pareja 1 +1",
        "Chica: en paso → Pareja 1 +1",
        "Pares: en paso → Pareja 1 +1",
        "Juego: sin envite → Pareja 2 +3",
        "Pareja 1 — Oier (mano): 12🍷 3🪙=12 4🍷 2🗡️=1 · Carlos: 10🪵 7🪙 6🪙 5🪙",
        "Pareja 2 — Bea: 11🪙 11🪵 6🍷 5🍷 · Dani: 10🗡️ 7🪵 6🪵 5🪵",
        "Pareja 1: 3 · Pareja 2: 3",
    ]
    assert hand_summary(oier_hand(), NAMES, players=4, target=40, reyes=8, lang="eu") == [
        "Mintza (Oier)",
        "Handia: pasoan → 1. bikotea +1",
        "Txikia: pasoan → 1. bikotea +1",
        "Pareak: pasoan → 1. bikotea +1",
        "Jokoa: apusturik gabe → 2. bikotea +3",
        "1. bikotea — Oier (esku): 12🍷 3🪙=12 4🍷 2🗡️=1 · Carlos: 10🪵 7🪙 6🪙 5🪙",
        "2. bikotea — Bea: 11🪙 11🪵 6🍷 5🍷 · Dani: 10🗡️ 7🪵 6🪵 5🪵",
        "1. bikotea: 3 · 2. bikotea: 3",
    ]


def test_a_bet_and_its_base_values_on_one_line() -> None:
    """§5: Pares querido scores the bet, then the base values of the winning pair: one line,
    the total and its parts. Chica refused: the deje's 1 at once (§4.5)."""
    hand = make_hand(["4c 3o 2e 12c", "11o 11b 5c 6c", "7o 6o 5o 10b", "7b 6b 5b 10e"])
    cut(hand)
    pass_lance(hand)
    for seat, action in ((0, envido(3)), (1, NO_QUIERO), (3, NO_QUIERO),
                         (0, envido(2)), (1, QUIERO)):
        hand.apply(seat, action)
    lines = hand_summary(hand.events, NAMES, players=4, target=40, reyes=8)
    assert lines[2:5] == ["Chica: no quiero → Pareja 1 +1",
                          "Pares: querido a 2 → Pareja 1 +3 (2 envite + 1 por tener)",
                          "Juego: sin envite → Pareja 2 +3"]


def test_a_game_won_by_a_deje_shows_no_card_but_who_sits_where() -> None:
    """§5: the game ends at the deje that reaches the target, before any showdown: no hand is
    shown, the sides are named instead."""
    hand = make_hand(["4c 3o 2e 12c", "11o 11b 5c 6c", "7o 6o 5o 10b", "7b 6b 5b 10e"],
                     scores=(39, 12))
    cut(hand)
    for seat, action in ((0, envido(2)), (1, NO_QUIERO), (3, NO_QUIERO)):
        hand.apply(seat, action)
    lines = hand_summary(hand.events, NAMES, players=4, target=40, reyes=8)
    assert lines == ["No hay mus (Oier)",
                     "Grande: no quiero → Pareja 1 +1",
                     "Pareja 1: Oier (mano) y Carlos · Pareja 2: Bea y Dani",
                     "Pareja 1: 40 (8 amarracos y 0) · Pareja 2: 12 (2 amarracos y 2)",
                     "🏆 Pareja 1 gana el juego. Juegos 1–0."]
    assert not ANY_CARD.search("\n".join(lines))


def test_a_lance_after_the_winning_step_is_not_counted() -> None:
    """§5: nothing after the step that reaches the target counts: Grande's tanto en paso wins
    the game at 39; Chica, Pares and Juego are said, not scored."""
    hand = make_hand(["4c 3o 2e 12c", "11o 11b 5c 6c", "7o 6o 5o 10b", "7b 6b 5b 10e"],
                     scores=(39, 0))
    cut(hand)
    while not hand.finished:
        pass_lance(hand)
    lines = hand_summary(hand.events, NAMES, players=4, target=40, reyes=8)
    assert lines[1:5] == ["Grande: en paso → Pareja 1 +1",
                          "Chica: en paso → Pareja 1, no se cuenta",
                          "Pares: en paso → Pareja 1, no se cuenta",
                          "Juego: sin envite → Pareja 2, no se cuenta"]


def test_a_corrido_hand_and_rounds_of_mus() -> None:
    """§2: mus corrido, the first to cut becomes the mano; the rounds of discards counted."""
    hand = make_hand(["4c 3o 2e 12c", "11o 11b 5c 6c", "7o 6o 5o 10b", "7b 6b 5b 10e"],
                     deck="1o 1c 1b 4o 4b 4e 5e 6e 7e 7c 10o 10c 11c 11e 12o 12b 12e",
                     corrido=True)
    for seat in range(4):
        hand.apply(seat, MUS)
    for seat in range(4):
        hand.apply(seat, descarte(hand.hands[seat][0]))
    hand.apply(0, MUS)
    hand.apply(1, NO_HAY_MUS)
    while not hand.finished:
        pass_lance(hand)
    lines = hand_summary(hand.events, NAMES, players=4, target=40, reyes=8)
    assert lines[0] == "Mus corrido · Mus: 1 descarte; no hay mus (Bea)"
    assert "Bea (mano)" in "\n".join(lines)


def test_two_and_six_players_are_teams() -> None:
    """§8: a side of one or three is a team («Equipo», Basque «taldea»)."""
    for hand in played():
        if hand.rules.jugadores != 4 and hand.first(ev.Showdown):
            lines = summary(hand, "es")
            assert any(line.startswith("Equipo 1: ") and " · Equipo 2: " in line
                       for line in lines), lines
            assert "1. taldea — " in "\n".join(summary(hand, "eu"))
            break
    else:
        raise AssertionError("no hand of 2 or 6 players with a showdown")


SAMPLE = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377]


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.text(min_size=0, max_size=40), min_size=6, max_size=6),
       pick=st.sampled_from(SAMPLE), lang=st.sampled_from(LANGUAGE_CODES))
def test_any_names_keep_the_limits_and_read_apart(names: list[str], pick: int, lang: str
                                                  ) -> None:
    """Whatever the names (empty, 40 characters, line breaks, accents, emoji): at most ten lines
    and 650 characters, a name never breaking a line."""
    hand = played()[pick]
    lines = summary(hand, lang, tuple(names))
    text = "\n".join(lines)
    assert len(lines) <= MAX_LINES and len(text) <= MAX_CHARS
    assert text.splitlines() == lines


def test_names_that_read_alike_once_shortened_stay_apart() -> None:
    """Names are cut with an ellipsis; two that would then read alike keep their ends."""
    names = tuple(f"Jon Ander Etxeberria Goikoetxea{seat}" for seat in range(6))
    shortened = (summary(hand, "es", names) for hand in played()
                 if hand.rules.jugadores == 6 and hand.first(ev.Showdown))
    lines = next(lines for lines in shortened if "…" in "".join(lines))
    hands = "\n".join(line.partition(" — ")[2] for line in lines if " — " in line)
    shown = re.findall(r"(?:^| · )([^:·]+?)(?: \(mano\))?: ", hands, re.MULTILINE)
    assert len(shown) == 6 and len(set(shown)) == 6, shown
    assert all("…" in name and name.endswith(tuple("012345")) for name in shown), shown

"""The command grammar (musbot.grammar): what players type, read as docs/rules.md §2 and §4
actions.

Three outcomes are tested for every kind of message: an action, ``None`` for chat, and
``MalformedCommand`` with a Spanish sentence for a near miss.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musbot import grammar as commands
from musbot import words
from musbot.engine.actions import (
    MUS,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    descarte,
    envido,
    mas,
)
from musbot.engine.cards import CARD_CODES, DECK, Card, parse_card
from musbot.engine.errors import MalformedCommand, MusError
from musbot.grammar import parse, suggest, vocabulary
from musbot.i18n import catalog, error_text

es, en = catalog("es"), catalog("en")

HAND: list[Card] = [parse_card(c) for c in ("12o", "7c", "5e", "1b")]
"""A hand as shown to the player: position 1 is the rey de oros, 4 the as de bastos."""


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in codes)


def spanish(error: MalformedCommand) -> str:
    return error_text(error, "es")


# --- §2: the mus phase ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("mus", MUS),
        ("no hay mus", NO_HAY_MUS),
        ("no mus", NO_HAY_MUS),
        ("corto", NO_HAY_MUS),
        ("mintza", NO_HAY_MUS),
        ("ez dago mus", NO_HAY_MUS),
        ("Ez dago mus!", NO_HAY_MUS),
        ("mus ez", NO_HAY_MUS),
        ("cut", NO_HAY_MUS),
    ],
)
def test_mus_phase_words(text: str, action: Action) -> None:
    """§2: each player says mus or no hay mus (Basque "mintza" = refuse mus)."""
    assert parse(text) == action


# --- §4: betting words without an amount --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("paso", PASO),
        ("pass", PASO),
        ("check", PASO),
        ("envido", envido(2)),
        ("imido", envido(2)),
        ("bet", envido(2)),
        ("envido más", mas(2)),
        ("revido", mas(2)),
        ("reenvido", mas(2)),
        ("raise", mas(2)),
        ("subo", mas(2)),
        ("órdago", ORDAGO),
        ("ordago", ORDAGO),
        ("hordago", ORDAGO),
        ("hor dago", ORDAGO),
        ("echo órdago", ORDAGO),
        ("all in", ORDAGO),
        ("quiero", QUIERO),
        ("iduki", QUIERO),
        ("kanta", QUIERO),
        ("call", QUIERO),
        ("no quiero", NO_QUIERO),
        ("tira", NO_QUIERO),
        ("fold", NO_QUIERO),
    ],
)
def test_betting_words(text: str, action: Action) -> None:
    """§4: paso, envido (2 tantos), "envido más" / "revido" = 2 más, órdago, quiero, no quiero;
    Basque imido/iduki/kanta/tira/hordago and English equivalents."""
    assert parse(text) == action


# --- §4: amounts --------------------------------------------------------------------------------

SPANISH_UNITS = ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
SPANISH_2_TO_40 = [
    "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
    "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
    "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis",
    "veintisiete", "veintiocho", "veintinueve", "treinta",
    *(f"treinta y {u}" for u in SPANISH_UNITS),
    "cuarenta",
]


@pytest.mark.parametrize(("n", "word"), list(enumerate(SPANISH_2_TO_40, start=2)))
def test_spanish_number_words(n: int, word: str) -> None:
    """§4 "envido N": every Spanish amount from dos to cuarenta, as a bet and as a raise."""
    assert parse(f"envido {word}") == envido(n)
    assert parse(f"{word} más") == mas(n)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("envido 5", envido(5)),
        ("envido 2", envido(2)),
        ("envido 40", envido(40)),
        ("envido 100", envido(100)),
        ("envido 05", envido(5)),
        ("envido 5 tantos", envido(5)),
        ("envido cinco tantos", envido(5)),
        ("imido 5", envido(5)),
        ("bet 5", envido(5)),
        ("bet five", envido(5)),
        ("bet twenty-one", envido(21)),
        ("bet twenty one", envido(21)),
        ("envido veinte y dos", envido(22)),
        ("envido diez y seis", envido(16)),
        ("envido treinta y una", envido(31)),
        ("envido veintiún", envido(21)),
        ("envido cuarenta y cinco", envido(45)),
        ("envido bost", envido(5)),
        ("imido hogeita bat", envido(21)),
        ("imido berrogei", envido(40)),
        ("lau tantos imido", envido(4)),
        ("bost imido", envido(5)),
    ],
)
def test_envido_amounts(text: str, action: Action) -> None:
    """§4: envido N (N ≥ 2), in digits or words; Basque "lau tantos imido" puts the amount first."""
    assert parse(text) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("3 más", mas(3)),
        ("3 mas", mas(3)),
        ("tres más", mas(3)),
        ("dos más", mas(2)),
        ("10 tantos más", mas(10)),
        ("subo 3", mas(3)),
        ("subo tres", mas(3)),
        ("envido 3 más", mas(3)),
        ("envido tres más", mas(3)),
        ("revido 4", mas(4)),
        ("3 gehiago", mas(3)),
        ("hiru gehiago", mas(3)),
        ("hiru tantos gehiago", mas(3)),
        ("raise 3", mas(3)),
        ("raise three", mas(3)),
        ("treinta y uno más", mas(31)),
    ],
)
def test_raises(text: str, action: Action) -> None:
    """§4: a raise of a standing bet by N más (N ≥ 2); Basque "N (tantos) gehiago"."""
    assert parse(text) == action


@pytest.mark.parametrize("text", ["cinco", "5", "treinta y uno", "dos", "40", "hiru", "five"])
def test_bare_numbers_are_chat(text: str) -> None:
    """A number alone answers questions ("¿cuántas cartas?"); without a verb it is never a bet."""
    assert parse(text) is None


# --- normalisation: accents, case, punctuation, fillers -----------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("MUS", MUS),
        ("Mus", MUS),
        ("No Hay Mus", NO_HAY_MUS),
        ("ÓRDAGO", ORDAGO),
        ("¡Órdago!", ORDAGO),
        ("órdago!!!", ORDAGO),
        ("¿quiero?", QUIERO),
        ("  no   quiero  ", NO_QUIERO),
        ("no\tquiero", NO_QUIERO),
        ("no-quiero", NO_QUIERO),
        ("paso.", PASO),
        ("paso...", PASO),
        ("paso…", PASO),
        ("3 MÁS", mas(3)),
        ("3 más!", mas(3)),
        ("envido, tío", envido(2)),
        ("envido 5 tío", envido(5)),
        ("envido 5 tía", envido(5)),
        ("paso eh", PASO),
        ("pues paso", PASO),
        ("vale, quiero", QUIERO),
        ("venga, órdago", ORDAGO),
        ("venga va, envido", envido(2)),
        ("bueno, no quiero", NO_QUIERO),
        ("yo paso", PASO),
        ("paso yo", PASO),
        ("yo también paso", PASO),
        ("mus también", MUS),
        ("pues yo mus", MUS),
        ("ok mus", MUS),
        ("I fold", NO_QUIERO),
        ("i call", QUIERO),
        ("**paso**", PASO),
        ("`envido 5`", envido(5)),
        ("_mus_", MUS),
        ("«órdago»", ORDAGO),
        ("paso 😅", PASO),
        ("!envido", envido(2)),
        ("ｅｎｖｉｄｏ ５", envido(5)),
        ("Envido  Cinco", envido(5)),
        ("envido VEINTIDÓS", envido(22)),
    ],
)
def test_normalisation(text: str, action: Action) -> None:
    """Case, accents, surrounding punctuation, markdown, emoji and a few fillers never change the
    command; full-width characters are folded by NFKD."""
    assert parse(text) == action


# --- §2: discards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("descarto 1 3", cards("12o", "5e")),
        ("descarto 3 1", cards("5e", "12o")),
        ("descarto 1, 3", cards("12o", "5e")),
        ("descarto 1,3", cards("12o", "5e")),
        ("descarto 1-3", cards("12o", "5e")),
        ("descarto 1 y 3", cards("12o", "5e")),
        ("descarto la 1 y la 3", cards("12o", "5e")),
        ("me descarto de 1 y 3", cards("12o", "5e")),
        ("me descarto 4", cards("1b")),
        ("descarte 2", cards("7c")),
        ("discard 1 3", cards("12o", "5e")),
        ("discard 1 and 3", cards("12o", "5e")),
        ("descarto 1 2 3 4", cards("12o", "7c", "5e", "1b")),
        ("descarto todas", cards("12o", "7c", "5e", "1b")),
        ("discard all", cards("12o", "7c", "5e", "1b")),
        ("descarto 1o 12c", cards("1o", "12c")),
        ("descarto 1O 12C", cards("1o", "12c")),
        ("Descarto 12o, 7c", cards("12o", "7c")),
        ("descarto 1 5e", cards("12o", "5e")),
        ("pues descarto 4, tío", cards("1b")),
        ("bota 1 2 3", cards("12o", "7c", "5e")),
        ("bota 1 eta 3", cards("12o", "5e")),
        ("bota 1o 12c", cards("1o", "12c")),
        ("bota denak", cards("12o", "7c", "5e", "1b")),
        ("bota guztiak", cards("12o", "7c", "5e", "1b")),
        ("jette 3 4", cards("5e", "1b")),
        ("je jette le 1 et le 3", cards("12o", "5e")),
        ("Jette 12o, 7c", cards("12o", "7c")),
        ("jette tout", cards("12o", "7c", "5e", "1b")),
        ("jette toutes", cards("12o", "7c", "5e", "1b")),
    ],
)
def test_discards(text: str, expected: tuple[Card, ...]) -> None:
    """§2: each player discards 1 to 4 cards, by position as shown (1–4) or by card code (§1)."""
    assert parse(text, HAND) == descarte(*expected)


def test_discard_by_code_needs_no_hand() -> None:
    """Card codes name the cards themselves; whether they are held is the engine's check."""
    assert parse("descarto 1o 12c") == descarte(*cards("1o", "12c"))
    assert parse("descarto 3b") == descarte(*cards("3b"))


# --- near misses: MalformedCommand with a Spanish sentence ---------------------------------------

SPANISH = {
    "amount_too_low": "El envite mínimo es de 2 tantos (has dicho {}).",
    "bad_amount": "No entiendo la cantidad «{}»: el envite es de 2 tantos o más.",
    "discard_empty": "¿De qué cartas te descartas? Por ejemplo «descarto 1 3».",
    "bad_position": "Las cartas se numeran del 1 al {}: «{}» no vale.",
    "bad_card": "«{}» no es una carta: usa rango y palo, como 1o, 7e, 10c o 12b.",
    "positions_need_hand": "Para descartar por posición hace falta ver la mano.",
    "card_twice": "La carta {} aparece dos veces.",
    "lance_named": "Siempre se habla del lance que se está jugando: di solo «{}».",
}
"""What a player reads for each near miss, written out here (not read from the catalog), the
holes filled by each case with what the player typed."""


@pytest.mark.parametrize(
    ("text", "code", "hand", "holes"),
    [
        ("envido 1", "amount_too_low", None, ["1"]),
        ("envido 0", "amount_too_low", None, ["0"]),
        ("envido uno", "amount_too_low", None, ["1"]),
        ("envido cero", "amount_too_low", None, ["0"]),
        ("imido bat", "amount_too_low", None, ["1"]),
        ("1 más", "amount_too_low", None, ["1"]),
        ("0 más", "amount_too_low", None, ["0"]),
        ("envido 1 más", "amount_too_low", None, ["1"]),
        ("subo 1", "amount_too_low", None, ["1"]),
        ("subo uno", "amount_too_low", None, ["1"]),
        ("raise 1", "amount_too_low", None, ["1"]),
        ("envido x", "bad_amount", None, ["x"]),
        ("envido mucho", "bad_amount", None, ["mucho"]),
        ("envido -3", "bad_amount", None, ["-3"]),
        ("envido 3x", "bad_amount", None, ["3x"]),
        ("envido 1234567", "bad_amount", None, ["1234567"]),
        ("envido treinta y", "bad_amount", None, ["treinta y"]),
        ("envido tantos", "bad_amount", None, ["tantos"]),
        ("bet x", "bad_amount", None, ["x"]),
        ("raise lots", "bad_amount", None, ["lots"]),
        ("1o más", "bad_amount", None, ["1o"]),
        ("subo 3x", "bad_amount", None, ["3x"]),
        ("descarto", "discard_empty", HAND, []),
        ("descarto", "discard_empty", None, []),
        ("me descarto", "discard_empty", HAND, []),
        ("descarto y", "discard_empty", HAND, []),
        ("discard", "discard_empty", HAND, []),
        ("descarto 5", "bad_position", HAND, ["4", "5"]),
        ("descarto 9", "bad_position", None, ["4", "9"]),
        ("descarto 0", "bad_position", HAND, ["4", "0"]),
        ("descarto -1", "bad_position", HAND, ["4", "-1"]),
        ("descarto 1 5", "bad_position", HAND, ["4", "5"]),
        ("descarto 13o", "bad_card", None, ["13o"]),
        ("descarto 8o", "bad_card", None, ["8o"]),
        ("descarto 1x", "bad_card", None, ["1x"]),
        ("descarto 1o x", "bad_card", None, ["x"]),
        ("descarto 1 3", "positions_need_hand", None, []),
        ("descarto todas", "positions_need_hand", None, []),
        ("descarto 1 1", "card_twice", HAND, ["12o"]),
        ("descarto 1o 1o", "card_twice", None, ["1o"]),
        ("descarto 1 12o", "card_twice", HAND, ["12o"]),
        ("descarto todas 2", "card_twice", HAND, ["7c"]),
        ("órdago a la grande", "lance_named", None, ["órdago"]),
        ("envido a la chica", "lance_named", None, ["envido"]),
        ("envido 5 a pares", "lance_named", None, ["envido 5"]),
        ("3 más al juego", "lance_named", None, ["3 más"]),
        ("paso a la grande", "lance_named", None, ["paso"]),
        ("biak hordago", "lance_named", None, ["órdago"]),
        ("biak imido", "lance_named", None, ["envido"]),
    ],
)
def test_near_misses(text: str, code: str, hand: list[Card] | None, holes: list[str]) -> None:
    """Looks like a command but cannot be one (§4: bets are at least 2; §2: 1 to 4 cards, each
    once): the player is told why, in Spanish, instead of being ignored."""
    with pytest.raises(MalformedCommand) as info:
        parse(text, hand)
    assert info.value.code == code
    assert spanish(info.value) == SPANISH[code].format(*holes)


def test_near_misses_in_english() -> None:
    """An English table reads the same refusal in English, written out here."""
    with pytest.raises(MalformedCommand) as info:
        parse("descarto 9", HAND)
    assert error_text(info.value, "en") == "Cards are numbered 1 to 4: «9» is not one."
    with pytest.raises(MalformedCommand) as info:
        parse("envido mucho")
    assert error_text(info.value, "en") == (
        "I do not understand the amount «mucho»: bets are 2 tantos or more.")


def test_error_parameters() -> None:
    """The sentence names what was wrong, so the player can fix it."""
    with pytest.raises(MalformedCommand) as info:
        parse("envido mucho")
    assert "«mucho»" in spanish(info.value)
    with pytest.raises(MalformedCommand) as info:
        parse("descarto 9", HAND)
    assert info.value.params == {"count": 4, "word": "9"}
    assert "del 1 al 4" in spanish(info.value)
    assert parse("descarto 3", HAND[:3]) == descarte(HAND[2])
    with pytest.raises(MalformedCommand) as info:
        parse("descarto 4", HAND[:3])
    assert info.value.params["count"] == 3
    with pytest.raises(MalformedCommand) as info:
        parse("descarto 13o")
    assert "«13o»" in spanish(info.value)
    with pytest.raises(MalformedCommand) as info:
        parse("descarto 1 1", HAND)
    assert info.value.params == {"card": "12o"}
    with pytest.raises(MalformedCommand) as info:
        parse("envido 1")
    assert info.value.params == {"amount": 1}
    with pytest.raises(MalformedCommand) as info:
        parse("órdago a la grande")
    assert "«órdago»" in spanish(info.value)


def test_errors_carry_no_language() -> None:
    """The grammar's error is a code and parameters; its ``str`` is the same in every language,
    for logs, and never a sentence for people."""
    with pytest.raises(MalformedCommand) as info:
        parse("descarto 9", HAND)
    assert str(info.value) == "bad_position(count=4, word='9')"


def test_every_code_is_worded() -> None:
    """Every code the grammar raises is worded in every catalog, Spanish first."""
    source = Path(commands.moves.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'MalformedCommand\(\s*"(\w+)"', source))
    assert {"bad_amount", "amount_too_low", "bad_position", "bad_card", "discard_empty",
            "positions_need_hand", "card_twice", "lance_named", "unknown_sena"} == codes
    for code in codes:
        assert code in es.ERRORS
        assert code in en.ERRORS


# --- chat is never a command ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "!!!",
        "😅",
        "hola",
        "buenas noches a todos",
        "qué mano más mala",
        "no quiero jugar",
        "no quiero ir",
        "quiero café",
        "quiero ir a cenar",
        "quiero a la chica",
        "yo quiero café",
        "paso a buscarte",
        "paso de ti",
        "mus es un juego",
        "el mus es un juego precioso",
        "me encanta el mus",
        "vale",
        "pues",
        "yo",
        "no",
        "sí",
        "venga",
        "bueno, mus es lo mejor",
        "no, quiero",
        "quiero, no",
        "una más",
        "uno más y me voy",
        "mucho más",
        "nada más",
        "cero más",
        "jugamos 3 más",
        "subo a cenar",
        "subo ya",
        "descarto que ganemos",
        "descarto eso",
        "lo descarto",
        "buen descarte",
        "envido es lo mejor aquí",
        "envido a lo grande",
        "órdago y a la cama",
        "quiero juego",
        "tira millas",
        "corto el pan",
        "call me later",
        "fold the cards",
        "más",
        "tantos",
        "gehiago",
        "biak",
        "kaixo",
        "bota de vino",
        "la bota",
        "bota eso",
        "jette un oeil",
        "je jette l'éponge",
        "ez dago mus hemen",
        "mus ez da erraza",
        "<@123456> paso",
        "paso <:kek:123>",
        "envido: 5",
        "x" * 300,
        "envido" + " " * 300,
    ],
)
def test_chat_is_none(text: str) -> None:
    """Talk at the table must never be read as a bet (§4 actions bind the pair)."""
    assert parse(text) is None
    assert parse(text, HAND) is None


# --- canonical words round-trip -------------------------------------------------------------------

ALL_KINDS: list[Action] = [
    MUS,
    NO_HAY_MUS,
    PASO,
    envido(2),
    envido(5),
    envido(40),
    envido(99),
    mas(2),
    mas(3),
    mas(31),
    ORDAGO,
    QUIERO,
    NO_QUIERO,
    descarte(*cards("1o")),
    descarte(*cards("1o", "12c")),
    descarte(*cards("10c", "11e", "12b", "7o")),
]


@pytest.mark.parametrize("action", ALL_KINDS, ids=str)
def test_round_trip(action: Action) -> None:
    """docs/replay.md transcripts store Action.text(); parse must read it back exactly, with or
    without a hand."""
    assert parse(action.text()) == action
    assert parse(action.text(), HAND) == action
    assert parse(action.text().upper()) == action


@given(amount=st.integers(min_value=2, max_value=10**commands.MAX_AMOUNT_DIGITS - 1))
def test_round_trip_amounts(amount: int) -> None:
    """Every legal amount survives the canonical text, as a bet and as a raise (§4)."""
    assert parse(envido(amount).text()) == envido(amount)
    assert parse(mas(amount).text()) == mas(amount)


@given(chosen=st.lists(st.sampled_from(DECK), min_size=1, max_size=4, unique=True))
def test_round_trip_discards(chosen: list[Card]) -> None:
    """Discards of 1 to 4 distinct cards (§2) survive their canonical card codes."""
    action = descarte(*chosen)
    assert parse(action.text()) == action


@given(positions=st.lists(st.integers(1, 4), min_size=1, max_size=4, unique=True))
def test_positions_map_to_the_hand_shown(positions: list[int]) -> None:
    """Position k is the k-th card of the hand as shown, in the order the player typed."""
    text = "descarto " + " ".join(map(str, positions))
    assert parse(text, HAND) == descarte(*(HAND[p - 1] for p in positions))


# --- properties -----------------------------------------------------------------------------------

ACCEPTED: list[str] = [
    "mus", "no hay mus", "corto", "paso", "envido", "envido 5", "envido cinco", "3 más",
    "tres más", "subo 3", "envido más", "revido", "órdago", "quiero", "no quiero", "iduki", "tira",
    "descarto 1o 12c",
]


@pytest.mark.parametrize("text", ACCEPTED)
@pytest.mark.parametrize(("before", "after"), [("pues ", ""), ("venga, ", "!"), ("", ", tío"),
                                               ("¡", "!"), ("yo ", " eh")])
def test_fillers_never_change_a_command(text: str, before: str, after: str) -> None:
    assert parse(before + text + after) == parse(text)


VOCABULARY = sorted(
    set(words.FIXED_PHRASES)
    | words.ENVIDO_VERBS
    | words.RAISE_VERBS
    | words.WEAK_RAISE_VERBS
    | words.MORE_WORDS
    | words.TANTOS_WORDS
    | words.LEADING_FILLERS
    | words.TRAILING_FILLERS
    | words.LANCE_WORDS
    | words.LANCE_PREPOSITIONS
    | words.LANCE_ARTICLES
    | words.ALL_CARDS_WORDS
    | words.LIST_CONNECTORS
    | words.BOTH_LANCES_WORDS
    | {" ".join(v) for v in words.DISCARD_VERBS}
    | set(words.NUMBER_WORDS)
    | set(CARD_CODES)
    | {"0", "1", "2", "3", "4", "5", "9", "13o", "-1", "x", ",", "!", "¿", "más", "órdago", "-"}
)
"""Every word the grammar knows, plus a few near misses, to build messages that reach deep."""

hands = st.none() | st.lists(st.sampled_from(DECK), min_size=0, max_size=5, unique=True)


@settings(max_examples=300)
@given(text=st.text(max_size=250), hand=hands)
def test_arbitrary_text_raises_only_malformed_command(text: str, hand: list[Card] | None) -> None:
    """Whatever is typed, parse answers an Action, None or MalformedCommand: nothing else."""
    try:
        result = parse(text, hand)
    except MalformedCommand as exc:
        assert exc.code in es.ERRORS
    else:
        assert result is None or isinstance(result, Action)


@settings(max_examples=500)
@given(words=st.lists(st.sampled_from(VOCABULARY), max_size=6), hand=hands,
       sep=st.sampled_from([" ", ", ", "  ", "-"]))
def test_vocabulary_soup_raises_only_malformed_command(
    words: list[str], hand: list[Card] | None, sep: str
) -> None:
    """Messages made of command words exercise every form; still only Action, None or
    MalformedCommand with a catalogued Spanish sentence."""
    try:
        result = parse(sep.join(words), hand)
    except MalformedCommand as exc:
        assert exc.code in es.ERRORS
        assert "{" not in spanish(exc)
    else:
        assert result is None or isinstance(result, Action)
        if result is not None:
            if result.amount:
                assert result.amount >= 2
            assert len(set(result.cards)) == len(result.cards)


# --- near misses: «¿querías decir…?» ----------------------------------------------------------

A_HAND = [parse_card(c) for c in ("1o", "12c", "5e", "7b")]


@pytest.mark.parametrize(("typed", "meant"), [
    ("envdo", "envido"), ("envdo 5", "envido 5"), ("no quero", "no quiero"),
    ("noquiero", "no quiero"), ("nohay mus", "no hay mus"), ("quero", "quiero"),
    ("ordgo", "órdago"), ("3 mass", "3 más"), ("pase", "paso"), ("muss", "mus"),
    ("descatro 1 3", "descarto 1 3"), ("descrato 1o 12c", "descarto 1o 12c"),
    ("revdo 4", "4 más"), ("idki", "quiero"), ("fodl", "no quiero"), ("Envdo!", "envido"),
    ("descatro todsa", "descarto todas"),
])
def test_a_near_miss_of_a_command_word_gets_a_suggestion(typed: str, meant: str) -> None:
    """Said in the canonical (Spanish) words: a near miss of any language's word is the move
    as a Spanish table says it («idki» is «quiero»)."""
    assert parse(typed, A_HAND) is None
    assert suggest(typed, A_HAND) == meant
    assert parse(meant, A_HAND) is not None


@pytest.mark.parametrize(("lang", "typed", "meant"), [
    ("fr", "passe", "paso"), ("fr", "pass", None), ("fr", "idki", "iduki"),
    ("fr", "no quero", "tira"), ("fr", "envdo 5", "5 tantos imido"),
    ("fr", "jete 3 4", "jette 3 4"), ("fr", "descatro 1o 12c", "jette 1o 12c"),
    ("fr", "jette toute", "jette tout"),
    ("eu", "botaa 1 2 3", "bota 1 2 3"), ("eu", "descatro todas", "bota denak"),
    ("eu", "quero", "iduki"), ("eu", "nohay mus", "mintza"), ("eu", "3 mass", "3 gehiago"),
    ("en", "passe", "paso"), ("en", "descatro 1 3", "discard 1 3"), ("es", "passe", "paso"),
])
def test_a_suggestion_is_in_the_reader_s_words(lang: str, typed: str, meant: str | None
                                                ) -> None:
    """Issue 46: the French «passe» got «pass»; the suggestion is the move in the words the
    reader's table shows (docs/glossary.md), and it parses as that move."""
    from musbot.table.render import shown

    said = suggest(typed, A_HAND, shown(lang))
    assert said == meant
    if meant is not None:
        assert parse(meant, A_HAND) == parse(suggest(typed, A_HAND) or "", A_HAND)


def test_no_typed_word_of_one_move_is_another_s_near_miss() -> None:
    """Every word the tables hold, typed alone or as a discard's verb, reads as its own move:
    a new language's word («bota», «jette», «mus ez») never makes another ambiguous, and no
    word gets a suggestion (it is no near miss)."""
    for phrase, action in words.FIXED_PHRASES.items():
        assert parse(phrase) == action and suggest(phrase) is None, phrase
    for verb in words.DISCARD_VERBS:
        typed = " ".join(verb)
        assert parse(f"{typed} 1 3", A_HAND) == descarte(A_HAND[0], A_HAND[2]), typed
        for other in (*words.FIXED_PHRASES, *words.ENVIDO_VERBS, *words.RAISE_VERBS):
            assert typed != other
    for word in words.ALL_CARDS_WORDS:
        assert parse(f"descarto {word}", A_HAND) == descarte(*A_HAND), word


@pytest.mark.parametrize("typed", [
    "hola", "mis", "vale", "me voy a cenar", "todo bien", "quiero decir", "mas o menos", "",
    "envido", "no quiero",  # moves already: nothing to suggest
    "envido 1",  # a near miss of its own, answered with its reason
    "envdo 1",  # the guess would not be a move either
])
def test_no_suggestion_without_a_close_move(typed: str) -> None:
    assert suggest(typed, A_HAND) is None


def test_vocabulary_comes_from_the_word_tables() -> None:
    words = {canonical_words: others for canonical_words, others in vocabulary()}
    assert words["no hay mus"] == ("no mus", "corto", "mintza", "ez dago mus", "mus ez", "cut")
    assert words["quiero"] == ("iduki", "idoki", "eduki", "kanta", "call")
    assert "echo órdago" in words["órdago"] and "hordago" in words["órdago"]
    assert "descarto 1 3, descarto 1o 12c" in words
    assert "bota 1 3" in words["descarto 1 3, descarto 1o 12c"]


@pytest.mark.parametrize(("lang", "first"), [
    ("es", ["mus", "no hay mus", "paso", "envido, envido 5", "3 más", "quiero", "no quiero",
            "órdago", "descarto 1 3, descarto 1o 12c", "descarto todas"]),
    ("eu", ["mus", "mintza", "paso", "imido, 5 tanto imido", "3 gehiago", "iduki", "tira",
            "hordago", "bota 1 3, bota 1o 12c", "bota denak"]),
    ("fr", ["mus", "mintza", "paso", "imido, 5 tantos imido", "3 tantos gehiago", "iduki",
            "tira", "hordago", "jette 1 3, jette 1o 12c", "jette tout"]),
])
def test_the_help_lists_the_reader_s_words_first(lang: str, first: list[str]) -> None:
    """Issue 46: the help put «no hay mus, … descarto» first, the Basque words in brackets;
    now each move first in the words the reader's table shows, the Spanish among the others,
    every word still listed once."""
    from musbot.table.render import shown

    entries = vocabulary(shown(lang))
    assert [words for words, _ in entries] == first
    spanish = dict(vocabulary())
    for (mine, others), (canonical, theirs) in zip(entries, spanish.items(), strict=True):
        listed = [*mine.split(", "), *others]
        assert len(listed) == len(set(listed))
        if canonical.startswith("descarto todas"):  # said with the reader's verb
            continue
        assert {*canonical.split(", "), *theirs} <= set(listed)


@pytest.mark.parametrize(("text", "expected"), [
    ("idoki", QUIERO), ("eduki", QUIERO), ("iduki", QUIERO), ("kanta", QUIERO),
    ("tira", NO_QUIERO), ("mintza", NO_HAY_MUS), ("hordago", ORDAGO),
])
def test_basque_calls_are_understood_in_every_regional_form(text: str, expected: Action) -> None:
    """Issue 25: idoki (not accepted before), eduki (batua) and the Iparralde iduki/kanta."""
    assert parse(text) == expected


@pytest.mark.parametrize("lance", ["handia", "haundia", "txikia", "tipia", "pareak", "pariak",
                                   "jokoa", "jokua", "puntua", "pundua"])
def test_a_basque_lance_name_after_a_call_is_read_as_the_lance_named(lance: str) -> None:
    """Both regional forms of each lance (docs/glossary.md) name it as «grande» does."""

    def outcome(text: str) -> object:
        try:
            return parse(text)
        except MusError as refused:
            return refused.code

    for said in ("envido a", "órdago a la", "paso", "quiero"):
        assert outcome(f"{said} {lance}") == outcome(f"{said} grande"), said

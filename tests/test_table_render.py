"""Rendering: scores in tantos and amarracos, cards with suit emoji, status, private hand text."""

from __future__ import annotations

from helpers_rules import cards
from table_helpers import ANY_CARD

from musbot.engine import ENVIDO, NO_HAY_MUS, NO_QUIERO, Hand, Lance, Rules, parse_card
from musbot.engine import events as ev
from musbot.table import render, status

NAMES = {0: "Ana", 1: "Bea", 2: "Carlos", 3: "Dani"}


def a_hand() -> Hand:
    return Hand(Rules(), [cards("12o 12c 3e 1b"), cards("4o 5c 6e 7b"), cards("4c 5e 6b 7o"),
                          cards("4e 5b 6o 7c")], cards("10o 10c"), mano=0)


def test_tantos_amarracos_and_dentro() -> None:
    # docs/rules.md §5: amarracos of 5 tantos; a pair at target − 5 or more is «dentro».
    assert render.tantos_text(23, 40) == "23 tantos (4 amarracos y 3)"
    assert not render.tantos_text(34, 40).endswith("dentro")
    assert render.tantos_text(35, 40).endswith("— dentro")
    assert render.score_text((35, 2), 40, 4).startswith("Pareja 1: 35 tantos (7 amarracos y 0)")


def test_cards_with_suit_emoji() -> None:
    assert render.card_text(parse_card("12o")) == "12🪙"
    assert render.card_text(parse_card("7e")) == "7🗡️"
    assert render.cards_text(cards("1c 10b")) == "1🍷 10🪵"
    assert render.card_name(parse_card("11b")) == "caballo de bastos"


def lines_of(events: list[ev.Event], **options: object) -> list[str]:
    return [line for event in events
            for line in render.event_lines(event, NAMES, players=4, target=40, **options)]


def test_the_showdown_is_where_cards_appear() -> None:
    events = [ev.LanceEnded(Lance.GRANDE, "deje", 0, 1),
              ev.Showdown(((0, 1, 2, 3),) * 4, {"grande": 0}),
              ev.HandEnded((3, 0), None)]
    lines = lines_of(events)
    assert lines[0] == "Grande: no quiero; la pareja 1 (Ana y Carlos) se lleva 1."
    assert lines[1] == "🂠 Se enseñan las cartas:"
    assert "Ana: 1🪙 2🪙 3🪙 4🪙" in lines


def test_status_shows_bet_and_turn_but_no_cards() -> None:
    hand = a_hand()
    hand.apply(0, NO_HAY_MUS)
    hand.apply(0, ENVIDO)
    shown = status.status_text(hand.view(0), NAMES, {1: "(bot)"}, Rules())
    assert "Lance: Grande." in shown
    assert "Envite en pie: 2, de Ana." in shown
    assert "Habla Bea." in shown
    assert "Asiento 2: Bea (bot)" in shown
    assert not ANY_CARD.search(shown)


def test_private_hand_text() -> None:
    hand = a_hand()
    text = render.hand_text(hand.view(0), NAMES)
    assert "1. 12🪙 rey de oros" in text and "4. 1🪵 as de bastos" in text
    assert "Señas que puedes hacer: dos reyes, tres reyes, medias, treinta y una, solomillo." \
        in text
    assert "Te toca hablar: mus, no hay mus." in text
    assert "Te toca" not in render.hand_text(hand.view(1), NAMES)


def test_private_text_follows_the_variant_of_each_table() -> None:
    """docs/rules.md §1 and §7: with 8 reyes a 3 is a rey, with 4 it is a 3. The hand text's parts
    are cached across tables, so the same cards at tables of both variants must still differ, in
    either order, and in every language."""
    deal = [cards("3o 3c 12e 10e"), cards("4o 5c 6e 7b"), cards("4c 5e 6b 7o"),
            cards("4e 5b 6o 7c")]

    def text(reyes: int, lang: str = "es") -> str:
        hand = Hand(Rules(reyes=reyes), deal, cards("10o 10c"), mano=0)  # type: ignore[arg-type]
        return render.hand_text(hand.view(0), NAMES, lang=lang)

    for _ in range(2):
        assert "Señas que puedes hacer: dos reyes, tres reyes, medias." in text(8)
        assert "Tu mano no muestra ninguna seña." in text(4)
        assert "1. 3🪙 tres de oros" in text(4) and "1. 3🪙 tres de oros" in text(8)
    english = text(8, "en")
    assert "Señas que puedes hacer" not in english and "tres de oros" not in english


def test_lines_for_betting() -> None:
    hand = a_hand()
    hand.apply(0, NO_HAY_MUS)
    hand.apply(0, ENVIDO)
    hand.apply(1, NO_QUIERO)
    hand.apply(3, NO_QUIERO)
    lines = lines_of(hand.events)
    assert "Ana: no hay mus." in lines
    assert "— Grande —" in lines
    assert "Ana: envido (van 2)." in lines
    assert "Grande: no quiero; la pareja 1 (Ana y Carlos) se lleva 1." in lines


def test_english() -> None:
    assert render.tantos_text(7, 40, "en") == "7 tantos (1 amarraco and 2)"
    line = render.event_lines(ev.MatchWon(1), NAMES, players=4, target=40, lang="en")
    assert line == ["🎉 Match to pair 2 (Bea and Dani)!"]


def test_with_8_reyes_a_3_and_a_2_say_what_they_count_as() -> None:
    """docs/rules.md §1, where the player's cards are listed; with 4 reyes they are plain cards."""
    deal = [cards("3o 2c 12e 1e"), cards("4o 5c 6e 7b"), cards("4c 5e 6b 7o"),
            cards("4e 5b 6o 7c")]

    def text(reyes: int, lang: str = "es") -> str:
        hand = Hand(Rules(reyes=reyes), deal, cards("10o 10c"), mano=0)  # type: ignore[arg-type]
        return render.hand_text(hand.view(0), NAMES, lang=lang)

    assert "1. 3🪙 tres de oros (vale como rey)\n2. 2🍷 dos de copas (vale como as)\n" \
           "3. 12🗡️ rey de espadas\n4. 1🗡️ as de espadas\n" in text(8)
    assert "2. 2🍷 two of copas (counts as an ace)" in text(8, "en")
    assert "vale como" not in text(4) and "1. 3🪙 tres de oros\n" in text(4)


def test_a_won_game_tells_the_games_count() -> None:
    """§6: the count of games after the one just won (the engine's event carries it), even
    when it wins a vaca (the match then sets the games back to 0–0)."""
    def won(events: list[ev.Event]) -> list[str]:
        return [line for line in lines_of(events) if line.startswith(("🏆", "🐄"))]

    assert won([ev.GameWon(1, False, (0, 1)), ev.HandEnded((30, 40), 1)]) == [
        "🏆 ¡Juego para la pareja 2 (Bea y Dani)! Juegos 0–1."]
    assert won([ev.GameWon(0, True, (3, 1)), ev.HandEnded((3, 0), 0), ev.VacaWon(0, (1, 0))]
               ) == ["🏆 ¡Órdago ganado: juego para la pareja 1 (Ana y Carlos)! Juegos 3–1.",
                     "🐄 ¡Vaca para la pareja 1 (Ana y Carlos)! Vacas 1–0."]


def test_counted_words_agree_with_their_number() -> None:
    assert render.tantos_text(1, 40) == "1 tanto", "no amarraco said before the first"
    assert render.tantos_text(7, 40) == "7 tantos (1 amarraco y 2)"
    assert render.tantos_text(5, 40) == "5 tantos (1 amarraco y 0)"
    assert status.rules_text(Rules(juegos=1, vacas=1)).splitlines()[0] == \
        "Mesa de 4 · a 40 tantos · 1 juego por vaca · 1 vaca"
    assert status.rules_text(Rules(puntos=1, vacas=2), "en").splitlines()[0] == \
        "4-player table · to 1 tanto · 3 games a vaca · 2 vacas"


def test_the_status_is_read_as_public_facts_the_same_from_every_seat() -> None:
    """The status of a match is read from a view as ``StatusFacts``: every seat's view gives
    the same facts, so they hold nothing one seat knows and another does not (no card), and
    the lines worded from them are the ones the public view gives (docs/rules.md §4)."""
    hand = a_hand()
    hand.apply(0, NO_HAY_MUS)
    hand.apply(0, ENVIDO)
    facts = {status.status_facts(hand.view(seat)) for seat in (-1, 0, 1, 2, 3)}
    assert len(facts) == 1
    (shown,) = facts
    assert (shown.lance, shown.bet, shown.bettor, shown.to_act) == (Lance.GRANDE, 2, 0, 1)
    lines = status.facts_lines(shown, tuple(NAMES.items()), "es")
    assert list(lines) == status.status_lines(hand.view(-1), NAMES)
    assert "Envite en pie: 2, de Ana." in lines and "Habla Bea." in lines
    assert not any(ANY_CARD.search(line) for line in lines)

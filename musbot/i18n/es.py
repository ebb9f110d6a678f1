"""Spanish: the bot's first language."""

NOBODY = "nadie"
SEAT = "el asiento {seat}"
LANCES = ("Grande", "Chica", "Pares", "Juego", "Punto")

ERRORS = {
    "error": "No se puede hacer eso.",
    "hand_over": "La mano ya ha terminado.",
    "match_over": "La partida ya ha terminado.",
    "no_such_seat": "No hay {seat} en esta mesa.",
    "not_your_turn": "No es tu turno: habla {to_act}.",
    "pares_only": "Solo pueden envidar a pares quienes los tienen.",
    "juego_only": "Solo pueden envidar a juego quienes lo tienen.",
    "betting_now": "Ahora se apuesta a {lance}: paso, envido, órdago, quiero o no quiero.",
    "mus_now": "Ahora se habla de mus: di «mus» o «no hay mus».",
    "discard_now": "Ahora toca descartarse: «descarto 1 3» o «descarto 1o 12c».",
    "discard_none": "Hay que descartarse de al menos una carta.",
    "discard_repeated": "Has nombrado la misma carta dos veces.",
    "discard_not_held": "No tienes el {card}.",
    "min_bet": "El envite mínimo es de 2 tantos (has dicho {amount}).",
    "ordago_no_raise": "Nada sube un órdago: quiero o no quiero.",
    "no_bet_to_raise": "No hay envite que subir: di «envido» o «envido N».",
    "no_bet_to_answer": "No hay envite que querer: puedes pasar, envidar o echar órdago.",
    "bad_amount": "No entiendo la cantidad «{word}»: el envite es de 2 tantos o más.",
    "amount_too_low": "El envite mínimo es de 2 tantos (has dicho {amount}).",
    "bad_position": "Las cartas se numeran del 1 al {count}: «{word}» no vale.",
    "bad_card": "«{card}» no es una carta: usa rango y palo, como 1o, 7e, 10c o 12b.",
    "card_twice": "La carta {card} aparece dos veces.",
    "discard_empty": "¿De qué cartas te descartas? Por ejemplo «descarto 1 3».",
    "positions_need_hand": "Para descartar por posición hace falta ver la mano.",
    "wrong_players": "Se necesitan 2, 4 o 6 manos, y hay {count}.",
    "wrong_hand_size": "La mano de {seat} tiene {count} cartas; deben ser 4.",
    "bad_mano": "La mano ({mano}) no es un asiento de la mesa.",
    "reshuffle_mismatch": "El rebarajado {number} no son los descartes: debían ser {expected}.",
    "deck_exhausted": "No quedan cartas para dar.",
    "unknown_word": "No entiendo «{word}».",
}

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
    "lance_named": "Siempre se habla del lance que se está jugando: di solo «{word}».",
    "unknown_word": "No entiendo «{word}».",
}

# --- table layer: señas, table management, turn timer (musbot.table) ---------------------------

ERRORS.update({
    "unknown_sena": "No conozco la seña «{word}».",
    "sena_not_shown": "Tu mano no muestra «{sena}»: no se permiten señas falsas.",
    "senas_off": "En esta mesa se juega sin señas.",
    "senas_corrido": "Mano corrida y sin señas: no se pueden hacer señas.",
    "sena_repeated": "Ya has hecho esa seña con estas cartas.",
    "sena_no_hand": "Ahora no hay cartas en juego.",
    "not_seated": "No estás sentado en esta mesa.",
    "already_seated": "Ya estás sentado en el asiento {seat}.",
    "table_full": "La mesa está llena.",
    "pair_full": "Esa pareja está completa.",
    "bad_pair": "No existe la pareja {pair}: son la 1 y la 2.",
    "already_started": "La partida ya ha empezado.",
    "not_started": "La partida no ha empezado.",
    "no_humans": "Hace falta al menos una persona sentada para empezar.",
    "not_finished": "La partida no ha terminado: la revancha, al final.",
    "table_closed": "La mesa está cerrada.",
    "bad_timeout": "El tiempo por turno va de 15 a 600 segundos.",
    "table_exists": "Ya hay una mesa en este canal.",
    "no_table": "No hay ninguna mesa en este canal.",
    "not_away": "No estabas ausente: sigues jugando.",
    "unknown_level": "No hay bots de nivel «{level}».",
})

TABLE = {
    # Events, in the order they happen.
    "hand_started": "🃏 Nueva mano: es mano {mano}.",
    "hand_started_corrido": "🃏 Nueva mano, mus corrido y sin señas: empieza {mano}.",
    "mus": "{name}: mus.",
    "no_hay_mus": "{name}: no hay mus.",
    "mano_changed": "{name} corta y pasa a ser mano.",
    "discarded": "{name} se descarta de {count}.",
    "replaced": "Se reparten los descartes: otra ronda de mus.",
    "reshuffled": "Se acaba el mazo: se barajan los descartes.",
    "lance_started": "— {lance} —",
    "declared": "{lance}: {list}.",
    "declared_yes": "{name} sí",
    "declared_no": "{name} no",
    "no_betting_none": "{lance}: nadie tiene; no se juega.",
    "no_betting_team": "{lance}: solo tiene {pair}; no hay envite.",
    "spoke": "{name}: {words}.",
    "spoke_total": "{name}: {words} (van {total}).",
    "spoke_ordago": "{name}: ¡órdago!",
    "turn": "➡️ Habla {name}.",
    "lance_paso": "{lance}: en paso.",
    "lance_querido": "{lance}: querido a {tantos}; se verá al final.",
    "lance_deje": "{lance}: no quiero; {pair} se lleva {tantos}.",
    "lance_ordago": "{lance}: ¡órdago querido!",
    "showdown": "🂠 Se enseñan las cartas:",
    "showdown_hand": "{name}: {cards}",
    "showdown_winners": "Mejor jugada: {list}.",
    "showdown_winner": "{lance} {name}",
    "scored": "{lance}: +{tantos} para {pair} ({kind}). {score}",
    "game_won": "🏆 ¡Juego para {pair}!",
    "game_won_ordago": "🏆 ¡Órdago ganado: juego para {pair}!",
    "hand_ended": "Fin de la mano. {score}",
    "vaca_won": "🐄 ¡Vaca para {pair}! Vacas {a}–{b}.",
    "match_won": "🎉 ¡Partida para {pair}!",
    # Scores and status.
    "pair": "la pareja {label} ({names})",
    "pair_label": "Pareja {label}",
    "and": " y ",
    "score_line": "{a} · {b}",
    "score": "{label}: {tantos}",
    "tantos": "{tantos} tantos ({amarrakos} amarrakos y {resto})",
    "dentro": " — dentro",
    "status_rules": (
        "Mesa de {players} · a {target} tantos · {juegos} juegos por vaca · {vacas} vaca(s)"
    ),
    "status_seat": "Asiento {seat}: {name}",
    "status_free": "(libre)",
    "status_bot": "(bot)",
    "status_away": "(ausente: juega un bot)",
    "status_games": "Juegos {a}–{b} · vacas {c}–{d}",
    "status_mano": "Es mano {name}.",
    "status_mus": "Se habla de mus.",
    "status_descarte": "Descartes.",
    "status_lance": "Lance: {lance}.",
    "status_bet": "Envite en pie: {bet}, de {name}.",
    "status_ordago": "Órdago en pie, de {name}.",
    "status_turn": "Habla {name}.",
    "status_waiting": "Esperando jugadores. Parejas: 1.ª con 3.ª, 2.ª con 4.ª.",
    "status_finished": "Partida terminada.",
    "variants": "Variantes: {list}.",
    "variant_reyes": "{reyes} reyes",
    "variant_real": "la real",
    "variant_corrido": "mus corrido",
    "variant_sin_senas": "sin señas",
    # Table management.
    "joined": "{name} se sienta en el asiento {seat}, en {pair}.",
    "took_bot_seat": "{name} ocupa el asiento {seat}, que jugaba un bot.",
    "left": "{name} se levanta de la mesa.",
    "left_bot": "{name} se va: un bot juega por su asiento.",
    "bot_added": "Un bot ({level}) se sienta en el asiento {seat}.",
    "bot_name": "Bot {seat}",
    "started": "¡Empieza la partida!",
    "rematch": "¡Revancha! Empieza otra partida.",
    "closed": "Se cierra la mesa.",
    "closed_empty": "No queda nadie: se cierra la mesa.",
    "timeout_set": "Tiempo por turno: {seconds} s.",
    # Turn timer.
    "reminder": "⏰ {mention}, te quedan {seconds} s para hablar.",
    "expired": "⏰ Se acabó el tiempo de {name}: juega un bot por esta vez.",
    "away": "{name} no responde: un bot juega por su asiento hasta que escriba «vuelvo».",
    "back": "{name} vuelve a la mesa.",
    "dm_closed": "{mention}, no puedo enviarte mensajes privados: pulsa «Ver mis cartas».",
    # Private text.
    "your_cards": "Tus cartas:",
    "card_line": "{n}. {card}",
    "you_are": "Asiento {seat}, {pair}. Es mano {mano}.",
    "senas_allowed": "Señas que puedes hacer: {list}.",
    "senas_none": "Tu mano no muestra ninguna seña.",
    "senas_not_now": "Ahora no se pueden hacer señas.",
    "senas_received": "Señas recibidas:",
    "sena_partner": "👀 {name} {gesture} ({sena}).",
    "sena_caught": "👀 Has cazado una seña de {name}: {gesture} ({sena}).",
    "your_turn": "Te toca hablar: {words}.",
    "discard_hint": "descarto 1 3 (por número)",
    "revealed": "Cartas de todos:",
}

RANK_NAMES = {1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
              10: "sota", 11: "caballo", 12: "rey"}
SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
CARD_NAME = "{rank} de {suit}"
SCORE_KINDS = {"deje": "deje", "apuesta": "envite", "paso": "en paso", "base": "por tener",
               "punto": "punto", "ordago": "órdago"}
SENA_GESTURES: dict[str, str] = {}
"""Empty: the Spanish gestures are the catalog's own (musbot.engine.senas)."""

TERMINAL = {
    "you": "Tú",
    "private": "🔒 {text}",
    "reply": "⚠️ {text}",
    "prompt": "> ",
    "unknown": "No es una jugada. Escribe «ayuda» para ver las órdenes.",
    "sena_sent": "Seña enviada: {sena}.",
    "bye": "Hasta la próxima.",
    "help": (
        "Órdenes: mus, no hay mus, descarto 1 3 (por número), paso, envido, envido 5, 3 más,\n"
        "órdago, quiero, no quiero · cartas (ver tu mano) · mesa (estado) ·\n"
        "seña NOMBRE (p. ej. «seña dos reyes») · salir"
    ),
}

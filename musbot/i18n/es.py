"""Spanish: the bot's first language. Data only, one catalogue per concern (``ERRORS``, ``TABLE``,
``DISCORD``, ``SERVER``, ``CLI``…): its length is the number of sentences the bot says, and
``tests/test_i18n.py`` keeps it key for key with the other languages."""

NAME = "español"
"""The language by its own name."""
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
    "betting_now": "Ahora se apuesta a {lance}.",
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
    "already_seated": "Ya estás sentado en el asiento {number}.",
    "table_full": "La mesa está llena.",
    "pair_full": "Esa pareja está completa.",
    "bad_pair": "No existe la pareja {pair}: son la 1 y la 2.",
    "already_started": "La partida ya ha empezado.",
    "not_started": "La partida no ha empezado.",
    "no_humans": "Hace falta al menos una persona sentada para empezar.",
    "not_finished": "La partida no ha terminado: la revancha, al final.",
    "table_closed": "La mesa está cerrada.",
    "bad_timeout": "El tiempo por turno es 0 (sin límite) o de {low} a {high} segundos.",
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
    "game_won": "🏆 ¡Juego para {pair}! Juegos {a}–{b}.",
    "game_won_ordago": "🏆 ¡Órdago ganado: juego para {pair}! Juegos {a}–{b}.",
    "hand_ended": "Fin de la mano. {score}",
    "vaca_won": "🐄 ¡Vaca para {pair}! Vacas {a}–{b}.",
    "match_won": "🎉 ¡Partida para {pair}!",
    # Scores and status.
    "pair": "la pareja {label} ({names})",
    "pair_label": "Pareja {label}",
    "and": " y ",
    "score_line": "{a} · {b}",
    "score": "{label}: {tantos}",
    "tantos": "{tantos} ({amarrakos} y {resto})",
    "dentro": " — dentro",
    "status_rules": "Mesa de {players} · a {target} · {juegos} por vaca · {vacas}",
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
    "unnamed_seat": "Asiento {seat}",
    "name_in_seat": "{name} (asiento {seat})",
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
SENA_GESTURES = {
    # docs/rules.md §7: what the receiver of each seña sees.
    "dos reyes": "se muerde el labio inferior",
    "tres reyes": "se muerde el labio inferior hacia un lado",
    "dos ases": "saca la punta de la lengua",
    "tres ases": "saca la punta de la lengua hacia un lado",
    "medias": "tuerce los labios hacia un lado",
    "duples": "levanta las cejas",
    "treinta y una": "guiña un ojo",
    "treinta": "levanta los hombros",
    "solomillo": "frunce los labios como para un beso",
    "ciego": "cierra los ojos",
    "la real": "se toca el lóbulo de la oreja",
}

TERMINAL = {
    "you": "Jugador",
    "private": "🔒 {text}",
    "reply": "⚠️ {text}",
    "prompt": "> ",
    "unknown": "No es una jugada. Escribe «ayuda» para ver las órdenes.",
    "sena_sent": "Seña enviada: {sena}.",
    "bye": "Hasta la próxima.",
}

# --- Discord: buttons, DMs, command answers (musbot.discordio, cogs) ---------------------------

DISCORD = {
    "table_title": "🃏 Mesa de mus",
    "table_closed": "Mesa cerrada.",
    "table_footer": (
        "Escribe las jugadas en el canal (mus, paso, envido 5, quiero…) o usa los botones."
    ),
    "btn_join": "Sentarme (pareja {pair})",
    "btn_join_any": "Sentarme",
    "btn_bot": "Añadir bot",
    "btn_start": "Empezar",
    "btn_cards": "Ver mis cartas",
    "btn_back": "Volver",
    "btn_rematch": "Revancha",
    "btn_mus": "Mus",
    "btn_no_hay_mus": "No hay mus",
    "btn_paso": "Paso",
    "btn_envido": "Envido",
    "btn_envido_n": "Envido N…",
    "btn_mas": "Envido más",
    "btn_ordago": "Órdago",
    "btn_quiero": "Quiero",
    "btn_no_quiero": "No quiero",
    "btn_discard": "Descartar ({count})",
    "modal_title": "Envido",
    "modal_label": "¿Cuántos tantos? (2 o más)",
    "dm_header": "🃏 **{guild}** · #{channel}",
    "discard_prompt": "Descartes: pulsa las cartas que dejas y luego «Descartar».",
    "stale_cards": "Esas cartas ya no son las tuyas: pulsa «Ver mis cartas» otra vez.",
    "not_seated_hint": "{mention}, no estás sentado en esta mesa: «/mus unirse» para jugar.",
    "only_opener": "Solo quien abrió la mesa o quien gestiona el canal puede cerrarla.",
    "done": "Hecho.",
    "no_table_dm": "No estás sentado en ninguna mesa.",
    "dm_unknown": (
        "Por privado puedo: «descarto 1 3», «seña dos reyes», «cartas», «vuelvo» y las jugadas."
    ),
    "sena_sent": "Seña enviada: {sena}.",
    "guild_only": "Las mesas se abren en un canal de un servidor.",
    "help": (
        "**Mus** · /mus mesa abre una mesa en este canal · /mus unirse [pareja] · "
        "/mus bot [pareja] · /mus empezar · /mus salir · /mus cerrar · /mus reglas\n"
        "En el canal, cuando te toca: mus, no hay mus, paso, envido, envido 5, 3 más, órdago, "
        "quiero, no quiero (o los botones).\n"
        "Por privado o con «Ver mis cartas»: descarto 1 3 · seña dos reyes · cartas · vuelvo."
    ),
    "no_token": (
        "Falta DISCORD_TOKEN: el bot no puede conectarse a Discord.\n"
        "1. Entra en https://discord.com/developers/applications y crea una aplicación.\n"
        "2. En «Bot», pulsa «Reset Token» y copia el token.\n"
        "3. En «Bot» → «Privileged Gateway Intents», activa «Message Content Intent» "
        "(sin él se juega solo con botones y comandos /).\n"
        "4. Copia el Application ID a .env (DISCORD_CLIENT_ID) y abre el enlace de "
        "«musbot invite».\n"
        "5. Copia .env.example a .env y pon DISCORD_TOKEN=el-token.\n"
        "Mientras tanto, juega en la terminal: musbot play"
    ),
    "bad_token": "Discord no acepta ese DISCORD_TOKEN: genera otro en el Developer Portal.",
    "bad_config": "Configuración no válida: {error}",
    "intent_missing": (
        "El intent «Message Content» no está activado en el Developer Portal: las jugadas "
        "escritas en el canal no llegarán. Se juega con botones y comandos /. Actívalo en "
        "Bot → Privileged Gateway Intents y reinicia el bot."
    ),
}

# --- restart safety and match records (musbot.table.persist) -----------------------------------

TABLE.update({
    "restored": "♻️ Mesa restaurada: el bot se ha reiniciado y la partida sigue donde estaba.",
    "ratings": "📈 Puntuación de liga: {list}.",
    "rating_change": "{name} {before} → {after} ({delta:+d})",
    "forgotten_name": "Jugador {seat}",
})

# --- leagues, profiles, server settings, privacy, welcome, invite (cogs, musbot.invite) -------

SERVER = {
    # Permissions and storage failures: private answers, nothing is lost.
    "guild_only": "Esto solo se puede hacer en un servidor.",
    "need_manage_guild": "Solo quien tiene el permiso «Gestionar servidor» puede hacer esto.",
    "db_locked": "La base de datos está ocupada ahora mismo; inténtalo dentro de un momento. "
                 "No se ha perdido nada.",
    "db_corrupt": "La base de datos está dañada: la administración del bot debe restaurar una "
                  "copia. No se ha modificado nada.",
    "db_too_new": "La base de datos es de una versión más nueva de musbot: hay que actualizar "
                  "el bot. No se ha modificado nada.",
    "db_closed": "La base de datos no está disponible: no se pudo abrir al arrancar y el bot "
                 "sigue intentándolo (su registro dice por qué). No se ha perdido nada.",
    "db_error": "No se ha podido guardar: {error}",
    # Leagues.
    "unknown_league": "No hay ninguna liga «{name}» en este servidor. Ligas: {leagues}.",
    "no_leagues": "ninguna (créala con /liga crear)",
    "league_exists": "Ya existe una liga «{name}» en este servidor.",
    "league_bad_name": "La liga necesita un nombre.",
    "league_created": "🏆 Liga «{name}» creada: empieza la temporada 1. Únete con /liga unirse.",
    "league_joined": "Te has unido a la liga «{name}».",
    "already_member": "Ya eres de la liga «{name}».",
    "season_new": "🏆 Liga «{name}»: cerrada la temporada {old} (su tabla se conserva); "
                  "empieza la temporada {new}.",
    "standings_title": "**{name}** · temporada {season}{closed}",
    "standings_closed": " (cerrada)",
    "standings_header": "#|Jugador|PJ|G|P|±J|±T|Puntos",
    "standings_empty": "Nadie ha jugado todavía en esta temporada.",
    "more_rows": "… y {count} más.",
    "unknown_season": "La liga «{name}» no tiene temporada {season}.",
    "results_title": "**{name}** · últimas partidas",
    "results_empty": "Todavía no hay partidas terminadas en esta liga.",
    "result_line": "{date} · {winners} ganan a {losers} · juegos {games} · tantos {tantos}{rated}",
    "result_rated": " · puntúa",
    "unnamed": "(anónimo)",
    "bot_seat": "bot",
    "no_table": "No hay ninguna mesa en este canal: ábrela con /mus mesa.",
    "table_league": "Esta mesa cuenta para la liga «{name}»: los resultados entran en su tabla "
                    "(y, sin bots, en la puntuación).",
    "table_friendly": "Esta mesa ya no cuenta para ninguna liga: es amistosa.",
    "table_started": "La partida ya ha empezado: la liga se elige antes de empezar.",
    "table_not_yours": "Solo quien está sentado en la mesa o gestiona el servidor puede elegir "
                       "su liga.",
    # Profiles.
    "profile_title": "**{name}**{league}",
    "profile_league": " · liga «{name}»",
    "profile_matches": "Partidas: {matches} ({won} ganadas, {lost} perdidas){rate}",
    "profile_rate": " · {rate:.0%} de victorias",
    "profile_partner": "Pareja favorita: {name} ({matches} partidas, {won} ganadas)",
    "profile_no_partner": "Pareja favorita: todavía ninguna",
    "profile_ordagos": "Órdagos: {won} ganados, {lost} perdidos",
    "profile_rating": "Puntuación: {rating}",
    "profile_unrated": "Puntuación: sin partidas puntuables esta temporada",
    "profile_nothing": "{name} todavía no ha terminado ninguna partida.",
    # Server settings.
    "config_title": "⚙️ Configuración de este servidor (para las mesas nuevas):",
    "config_rules": "Reglas: {reyes} reyes · a {puntos} tantos · {juegos} juegos por vaca · "
                    "{vacas} vaca(s) · real: {real} · mus corrido: {corrido} · señas: {senas} "
                    "· seña cazada: {cazada}%",
    "config_timer": "Tiempo por turno: {seconds} s",
    "config_timer_off": "Tiempo por turno: sin límite",
    "config_language": "Idioma: {language}",
    "config_channels": "Canales para mesas: {channels}",
    "config_all_channels": "todos",
    "config_saved": "Guardado. Las mesas que ya están abiertas siguen con sus reglas.",
    "yes": "sí",
    "no": "no",
    "channel_not_allowed": "En este servidor las mesas se abren en: {channels}.",
    # Privacy.
    "forget_confirm": "Esto borra tu nombre, tus puntuaciones, tus ligas y lo que los bots han "
                      "aprendido de cómo apuestas; tus partidas pasadas quedan como anónimas. "
                      "Para confirmarlo: /mus olvidarme confirmar:True",
    "forget_done": "Hecho: musbot te ha olvidado. Si vuelves a jugar, empezarás de cero.",
    "forget_unknown": "musbot no guarda nada tuyo.",
    # Welcome.
    "welcome": (
        "¡Hola! Soy **musbot**: mus, el de las parejas, los envites y las señas. Abre una mesa "
        "con **/mus mesa**, siéntate con **/mus unirse** y los bots llenan los huecos. "
        "Ayuda: **/mus ayuda** · configuración: **/mus config**."
    ),
    # musbot invite (command line).
    "invite_no_client_id": (
        "Falta el id de la aplicación: «musbot invite ID» o DISCORD_CLIENT_ID en el entorno o "
        "en .env. Está en https://discord.com/developers/applications → tu aplicación → "
        "General Information → Application ID."
    ),
    "invite_bad_client_id": "«{client_id}» no es un id de aplicación (son solo cifras).",
}

# --- Discord as it really behaves: pages, one error path, restored tables ---------------------

ERRORS.update({
    "only_opener": "Solo quien abrió la mesa o quien gestiona el canal puede cerrarla.",
    "channel_not_allowed": "En este servidor las mesas se abren en: {channels}.",
    "bad_rules": "Esas reglas no valen: {error}",
    # Why (musbot.engine.rules): worded into bad_rules.
    "rules_reyes": "reyes debe ser 4 u 8",
    "rules_jugadores": "se juega con 2, 4 o 6 jugadores",
    "rules_puntos": "puntos debe estar entre 1 y 1000",
    "rules_juegos_vacas": "juegos y vacas deben ser al menos 1",
    "rules_sena_cazada": "seña cazada es una probabilidad entre 0 y 1",
    "table_restoring": (
        "Tu mesa se está restaurando tras un reinicio del bot: repite en unos segundos."
    ),
})

TABLE.update({
    "closed_gone": (
        "Se cierra tu mesa de mus: su canal ya no existe (o el bot ya no está en ese servidor). "
        "La partida no cuenta."
    ),
})

DISCORD.update({
    "hand_title": "🃏 Mano {number}",
    "table_opened": "Mesa abierta: su mensaje está en el canal.",
    "table_shown": "La mesa está otra vez al final del canal.",
    "which_table": "(mesa de #{channel} en {guild})",
    "slow_down": "Demasiado deprisa: espera {seconds} s.",
    "bad_range": "«{value}» no vale: tiene que estar entre {low} y {high}.",
    "missing_argument": "Falta «{name}».",
    "bad_argument": "No entiendo una de las opciones: revisa los valores de la orden.",
    "command_stale": (
        "Esa orden ya no existe: Discord actualizará la lista de órdenes en unos minutos."
    ),
    "bot_forbidden": (
        "No tengo permiso para hacer eso aquí: pide a quien gestiona el servidor que me deje "
        "ver el canal, enviar mensajes e insertar enlaces."
    ),
    "unexpected": (
        "Algo ha fallado por nuestra parte; no se ha perdido nada de la partida. "
        "Inténtalo de nuevo."
    ),
})

SERVER.update({
    "need_permission": "No tienes permiso para hacer esto aquí.",
})

# --- musbot replay (musbot.replay): why a transcript is refused, docs/replay.md ----------------
# Seats and pairs are those of the transcript's JSON, numbered from 0.

REPLAY = {
    # Reading the file.
    "source_file": "El fichero «{path}»",
    "source_stdin": "La entrada estándar",
    "read_missing": "No se puede leer «{path}»: no existe.",
    "read_directory": "No se puede leer «{path}»: es una carpeta, no un fichero.",
    "read_denied": "No se puede leer «{path}»: no hay permiso para leerlo.",
    "read_failed": "No se puede leer «{path}».",
    "not_utf8": "{source} no está en UTF-8: el byte {position} no es válido.",
    "not_json": "{source} no es JSON válido: hay un error en la línea {line}, columna {column}.",
    "json_constant": "{source} no es JSON válido: {word} no existe en JSON.",
    "repeated_key": "{source} repite la clave «{key}» en un mismo objeto: no se sabe cuál vale.",
    "too_deep": "{source} anida demasiadas listas u objetos para leerlo.",
    "number_too_long": "{source} tiene un número demasiado largo para leerlo.",
    # A value of the transcript inside a sentence.
    "found_object": "un objeto",
    "found_list": "una lista",
    "did_you_mean": " (¿querías decir «{key}»?)",
    # The shape of the transcript.
    "not_object": "La transcripción debe ser un objeto JSON, con «hands» y «actions», no {found}.",
    "unknown_key": "La transcripción no tiene ninguna clave «{key}»{hint}. Sus claves son: "
                   "{known}.",
    "missing_hands": "Falta «hands»: las cartas repartidas a cada asiento.",
    "missing_actions": "Falta «actions»: lo que dijo cada asiento, en orden ([] si nadie habló).",
    "rules_type": "«rules» debe ser un objeto, como {{\"reyes\": 8, \"puntos\": 40}}, no {found}.",
    "unknown_rule": "«rules» no tiene ninguna regla «{key}»{hint}. Las reglas de una mano son: "
                    "{known}.",
    "match_rule": "«rules.{key}» es una regla de la partida, no de una mano{hint}. Las reglas de "
                  "una mano son: {known}.",
    "reyes_value": "«rules.reyes» debe ser 4 u 8, no {found}.",
    "puntos_value": "«rules.puntos» debe ser un número entero de {low} a {high}, no {found}.",
    "flag_value": "«rules.{key}» debe ser true o false, no {found}.",
    "hands_type": "«hands» debe ser una lista con las cartas de cada asiento (2, 4 o 6 listas de "
                  "4 cartas), no {found}.",
    "hand_type": "«hands[{seat}]», la mano del asiento {seat}, debe ser una lista de 4 cartas, no "
                 "{found}.",
    "hands_count": "«hands» tiene {count} manos; se juega con 2, 4 o 6, una por asiento.",
    "hand_size": "La mano del asiento {seat} («hands[{seat}]») tiene {count} cartas; deben ser 4.",
    "cards_type": "«{path}» debe ser una lista de cartas, como [\"1o\", \"12c\"], no {found}.",
    "card_type": "«{path}» debe ser una carta escrita como texto, como \"12o\", no {found}.",
    "card_code": "«{path}»: «{card}» no es una carta; se escriben con el número (1–7, 10, 11, "
                 "12) y el palo (o, c, e, b), como 1o, 7e, 10c o 12b.",
    "mano_value": "«mano» debe ser un asiento, de 0 a {last}, no {found}.",
    "scores_type": "«scores» debe ser [tantos de la pareja 0, tantos de la pareja 1], no {found}.",
    "score_value": "«scores[{pair}]» debe ser un número entero de tantos, 0 o más, no {found}.",
    "score_over_target": "«scores[{pair}]» es {score}, y el juego es a {target} tantos: la pareja "
                         "{pair} ya lo habría ganado. Al empezar una mano, cada pareja tiene de 0 "
                         "a {last} tantos.",
    "reshuffles_type": "«reshuffles» debe ser una lista de mazos, cada uno una lista de cartas, "
                       "no {found}.",
    "actions_type": "«actions» debe ser una lista de acciones [asiento, texto], no {found}.",
    "action_shape": "La acción {action} debe ser [asiento, texto], como [0, \"mus\"], no {found}.",
    "action_seat": "La acción {action} es [asiento, texto]: el asiento debe ser un número de 0 a "
                   "{last}, no {found}.",
    "action_text": "La acción {action} es [asiento, texto]: el texto es lo que dijo el jugador, "
                   "como \"envido\", no {found}.",
    # Playing the hand.
    "not_a_move": "No entiendo «{text}» (acción {action}): no es ninguna jugada, como mus, no "
                  "hay mus, descarto 1o 12c, paso, envido, quiero, no quiero u órdago.",
    "after_end": "La mano ya ha terminado con la acción {end}: la acción {action} sobra.",
    "deck_missing": "La acción {action} cierra una ronda de descartes y hay que reponer las "
                    "cartas, pero la transcripción no tiene «deck», las cartas sin repartir.",
    "deck_short": "En la acción {action}, que cierra una ronda de descartes, no quedan cartas "
                  "en «deck» para reponerlos. Los descartes solo se rebarajan cuando se ha "
                  "repartido el mazo entero, y el de la transcripción no lo está: las manos y "
                  "«deck» suman {total} cartas, no {cards}.",
    "reshuffles_unused": "«reshuffles» trae más mazos ({given}) de los que esta mano rebarajó "
                         "({used}).",
}

# --- the command line and the terminal table (musbot.cli, musbot.terminal) --------------------

TABLE.update({
    # Counted things, singular and plural (musbot.table.render.count).
    "tantos_one": "{n} tanto",
    "tantos_other": "{n} tantos",
    "amarrakos_one": "{n} amarrako",
    "amarrakos_other": "{n} amarrakos",
    "juegos_one": "{n} juego",
    "juegos_other": "{n} juegos",
    "vacas_one": "{n} vaca",
    "vacas_other": "{n} vacas",
    # With 8 reyes (docs/rules.md §1).
    "card_as_rey": "{card} (vale como rey)",
    "card_as_as": "{card} (vale como as)",
})

TERMINAL.update({
    "unknown_suggest": "No es una jugada. ¿Querías decir «{words}»?",
    "help_moves": "Jugadas, cuando te toca (entre paréntesis, lo mismo dicho de otras formas, "
                  "en euskera o en inglés):",
    "help_item": "{words} ({others})",
    "help_discard": "«descarto 1 3» por posición (como se ven tus cartas); «descarto 1o 12c» por "
                    "carta: rango y palo (o, c, e, b).",
    "help_amounts": "Las cantidades, en cifra o en palabras: envido cinco, bost gehiago, "
                    "raise three.",
    "help_other": "Además: {cards} (ver tu mano) · {status} (el estado de la partida) · "
                  "{sena} NOMBRE (p. ej. «seña dos reyes») · {help} · {quit}",
})

CLI = {
    "description": "Mus en Discord y en la terminal.",
    "command": "ORDEN",
    "idioma": "idioma de los textos: es o en (si no se da, el de LANG: en… es inglés; "
              "cualquier otro, español)",
    "version": "muestra la versión de musbot y si su motor está compilado, y sale",
    "version_line": "musbot {version} · {engine}",
    "version_unknown": "(versión desconocida: sin instalar)",
    "engine_compiled": "motor compilado (mypyc)",
    "engine_pure": "motor en Python puro",
    # Subcommands.
    "run": "arranca el bot de Discord (DISCORD_TOKEN en .env)",
    "replay": "reproduce una mano desde una transcripción JSON y da su resultado; el formato, "
              "lo que se comprueba y los errores: docs/replay.md",
    "play": "juega en la terminal con bots, sin token",
    "invite": "muestra el enlace que añade musbot a un servidor",
    "bench": "mediciones de rendimiento, con cifras",
    "bench_engine": "velocidad del motor: manos completas por segundo y comparaciones por segundo",
    "bench_ai": "niveles de bot: una pareja de nivel A contra una de nivel B",
    "bench_load": "un bot con mucho trabajo: N mesas por la capa de mesa, una base de datos "
                  "(SQLite o PostgreSQL) y el texto de Discord",
    # Metavars.
    "file": "FICHERO",
    "id": "ID",
    "name": "NOMBRE",
    "level": "NIVEL",
    "levels_metavar": "NIVELES",
    # musbot run, musbot invite.
    "env_file": "fichero de entorno con DISCORD_TOKEN y DISCORD_CLIENT_ID (por defecto .env, "
                "si existe)",
    "dev_guild": "servidor donde sincronizar los comandos / al instante",
    "client_id": "id de la aplicación (por defecto DISCORD_CLIENT_ID, del entorno o del fichero "
                 "de entorno)",
    "guild": "servidor ya elegido en el diálogo de Discord",
    # musbot replay.
    "replay_file": "transcripción JSON, o - para leerla de la entrada estándar",
    # musbot play.
    "play_description": "Te sientas en el asiento 1, en la pareja 1, con un bot de pareja contra "
                        "dos bots. Escribe «ayuda» en la mesa para ver las órdenes.",
    "play_epilog": "Ctrl-C sale al momento (estado 130); «salir» o el fin de la entrada, con "
                   "estado 0. Si se cierra la salida (musbot play --auto | head), la partida se "
                   "para sin más (estado 141).",
    "reyes": "4 u 8 reyes (con 8, cada tres es un rey y cada dos un as)",
    "puntos": "tantos por juego, de 1 a 1000 (40; 50 con 6 jugadores)",
    "juegos": "juegos por vaca",
    "vacas": "vacas por partida",
    "real": "la real (7-7-7-sota) gana a cualquier otra 31",
    "corrido": "mus corrido: la primera mano de cada juego, y sin señas",
    "sin_senas": "sin señas",
    "jugadores": "2 (uno contra uno), 4 (por parejas) o 6 (tríos)",
    "nivel": "nivel de los bots",
    "niveles": "nivel por asiento, p. ej. facil,normal,dificil,normal (en juego interactivo "
               "el tuyo se ignora)",
    "nombre": "tu nombre en la mesa",
    "auto": "solo bots: juegan una partida entera",
    "seed": "semilla: la misma partida cada vez (para pruebas)",
    # musbot bench.
    "runs": "repeticiones; se da la mediana",
    "hands": "manos completas por repetición",
    "comparisons": "comparaciones de lances por repetición",
    "bench_seed": "semilla",
    "json": "última línea: un objeto JSON",
    "level_a": "nivel A ({levels})",
    "level_b": "nivel B ({levels})",
    "games": "partidas completas, hasta el objetivo",
    "workers": "procesos (los resultados no dependen de ello)",
    "progress": "una línea cada N partidas",
    "tables": "mesas a la vez",
    "minutes": "duración de la prueba en bucle abierto",
    "rate": "jugadas por segundo ofrecidas en total, repartidas entre las mesas (bucle abierto)",
    "closed_seconds": "duración de la prueba en bucle cerrado (por defecto, un cuarto del bucle "
                      "abierto, de 1 a 30 s)",
    "gc": "el recolector de basura como lo ajusta el bot (musbot.runtime), o el de CPython",
    "bench_db": "dónde se crea la base de datos nueva y vacía de la prueba, que se borra al "
                "final: sqlite (por defecto: un fichero temporal), una ruta o sqlite:///ruta "
                "(un fichero nuevo ahí; una carpeta: un fichero dentro), o postgresql://… (una "
                "base nueva en ese servidor, creada a través de la que nombra la URL); repetida, "
                "una prueba en cada una y luego una comparación",
    "bench_db_unknown": "«{value}» no es una base de datos: sqlite, una ruta, sqlite:///ruta o "
                        "postgresql://…",
    "bench_db_exists": "«{value}» ya existe: la prueba solo crea bases de datos nuevas (da una "
                       "ruta nueva, o una carpeta)",
    "bench_db_failed": "No se puede crear o abrir la base de datos de la prueba: {value}",
    "bench_db_missing": "«{value}» no existe: --restore mide cómo vuelven las mesas de una base "
                        "de datos que ya está ahí",
    "bench_outage": "la base de datos falla durante tantos segundos en mitad del bucle abierto "
                    "(cada escritura falla como cuando no está; con --stop-with y --start-with, "
                    "esas órdenes paran y arrancan el servidor de verdad)",
    "bench_stop_with": "orden de la shell que para el servidor al empezar el corte "
                       "(p. ej. «pg_ctl -D datos -m fast stop»)",
    "bench_start_with": "orden de la shell que lo arranca al acabar el corte",
    "bench_outage_bad": "--outage {value}: el corte dura más de 0 s y menos que el bucle abierto "
                        "(--minutes), y --stop-with y --start-with van juntas y con --outage",
    "bench_restore": "solo mide una restauración: las mesas de esta base de datos que ya "
                     "existe (las que dejó una prueba interrumpida) vuelven y se anuncian; la "
                     "base no se borra",
    "bench_lost": "{value} jugadas confirmadas no están en la base de datos al final de la "
                  "prueba",
    "bench_discord": "las llamadas a Discord de partidas enteras: personas y bots al ritmo "
                     "real, el transporte real con un reloj manual, contadas por ruta y por "
                     "canal",
    "matches": "partidas, una tras otra",
    "people": "personas en cada mesa (en los demás asientos, bots)",
    "think": "segundos que tarda una persona en jugar desde que el mensaje de la mesa muestra "
             "su turno (de 0 a {most})",
    "input": "cómo juegan las personas: con los botones que ven, escribiendo (los descartes "
             "por MD) o de una de las dos maneras al azar",
    "think_range": "debe ser un número de segundos de 0 a {most}, no «{value}»",
    # Errors.
    "positive": "debe ser un número entero mayor que 0, no «{value}»",
    "between": "debe ser un número entero de {low} a {high}, no «{value}»",
    "levels_list": "niveles: {levels}, separados por comas",
    "levels_count": "--niveles: hacen falta {count} niveles, uno por asiento",
    "unknown_level": "no hay bots de nivel «{level}»; niveles: {levels}",
    "env_file_missing": "no existe el fichero de entorno «{path}» (--env-file)",
    "dev_guild_id": "DEV_GUILD_ID debe ser el id de un servidor (un número), no «{value}»",
    "connect_failed": "No se puede conectar con {host}: {reason}.",
    "reason_dns": "no se encuentra ese nombre (¿hay conexión a internet?)",
    "reason_refused": "conexión rechazada",
    "reason_timeout": "no contesta",
    # argparse's own sentences (musbot.console.ARGPARSE_KEYS).
    "argparse_usage": "uso: ",
    "argparse_positionals": "argumentos",
    "argparse_options": "opciones",
    "argparse_help": "muestra esta ayuda y sale",
    "argparse_error": "%(prog)s: error: %(message)s\n",
    "argparse_argument": "argumento %(argument_name)s: %(message)s",
    "argparse_required": "falta: %s",
    "argparse_unrecognized": "no se entiende: %s",
    "argparse_invalid_choice": "%(value)r no vale (puede ser %(choices)s)",
    "argparse_invalid_value": "%(value)r no es un número",
    "argparse_expected_one": "falta su valor",
    "argparse_expected_at_most_one": "admite un valor como mucho",
    "argparse_expected_at_least_one": "necesita al menos un valor",
    "argparse_ambiguous": "opción ambigua: %(option)s puede ser %(matches)s",
    "argparse_ignored_explicit": "no lleva valor: %r",
    "argparse_not_allowed": "no se puede junto con %s",
    "argparse_one_required": "hace falta uno de estos: %s",
}

CLI.update({
    "db": "herramientas de la base de datos",
    "db_copy": (
        "copia una base de datos entera a otra vacía (SQLite ↔ PostgreSQL), comprobándola"
    ),
    "db_copy_description": (
        "SRC y DST como los toma MUSBOT_DB: la ruta de un fichero, sqlite:///ruta o "
        "postgresql://…. Para antes el bot. DST debe estar vacía (si no, sale con 2); una "
        "DST que ya tiene esta misma copia se deja como está."
    ),
    "db_source": "la base de datos de origen",
    "db_target": "la base de datos de destino, vacía",
})

CLI.update({
    "shards": "fragmentos (shards) del gateway de Discord en todos los procesos del bot",
    "shard_ids": "los fragmentos que lleva este proceso, separados por comas (por defecto, todos)",
    "shards_count": (
        "MUSBOT_SHARDS (--shards) debe ser un número de fragmentos, 1 o más, no "
        "«{value}»."
    ),
    "shards_ids": (
        "MUSBOT_SHARD_IDS (--shard-ids) debe ser una lista de fragmentos distintos, de 0 "
        "al número de fragmentos menos 1, como «0,1», no «{value}»."
    ),
    "shards_need_postgresql": (
        "Con solo algunos fragmentos en este proceso (--shard-ids), los demás procesos comparten "
        "las mesas: MUSBOT_DB debe ser una base PostgreSQL (postgresql://…), no un fichero "
        "SQLite."
    ),
    "shards_ids_alone": "MUSBOT_SHARD_IDS (--shard-ids) necesita MUSBOT_SHARDS (--shards).",
})

# --- a move is done only when it is saved (musbot.table.pause, musbot.bot) --------------------

ERRORS.update({
    "not_saved": "No puedo guardar la jugada; repite en unos segundos.",
    "storage_down": (
        "La base de datos no responde: no se abren mesas nuevas hasta que vuelva (las que hay "
        "siguen en cuanto se pueda guardar). Inténtalo dentro de unos minutos."
    ),
})

TABLE.update({
    "paused_db": (
        "⏸️ Mesa en pausa: no se puede guardar la partida (la base de datos no responde). Sigue "
        "sola en cuanto se pueda; no se ha perdido ninguna jugada."
    ),
    "resumed_db": "▶️ La base de datos responde otra vez: la partida sigue.",
})

SERVER.update({
    "db_unavailable": "La base de datos no responde ahora mismo; inténtalo dentro de un momento. "
                      "No se ha perdido nada.",
    "db_full": "La base de datos no puede guardar: su disco está lleno. La administración del "
               "bot debe hacer sitio; no se ha perdido nada.",
    "db_foreign": "Esa base de datos no es de musbot: la administración del bot debe revisar "
                  "MUSBOT_DB. No se ha modificado nada.",
})

# --- hostile members and broken servers: pauses, limits, idle tables (musbot.discordio, cogs) --

ERRORS.update({
    "table_paused": (
        "La mesa está en pausa ({reason}); sigue donde estaba en cuanto musbot pueda volver a "
        "escribir en el canal."
    ),
    "bot_cannot_play_here": "musbot no puede llevar una mesa en este canal: le falta {missing}.",
    "too_many_tables": (
        "Este servidor ya tiene {limit} mesas abiertas, el máximo (/mus config): cierra alguna "
        "antes de abrir otra."
    ),
    "too_many_own_tables": (
        "Ya tienes {limit} mesas abiertas en este servidor, el máximo por persona "
        "(/mus config): cierra alguna antes de abrir otra."
    ),
})

TABLE.update({
    "unpaused": "▶️ La mesa sigue donde estaba tras una pausa ({reason}).",
    "closed_idle": "💤 Nadie se ha sentado ni ha jugado en {minutes} min: se cierra la mesa.",
})

DISCORD.update({
    "paused_reason": "sin permiso en #{channel}: {missing}",
    "paused_dm": (
        "⏸️ La mesa de #{channel} en {guild} está en pausa: musbot ya no puede escribir en ese "
        "canal (le falta {missing}). Nadie pierde turnos: en cuanto quien gestiona el servidor "
        "se lo devuelva, la mesa vuelve a mostrarse y la partida sigue donde estaba."
    ),
    "perm_view_channel": "Ver canal",
    "perm_send_messages": "Enviar mensajes",
    "perm_send_messages_in_threads": "Enviar mensajes en hilos",
    "perm_embed_links": "Insertar enlaces",
    "perm_read_message_history": "Leer el historial de mensajes",
})

SERVER.update({
    "config_limits": (
        "Mesas abiertas: {server} en el servidor y {person} por persona · una mesa sin "
        "actividad {idle}."
    ),
    "config_no_limit": "sin límite",
    "config_idle": "se cierra a los {minutes} min",
    "config_idle_never": "no se cierra nunca",
})

ERRORS.update({
    "bad_idle": (
        "La inactividad va de {low} a {high} minutos (0: las mesas no se cierran solas)."
    ),
    "bad_table_limit": "El máximo de mesas va de 0 (sin límite) a {high}.",
})

CLI.update({
    "copy_no_source": (
        "musbot db copy: {source} no existe: no hay nada que copiar (no se ha creado nada)."
    ),
    "copy_bad_url": (
        "musbot db copy: la dirección de base de datos {scheme}… no se conoce: usa la ruta de "
        "un fichero, sqlite:///ruta o postgresql://…"
    ),
    "copy_same": "musbot db copy: {where}: el origen y el destino son la misma base de datos.",
    "copy_not_empty": (
        "musbot db copy: {where} ya tiene datos ({rows} filas en {tables} tablas) distintos de "
        "los del origen: musbot db copy solo llena una base de datos vacía. No se ha cambiado "
        "nada."
    ),
    "copy_mismatch": (
        "musbot db copy: {where}: la copia no se lee igual que el origen (el número de filas o "
        "el texto de una mano no coinciden); se ha deshecho y el destino está como estaba."
    ),
    "copy_tables_differ": (
        "musbot db copy: {where}: sus tablas no son las que conoce este musbot; no se ha "
        "cambiado nada."
    ),
    "copy_locked": (
        "musbot db copy: {where}: otro proceso tiene bloqueada la base de datos (se ha esperado "
        "{timeout} s); ¿hay otro musbot usando el mismo fichero?"
    ),
    "copy_unavailable": "musbot db copy: {where}: no se puede usar la base de datos ({detail}).",
    "copy_corrupt": (
        "musbot db copy: {where}: la base de datos está dañada ({detail}); no se ha tocado el "
        "fichero."
    ),
    "copy_too_new": (
        "musbot db copy: {where}: la base de datos es de un musbot más nuevo (esquema {found}; "
        "este conoce hasta el {known}); no se ha cambiado nada."
    ),
    "copy_foreign": (
        "musbot db copy: {where}: esta base de datos no la creó musbot (tiene tablas pero no su "
        "registro de esquema); no se usa."
    ),
    "copy_failed": "musbot db copy: {detail}",
    "copy_already": "el destino ya tiene esta copia ({rows} filas): no se ha escrito nada",
    "copy_done": (
        "copiadas {rows} filas; contadas las de cada tabla y comparadas como texto la "
        "transcripción y el resultado de cada mano ({hands} manos) en los dos lados"
    ),
})

# «¿Cómo jugué?» (musbot.coach): the review, and where it is asked for (terminal, CLI, Discord).
COACH = {
    "heading": "¿Cómo jugué? Cada decisión con lo que sabías entonces:",
    "heading_hand": "¿Cómo jugué en la mano {number}? Cada decisión con lo que sabías entonces:",
    "four_only": "El repaso solo sabe de partidas a cuatro (dos parejas).",
    "no_decisions": "En esta mano aún no has decidido nada.",
    "in_play": "(La mano sigue: solo lo que has jugado hasta ahora.)",
    "you_said": "dijiste {played}, el bot «dificil» habría dicho {bot}",
    "lance_chance": "{lance} {chance}",
    "phase_mus": "Mus",
    "phase_descarte": "Descarte",
    "line_mus": (
        "{phase} con {cards}: {said}. Tu pareja ganaría {pair}; algún rival tiene pares "
        "{pares}, juego {juego}."
    ),
    "line_lance": (
        "{lance}: {said}. Tu pareja la gana {chance}; algún rival tiene pares {pares}, "
        "juego {juego}."
    ),
    "option": "{word} {tantos}",
    "option_game": "{word} {tantos} (la partida {game})",
    "options": "Tantos esperados: {options}.",
    "advice_none": "Consejo: ninguna decisión te costó ni un cuarto de tanto. ¡Bien jugada!",
    "advice_bolder": (
        "Consejo: en {lance} dijiste {played} con un {chance} de ganarla; {best} valía unos "
        "{cost} tantos más. Con esa mano había que apretar."
    ),
    "advice_calmer": (
        "Consejo: en {lance} dijiste {played} con un {chance} de ganarla; {best} valía unos "
        "{cost} tantos más. Ahí convenía no arriesgar."
    ),
    "advice_other": (
        "Consejo: en {lance} dijiste {played} con un {chance} de ganarla; {best} valía unos "
        "{cost} tantos más."
    ),
    "percent": "{n} %",
    "decimal_point": ",",
    "quoted": "«{word}»",
    "word_mus": "mus",
    "word_no_hay_mus": "no hay mus",
    "terminal_offer": "¿Cómo jugué? Escribe «repaso» para ver tus decisiones de la mano {number}.",
    "cli_repaso": "repasa las decisiones de un asiento en una mano guardada (docs/replay.md)",
    "cli_repaso_file": "la transcripción JSON de la mano («-»: la entrada estándar)",
    "cli_asiento": "el asiento cuyas decisiones se repasan (1 a 4)",
    "cli_semilla": "semilla del muestreo, para repetir el mismo repaso",
    "cli_bad_seat": (
        "musbot repaso: la mano tiene {players} asientos: --asiento va de 1 a {players}."
    ),
    "bench_repaso": (
        "repasos de manos jugadas por bots: tiempo hasta la respuesta (p50, p99) y la "
        "espera que causan al bucle de eventos"
    ),
    "bench_hands": "cuántas manos repasar",
    "bench_seed": "semilla de las manos",
    "button": "¿Cómo jugué?",
    "slash_repaso": "Repasa en privado cómo jugaste una mano de esta partida",
    "slash_mano": "El número de la mano (la última si no lo dices)",
    "no_table": "Aquí no hay ninguna mesa.",
    "not_seated": "No juegas en esta mesa: solo se repasa lo que uno mismo ha jugado.",
    "no_hand": (
        "No tengo la mano {number} de esta partida; se guardan las {kept} últimas: {numbers}."
    ),
    "no_hands": "Esta partida aún no tiene manos que repasar.",
    "busy": "Estoy terminando tu repaso anterior; vuelve a pedirlo en unos segundos.",
}

"""English, for servers that choose it (the command words of every language are accepted). Data
only, key for key the Spanish catalogue (``tests/test_i18n.py``)."""

NAME = "English"
"""The language by its own name."""
NOBODY = "nobody"
SEAT = "seat {seat}"
LANCES = ("Grande", "Chica", "Pares", "Juego", "Punto")

ERRORS = {
    "error": "That cannot be done.",
    "hand_over": "The hand is over.",
    "match_over": "The match is over.",
    "no_such_seat": "There is no {seat} at this table.",
    "not_your_turn": "Not your turn: {to_act} is to speak.",
    "pares_only": "Only players holding pares may bet at Pares.",
    "juego_only": "Only players holding juego may bet at Juego.",
    "betting_now": "Betting at {lance} now.",
    "mus_now": "Mus round: say «mus» or «no hay mus».",
    "discard_now": "Discard now: «descarto 1 3» or «descarto 1o 12c».",
    "discard_none": "Discard at least one card.",
    "discard_repeated": "You named the same card twice.",
    "discard_not_held": "You do not hold the {card}.",
    "min_bet": "The minimum bet is 2 tantos (you said {amount}).",
    "ordago_no_raise": "Nothing raises an órdago: quiero or no quiero.",
    "no_bet_to_raise": "There is no bet to raise: say «envido» or «envido N».",
    "no_bet_to_answer": "There is no bet to accept: pass, bet or call órdago.",
    "bad_amount": "I do not understand the amount «{word}»: bets are 2 tantos or more.",
    "amount_too_low": "The minimum bet is 2 tantos (you said {amount}).",
    "bad_position": "Cards are numbered 1 to {count}: «{word}» is not one.",
    "bad_card": "«{card}» is not a card: use rank and suit, like 1o, 7e, 10c or 12b.",
    "card_twice": "The card {card} appears twice.",
    "discard_empty": "Which cards? For example «descarto 1 3».",
    "positions_need_hand": "Discarding by position needs the hand.",
    "wrong_players": "2, 4 or 6 hands are needed; there are {count}.",
    "wrong_hand_size": "The hand of {seat} has {count} cards; it must have 4.",
    "bad_mano": "The mano ({mano}) is not a seat at this table.",
    "reshuffle_mismatch": "Reshuffle {number} is not the discards: it should be {expected}.",
    "deck_exhausted": "No cards left to deal.",
    "lance_named": "Every word is for the lance being played: just say «{word}».",
    "unknown_word": "I do not understand «{word}».",
}

# --- table layer: señas, table management, turn timer (musbot.table) ---------------------------

ERRORS.update({
    "unknown_sena": "I do not know the seña «{word}».",
    "sena_not_shown": "Your hand does not show «{sena}»: false señas are not allowed.",
    "senas_off": "This table plays without señas.",
    "senas_corrido": "Mus corrido hand, no señas allowed.",
    "sena_repeated": "You already made that seña with these cards.",
    "sena_no_hand": "There are no cards in play now.",
    "not_seated": "You are not seated at this table.",
    "already_seated": "You are already in seat {number}.",
    "table_full": "The table is full.",
    "pair_full": "That pair is complete.",
    "bad_pair": "There is no pair {pair}: they are 1 and 2.",
    "already_started": "The match has already started.",
    "not_started": "The match has not started.",
    "no_humans": "At least one person must be seated to start.",
    "not_finished": "The match is not over: rematch at the end.",
    "table_closed": "The table is closed.",
    "bad_timeout": "The turn timer is 0 (none) or {low} to {high} seconds.",
    "table_exists": "There is already a table in this channel.",
    "no_table": "There is no table in this channel.",
    "not_away": "You were not away: you are still playing.",
    "unknown_level": "There are no bots of level «{level}».",
})

TABLE = {
    "hand_started": "🃏 New hand: {mano} is mano.",
    "hand_started_corrido": "🃏 New hand, mus corrido without señas: {mano} starts.",
    "mus": "{name}: mus.",
    "no_hay_mus": "{name}: no hay mus.",
    "mano_changed": "{name} cuts and becomes mano.",
    "discarded": "{name} discards {count}.",
    "replaced": "Discards replaced: another mus round.",
    "reshuffled": "The deck ran out: the discards are shuffled.",
    "lance_started": "— {lance} —",
    "declared": "{lance}: {list}.",
    "declared_yes": "{name} yes",
    "declared_no": "{name} no",
    "no_betting_none": "{lance}: nobody has it; not played.",
    "no_betting_team": "{lance}: only {pair} has it; no betting.",
    "spoke": "{name}: {words}.",
    "spoke_total": "{name}: {words} ({total} standing).",
    "spoke_ordago": "{name}: órdago!",
    "turn": "➡️ {name} to speak.",
    "lance_paso": "{lance}: passed.",
    "lance_querido": "{lance}: accepted at {tantos}; settled at the end.",
    "lance_deje": "{lance}: no quiero; {pair} takes {tantos}.",
    "lance_ordago": "{lance}: órdago accepted!",
    "showdown": "🂠 Cards on the table:",
    "showdown_hand": "{name}: {cards}",
    "showdown_winners": "Best hands: {list}.",
    "showdown_winner": "{lance} {name}",
    "scored": "{lance}: +{tantos} for {pair} ({kind}). {score}",
    "game_won": "🏆 Game to {pair}! Games {a}–{b}.",
    "game_won_ordago": "🏆 Órdago won: game to {pair}! Games {a}–{b}.",
    "hand_ended": "End of the hand. {score}",
    "vaca_won": "🐄 Vaca to {pair}! Vacas {a}–{b}.",
    "match_won": "🎉 Match to {pair}!",
    "pair": "pair {label} ({names})",
    "pair_label": "Pair {label}",
    "and": " and ",
    "score_line": "{a} · {b}",
    "score": "{label}: {tantos}",
    "tantos": "{tantos} ({amarrakos} and {resto})",
    "dentro": " — dentro",
    "status_rules": "{players}-player table · to {target} · {juegos} a vaca · {vacas}",
    "status_seat": "Seat {seat}: {name}",
    "status_free": "(free)",
    "status_bot": "(bot)",
    "status_away": "(away: a bot plays)",
    "status_games": "Games {a}–{b} · vacas {c}–{d}",
    "status_mano": "{name} is mano.",
    "status_mus": "Mus round.",
    "status_descarte": "Discards.",
    "status_lance": "Lance: {lance}.",
    "status_bet": "Standing bet: {bet}, by {name}.",
    "status_ordago": "Standing órdago, by {name}.",
    "status_turn": "{name} to speak.",
    "status_waiting": "Waiting for players. Pairs: 1st with 3rd, 2nd with 4th.",
    "status_finished": "Match over.",
    "variants": "Variants: {list}.",
    "variant_reyes": "{reyes} reyes",
    "variant_real": "la real",
    "variant_corrido": "mus corrido",
    "variant_sin_senas": "no señas",
    "joined": "{name} sits in seat {seat}, in {pair}.",
    "took_bot_seat": "{name} takes seat {seat} from a bot.",
    "left": "{name} leaves the table.",
    "left_bot": "{name} leaves: a bot plays the seat.",
    "bot_added": "A bot ({level}) sits in seat {seat}.",
    "bot_name": "Bot {seat}",
    "unnamed_seat": "Seat {seat}",
    "name_in_seat": "{name} (seat {seat})",
    "started": "The match begins!",
    "rematch": "Rematch! Another match begins.",
    "closed": "The table is closed.",
    "closed_empty": "Nobody left: the table is closed.",
    "timeout_set": "Turn time: {seconds} s.",
    "reminder": "⏰ {mention}, {seconds} s left to speak.",
    "expired": "⏰ {name} ran out of time: a bot plays this turn.",
    "away": "{name} is not answering: a bot plays the seat until they type «vuelvo».",
    "back": "{name} is back at the table.",
    "dm_closed": "{mention}, I cannot send you private messages: press «Ver mis cartas».",
    "your_cards": "Your cards:",
    "card_line": "{n}. {card}",
    "you_are": "Seat {seat}, {pair}. {mano} is mano.",
    "senas_allowed": "Señas you may make: {list}.",
    "senas_none": "Your hand shows no seña.",
    "senas_not_now": "No señas allowed now.",
    "senas_received": "Señas received:",
    "sena_partner": "👀 {name} {gesture} ({sena}).",
    "sena_caught": "👀 You caught a seña from {name}: {gesture} ({sena}).",
    "your_turn": "Your turn: {words}.",
    "discard_hint": "descarto 1 3 (by number)",
    "revealed": "Everyone's cards:",
}

RANK_NAMES = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
              10: "sota", 11: "caballo", 12: "rey"}
SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
CARD_NAME = "{rank} of {suit}"
SCORE_KINDS = {"deje": "deje", "apuesta": "bet", "paso": "passed", "base": "held",
               "punto": "punto", "ordago": "órdago"}
SENA_GESTURES = {
    "dos reyes": "bites the lower lip",
    "tres reyes": "bites the lower lip to one side",
    "dos ases": "shows the tip of the tongue",
    "tres ases": "shows the tip of the tongue to one side",
    "medias": "twists the lips to one side",
    "duples": "raises the eyebrows",
    "treinta y una": "winks",
    "treinta": "shrugs",
    "solomillo": "purses the lips as for a kiss",
    "ciego": "closes the eyes",
    "la real": "touches the earlobe",
}

TERMINAL = {
    "you": "Player",
    "private": "🔒 {text}",
    "reply": "⚠️ {text}",
    "prompt": "> ",
    "unknown": "Not a move. Type «ayuda» for the commands.",
    "sena_sent": "Seña sent: {sena}.",
    "bye": "See you next time.",
}

# --- Discord: buttons, DMs, command answers (musbot.discordio, cogs) ---------------------------

DISCORD = {
    "table_title": "🃏 Mus table",
    "table_closed": "Table closed.",
    "table_footer": (
        "Type your moves in the channel (mus, paso, envido 5, quiero…) or use the buttons."
    ),
    "btn_join": "Sit down (pair {pair})",
    "btn_join_any": "Sit down",
    "btn_bot": "Add a bot",
    "btn_start": "Start",
    "btn_cards": "See my cards",
    "btn_back": "I'm back",
    "btn_rematch": "Rematch",
    "btn_mus": "Mus",
    "btn_no_hay_mus": "No hay mus",
    "btn_paso": "Paso",
    "btn_envido": "Envido",
    "btn_envido_n": "Envido N…",
    "btn_mas": "Envido más",
    "btn_ordago": "Órdago",
    "btn_quiero": "Quiero",
    "btn_no_quiero": "No quiero",
    "btn_discard": "Discard ({count})",
    "modal_title": "Envido",
    "modal_label": "How many tantos? (2 or more)",
    "dm_header": "🃏 **{guild}** · #{channel}",
    "discard_prompt": "Discards: press the cards you let go, then «Discard».",
    "stale_cards": "Those are no longer your cards: press «See my cards» again.",
    "not_seated_hint": "{mention}, you are not seated at this table: «/mus unirse» to play.",
    "only_opener": (
        "Only whoever opened the table, or someone who manages the channel, may close it."
    ),
    "done": "Done.",
    "no_table_dm": "You are not seated at any table.",
    "dm_unknown": (
        "By DM I understand: «descarto 1 3», «seña dos reyes», «cartas», «vuelvo» and the moves."
    ),
    "sena_sent": "Seña sent: {sena}.",
    "guild_only": "Tables are opened in a server channel.",
    "help": (
        "**Mus** · /mus mesa opens a table in this channel · /mus unirse [pair] · "
        "/mus bot [pair] · /mus empezar · /mus salir · /mus cerrar · /mus reglas\n"
        "In the channel, on your turn: mus, no hay mus, paso, envido, envido 5, 3 más, órdago, "
        "quiero, no quiero (or the buttons).\n"
        "By DM or with «See my cards»: descarto 1 3 · seña dos reyes · cartas · vuelvo."
    ),
    "no_token": (
        "DISCORD_TOKEN is missing: the bot cannot connect to Discord.\n"
        "1. Go to https://discord.com/developers/applications and create an application.\n"
        "2. Under «Bot», press «Reset Token» and copy the token.\n"
        "3. Under «Bot» → «Privileged Gateway Intents», enable «Message Content Intent» "
        "(without it, play works through buttons and / commands only).\n"
        "4. Copy the Application ID into .env (DISCORD_CLIENT_ID) and open the "
        "«musbot invite» link.\n"
        "5. Copy .env.example to .env and set DISCORD_TOKEN=the-token.\n"
        "Meanwhile, play in the terminal: musbot play"
    ),
    "bad_token": "Discord rejects that DISCORD_TOKEN: make a new one in the Developer Portal.",
    "bad_config": "Invalid configuration: {error}",
    "intent_missing": (
        "The «Message Content» intent is not enabled in the Developer Portal: moves typed in the "
        "channel will not arrive. Play goes on through buttons and / commands. Enable it under "
        "Bot → Privileged Gateway Intents and restart the bot."
    ),
}

# --- restart safety and match records (musbot.table.persist) -----------------------------------

TABLE.update({
    "restored": "♻️ Table restored: the bot restarted and the match goes on where it was.",
    "ratings": "📈 League rating: {list}.",
    "rating_change": "{name} {before} → {after} ({delta:+d})",
    "forgotten_name": "Player {seat}",
})

# --- leagues, profiles, server settings, privacy, welcome, invite (cogs, musbot.invite) -------

SERVER = {
    "guild_only": "This can only be done in a server.",
    "need_manage_guild": "Only someone with the «Manage Server» permission can do this.",
    "db_locked": "The database is busy right now; try again in a moment. Nothing was lost.",
    "db_corrupt": "The database is damaged: the bot's admins must restore a backup. Nothing "
                  "was changed.",
    "db_too_new": "The database is from a newer musbot: the bot must be upgraded. Nothing was "
                  "changed.",
    "db_closed": "The database is not available: it could not be opened at start-up, and the "
                 "bot keeps trying (its log says why). Nothing was lost.",
    "db_error": "Could not save: {error}",
    "unknown_league": "There is no league «{name}» in this server. Leagues: {leagues}.",
    "no_leagues": "none (create one with /liga crear)",
    "league_exists": "There is already a league «{name}» in this server.",
    "league_bad_name": "A league needs a name.",
    "league_created": "🏆 League «{name}» created: season 1 begins. Join with /liga unirse.",
    "league_joined": "You joined the league «{name}».",
    "already_member": "You already belong to the league «{name}».",
    "season_new": "🏆 League «{name}»: season {old} is closed (its table is kept); season {new} "
                  "begins.",
    "standings_title": "**{name}** · season {season}{closed}",
    "standings_closed": " (closed)",
    "standings_header": "#|Player|P|W|L|±G|±T|Rating",
    "standings_empty": "Nobody has played this season yet.",
    "more_rows": "… and {count} more.",
    "unknown_season": "The league «{name}» has no season {season}.",
    "results_title": "**{name}** · latest matches",
    "results_empty": "No finished matches in this league yet.",
    "result_line": "{date} · {winners} beat {losers} · games {games} · tantos {tantos}{rated}",
    "result_rated": " · rated",
    "unnamed": "(anonymous)",
    "bot_seat": "bot",
    "no_table": "There is no table in this channel: open one with /mus mesa.",
    "table_league": "This table counts for the league «{name}»: results go into its table (and, "
                    "without bots, into the ratings).",
    "table_friendly": "This table no longer counts for any league: it is a friendly.",
    "table_started": "The match has started: the league is chosen before starting.",
    "table_not_yours": "Only someone seated at the table or managing the server can choose its "
                       "league.",
    "profile_title": "**{name}**{league}",
    "profile_league": " · league «{name}»",
    "profile_matches": "Matches: {matches} ({won} won, {lost} lost){rate}",
    "profile_rate": " · {rate:.0%} won",
    "profile_partner": "Favourite partner: {name} ({matches} matches, {won} won)",
    "profile_no_partner": "Favourite partner: none yet",
    "profile_ordagos": "Órdagos: {won} won, {lost} lost",
    "profile_rating": "Rating: {rating}",
    "profile_unrated": "Rating: no rated match this season",
    "profile_nothing": "{name} has not finished a match yet.",
    "config_title": "⚙️ This server's settings (for new tables):",
    "config_rules": "Rules: {reyes} reyes · to {puntos} tantos · {juegos} games per vaca · "
                    "{vacas} vaca(s) · la real: {real} · mus corrido: {corrido} · señas: {senas} "
                    "· seña caught: {cazada}%",
    "config_timer": "Turn timer: {seconds} s",
    "config_timer_off": "Turn timer: none",
    "config_language": "Language: {language}",
    "config_channels": "Table channels: {channels}",
    "config_all_channels": "all",
    "config_saved": "Saved. Tables already open keep their rules.",
    "yes": "yes",
    "no": "no",
    "channel_not_allowed": "In this server tables are opened in: {channels}.",
    "forget_confirm": "This erases your name, your ratings, your leagues and what the bots have "
                      "learnt of how you bet; your past matches stay, anonymous. To confirm: "
                      "/mus olvidarme confirmar:True",
    "forget_done": "Done: musbot has forgotten you. If you play again, you start from scratch.",
    "forget_unknown": "musbot keeps nothing of yours.",
    "welcome": (
        "Hello! I am **musbot**: mus, the Spanish card game of pairs, bets and signals. Open a "
        "table with **/mus mesa**, sit with **/mus unirse**, and bots fill the empty seats. "
        "Help: **/mus ayuda** · settings: **/mus config**."
    ),
    "invite_no_client_id": (
        "The application id is missing: «musbot invite ID», or DISCORD_CLIENT_ID in the "
        "environment or .env. It is at https://discord.com/developers/applications → your app → "
        "General Information → Application ID."
    ),
    "invite_bad_client_id": "«{client_id}» is not an application id (digits only).",
}

# --- Discord as it really behaves: pages, one error path, restored tables ---------------------

ERRORS.update({
    "only_opener": (
        "Only whoever opened the table, or someone who manages the channel, may close it."
    ),
    "channel_not_allowed": "In this server tables are opened in: {channels}.",
    "bad_rules": "Those rules are not valid: {error}",
    "rules_reyes": "reyes must be 4 or 8",
    "rules_jugadores": "the game is for 2, 4 or 6 players",
    "rules_puntos": "puntos must be between 1 and 1000",
    "rules_juegos_vacas": "juegos and vacas must be at least 1",
    "rules_sena_cazada": "seña cazada is a probability between 0 and 1",
    "table_restoring": "Your table is being restored after the bot restarted: try again in a "
                       "few seconds.",
})

TABLE.update({
    "closed_gone": (
        "Your mus table is closed: its channel no longer exists (or the bot is no longer in that "
        "server). The match does not count."
    ),
})

DISCORD.update({
    "hand_title": "🃏 Hand {number}",
    "table_opened": "Table open: its message is in the channel.",
    "table_shown": "The table is at the bottom of the channel again.",
    "which_table": "(table in #{channel} on {guild})",
    "slow_down": "Too fast: wait {seconds} s.",
    "bad_range": "«{value}» will not do: it must be between {low} and {high}.",
    "missing_argument": "«{name}» is missing.",
    "bad_argument": "One of the options is not understood: check the command's values.",
    "command_stale": "That command no longer exists: Discord will update the list in a few "
                     "minutes.",
    "bot_forbidden": (
        "I am not allowed to do that here: ask whoever manages the server to let me view the "
        "channel, send messages and embed links."
    ),
    "unexpected": "Something failed on our side; nothing of the match was lost. Try again.",
})

SERVER.update({
    "need_permission": "You are not allowed to do this here.",
})

# --- musbot replay (musbot.replay): why a transcript is refused, docs/replay.md ----------------
# Seats and pairs are those of the transcript's JSON, numbered from 0.

REPLAY = {
    "source_file": "The file «{path}»",
    "source_stdin": "Standard input",
    "read_missing": "Cannot read «{path}»: it does not exist.",
    "read_directory": "Cannot read «{path}»: it is a folder, not a file.",
    "read_denied": "Cannot read «{path}»: permission denied.",
    "read_failed": "Cannot read «{path}».",
    "not_utf8": "{source} is not UTF-8: byte {position} is not valid.",
    "not_json": "{source} is not valid JSON: there is an error at line {line}, column {column}.",
    "json_constant": "{source} is not valid JSON: there is no {word} in JSON.",
    "repeated_key": "{source} repeats the key «{key}» in one object: which one counts?",
    "too_deep": "{source} nests too many lists or objects to be read.",
    "number_too_long": "{source} has a number too long to be read.",
    "found_object": "an object",
    "found_list": "a list",
    "did_you_mean": " (did you mean «{key}»?)",
    "not_object": "A transcript must be a JSON object, with «hands» and «actions», not {found}.",
    "unknown_key": "A transcript has no key «{key}»{hint}. Its keys are: {known}.",
    "missing_hands": "«hands» is missing: the cards dealt to each seat.",
    "missing_actions": "«actions» is missing: what each seat said, in order ([] if nobody spoke).",
    "rules_type": "«rules» must be an object, like {{\"reyes\": 8, \"puntos\": 40}}, not {found}.",
    "unknown_rule": "«rules» has no rule «{key}»{hint}. The rules of a hand are: {known}.",
    "match_rule": "«rules.{key}» is a rule of the match, not of a hand{hint}. The rules of a hand "
                  "are: {known}.",
    "reyes_value": "«rules.reyes» must be 4 or 8, not {found}.",
    "puntos_value": "«rules.puntos» must be a whole number from {low} to {high}, not {found}.",
    "flag_value": "«rules.{key}» must be true or false, not {found}.",
    "hands_type": "«hands» must be a list of each seat's cards (2, 4 or 6 lists of 4 cards), not "
                  "{found}.",
    "hand_type": "«hands[{seat}]», the hand of seat {seat}, must be a list of 4 cards, not "
                 "{found}.",
    "hands_count": "«hands» has {count} hands; the game is played with 2, 4 or 6, one per seat.",
    "hand_size": "The hand of seat {seat} («hands[{seat}]») has {count} cards; it must have 4.",
    "cards_type": "«{path}» must be a list of cards, like [\"1o\", \"12c\"], not {found}.",
    "card_type": "«{path}» must be a card written as text, like \"12o\", not {found}.",
    "card_code": "«{path}»: «{card}» is not a card; cards are written as rank (1–7, 10, 11, 12) "
                 "and suit (o, c, e, b), like 1o, 7e, 10c or 12b.",
    "mano_value": "«mano» must be a seat, from 0 to {last}, not {found}.",
    "scores_type": "«scores» must be [tantos of pair 0, tantos of pair 1], not {found}.",
    "score_value": "«scores[{pair}]» must be a whole number of tantos, 0 or more, not {found}.",
    "score_over_target": "«scores[{pair}]» is {score}, and the game is to {target} tantos: pair "
                         "{pair} would already have won it. When a hand starts, each pair has 0 "
                         "to {last} tantos.",
    "reshuffles_type": "«reshuffles» must be a list of decks, each a list of cards, not {found}.",
    "actions_type": "«actions» must be a list of actions [seat, text], not {found}.",
    "action_shape": "Action {action} must be [seat, text], like [0, \"mus\"], not {found}.",
    "action_seat": "Action {action} is [seat, text]: the seat must be a number from 0 to {last}, "
                   "not {found}.",
    "action_text": "Action {action} is [seat, text]: the text is what the player said, like "
                   "\"envido\", not {found}.",
    "not_a_move": "I do not understand «{text}» (action {action}): it is no move, such as mus, "
                  "no hay mus, descarto 1o 12c, paso, envido, quiero, no quiero or órdago.",
    "after_end": "The hand was over with action {end}: action {action} is one too many.",
    "deck_missing": "Action {action} closes a round of discards and cards must be dealt, but the "
                    "transcript has no «deck», the undealt cards.",
    "deck_short": "At action {action}, which closes a round of discards, «deck» has no cards "
                  "left to replace them. Discards are reshuffled only once the whole deck has "
                  "been dealt, and the transcript's is not whole: the hands and «deck» make "
                  "{total} cards, not {cards}.",
    "reshuffles_unused": "«reshuffles» holds more decks ({given}) than this hand reshuffled "
                         "({used}).",
}

# --- the command line and the terminal table (musbot.cli, musbot.terminal) --------------------

TABLE.update({
    "tantos_one": "{n} tanto",
    "tantos_other": "{n} tantos",
    "amarrakos_one": "{n} amarrako",
    "amarrakos_other": "{n} amarrakos",
    "juegos_one": "{n} game",
    "juegos_other": "{n} games",
    "vacas_one": "{n} vaca",
    "vacas_other": "{n} vacas",
    "card_as_rey": "{card} (counts as a rey)",
    "card_as_as": "{card} (counts as an ace)",
})

TERMINAL.update({
    "unknown_suggest": "Not a move. Did you mean «{words}»?",
    "help_moves": "Moves, on your turn (in brackets, the same said other ways, in Basque or in "
                  "English):",
    "help_item": "{words} ({others})",
    "help_discard": "«descarto 1 3» by position (as your cards are shown); «descarto 1o 12c» by "
                    "card: rank and suit (o, c, e, b).",
    "help_amounts": "Amounts in digits or in words: envido cinco, bost gehiago, raise three.",
    "help_other": "Also: {cards} (your hand) · {status} (the state of the match) · "
                  "{sena} NAME (e.g. «seña dos reyes») · {help} · {quit}",
})

CLI = {
    "description": "Mus on Discord and in the terminal.",
    "command": "COMMAND",
    "idioma": "language of the texts: es or en (when not given, LANG's: en… is English, "
              "anything else Spanish)",
    "version": "show musbot's version and whether its engine is compiled, and exit",
    "version_line": "musbot {version} · {engine}",
    "version_unknown": "(unknown version: not installed)",
    "engine_compiled": "compiled engine (mypyc)",
    "engine_pure": "pure-Python engine",
    "run": "run the Discord bot (DISCORD_TOKEN in .env)",
    "replay": "replay one hand from a JSON transcript and print its outcome; the format, what "
              "is checked and the errors: docs/replay.md",
    "play": "play in the terminal with bots, no token needed",
    "invite": "print the URL that adds musbot to a server",
    "bench": "benchmarks that print figures",
    "bench_engine": "engine speed: full hands per second and comparisons per second",
    "bench_ai": "bot levels: a pair of level A against a pair of level B",
    "bench_load": "a busy bot: N tables through the table layer, a database (SQLite or "
                  "PostgreSQL) and Discord rendering",
    "file": "FILE",
    "id": "ID",
    "name": "NAME",
    "level": "LEVEL",
    "levels_metavar": "LEVELS",
    "env_file": "environment file with DISCORD_TOKEN and DISCORD_CLIENT_ID (default .env, "
                "when there is one)",
    "dev_guild": "server where the / commands are synced at once",
    "client_id": "application id (default DISCORD_CLIENT_ID, from the environment or the "
                 "environment file)",
    "guild": "server preselected in Discord's dialog",
    "replay_file": "JSON transcript, or - to read it from standard input",
    "play_description": "You sit in seat 1, in pair 1, with a bot partner against two bots. "
                        "Type «ayuda» at the table for the commands.",
    "play_epilog": "Ctrl-C leaves at once (status 130); «salir» or the end of input, with "
                   "status 0. If the output is closed (musbot play --auto | head), the match "
                   "stops quietly (status 141).",
    "reyes": "4 or 8 reyes (with 8, every three is a rey and every two an ace)",
    "puntos": "tantos per game, 1 to 1000 (40; 50 with 6 players)",
    "juegos": "games per vaca",
    "vacas": "vacas per match",
    "real": "la real (7-7-7-sota) beats any other 31",
    "corrido": "mus corrido: the first hand of each game, without señas",
    "sin_senas": "no señas",
    "jugadores": "2 (one against one), 4 (in pairs) or 6 (trios)",
    "nivel": "level of the bots",
    "niveles": "level per seat, e.g. facil,normal,dificil,normal (in interactive play yours "
               "is ignored)",
    "nombre": "your name at the table",
    "auto": "bots only: they play a whole match",
    "seed": "seed: the same match every time (for tests)",
    "runs": "repetitions; the median is given",
    "hands": "full hands per repetition",
    "comparisons": "lance comparisons per repetition",
    "bench_seed": "seed",
    "json": "last line: one JSON object",
    "level_a": "level A ({levels})",
    "level_b": "level B ({levels})",
    "games": "full games, to the target",
    "workers": "processes (results do not depend on it)",
    "progress": "print a line every N games",
    "tables": "tables at once",
    "minutes": "length of the open-loop run",
    "rate": "offered actions per second in total, spread over the tables (open loop)",
    "closed_seconds": "length of the closed-loop run (default: a quarter of the open loop, "
                      "1 to 30 s)",
    "gc": "the garbage collector as the bot sets it (musbot.runtime), or CPython's",
    "bench_db": "where the run's new, empty database is made, removed afterwards: sqlite (the "
                "default: a temporary file), a path or sqlite:///path (a new file there; a "
                "directory: a file in it), or postgresql://… (a new database on that server, "
                "made through the one the URL names); given again, one run on each, then a "
                "comparison",
    "bench_db_unknown": "«{value}» is not a database: sqlite, a path, sqlite:///path or "
                        "postgresql://…",
    "bench_db_exists": "«{value}» exists already: the benchmark only makes new databases "
                       "(give a new path, or a directory)",
    "bench_db_failed": "The benchmark's database cannot be made or opened: {value}",
    "bench_db_missing": "«{value}» does not exist: --restore measures how the tables of a "
                        "database that is there come back",
    "bench_outage": "the database fails for this many seconds in the middle of the open loop "
                    "(every write fails as when it is gone; with --stop-with and --start-with, "
                    "those commands stop and start the real server)",
    "bench_stop_with": "a shell command that stops the server when the outage begins "
                       "(e.g. «pg_ctl -D data -m fast stop»)",
    "bench_start_with": "a shell command that starts it when the outage ends",
    "bench_outage_bad": "--outage {value}: an outage lasts more than 0 s and less than the open "
                        "loop (--minutes), and --stop-with and --start-with go together, with "
                        "--outage",
    "bench_restore": "only measure a restore: the tables of this existing database (those a "
                     "run that was stopped left) come back and are announced; the database is "
                     "kept",
    "bench_lost": "{value} acknowledged moves are not in the database at the end of the run",
    "bench_discord": "the Discord calls of whole matches: people and bots at the real pace, "
                     "the real transport on a manual clock, counted by route and per channel",
    "matches": "matches, one after the other",
    "people": "people at each table (the other seats: bots)",
    "think": "seconds a person takes to move once the table message shows their turn (0 to "
             "{most})",
    "input": "how the people move: the buttons they are shown, typed (discards by DM), or "
             "either at random",
    "think_range": "must be a number of seconds from 0 to {most}, not «{value}»",
    "positive": "must be a whole number above 0, not «{value}»",
    "between": "must be a whole number from {low} to {high}, not «{value}»",
    "levels_list": "levels: {levels}, separated by commas",
    "levels_count": "--niveles: {count} levels are needed, one per seat",
    "unknown_level": "there are no bots of level «{level}»; levels: {levels}",
    "env_file_missing": "there is no environment file «{path}» (--env-file)",
    "dev_guild_id": "DEV_GUILD_ID must be a server id (a number), not «{value}»",
    "connect_failed": "Cannot connect to {host}: {reason}.",
    "reason_dns": "that name cannot be found (is there an internet connection?)",
    "reason_refused": "connection refused",
    "reason_timeout": "no answer",
    "argparse_usage": "usage: ",
    "argparse_positionals": "positional arguments",
    "argparse_options": "options",
    "argparse_help": "show this help message and exit",
    "argparse_error": "%(prog)s: error: %(message)s\n",
    "argparse_argument": "argument %(argument_name)s: %(message)s",
    "argparse_required": "the following arguments are required: %s",
    "argparse_unrecognized": "unrecognized arguments: %s",
    "argparse_invalid_choice": "invalid choice: %(value)r (choose from %(choices)s)",
    "argparse_invalid_value": "%(value)r is not a number",
    "argparse_expected_one": "expected one argument",
    "argparse_expected_at_most_one": "expected at most one argument",
    "argparse_expected_at_least_one": "expected at least one argument",
    "argparse_ambiguous": "ambiguous option: %(option)s could match %(matches)s",
    "argparse_ignored_explicit": "ignored explicit argument %r",
    "argparse_not_allowed": "not allowed with argument %s",
    "argparse_one_required": "one of the arguments %s is required",
}

CLI.update({
    "db": "database tools",
    "db_copy": "copy a whole database into an empty one (SQLite ↔ PostgreSQL), checked",
    "db_copy_description": (
        "SRC and DST as MUSBOT_DB takes them: a file path, sqlite:///path or "
        "postgresql://…. Stop the bot first. DST must be empty (exit 2 otherwise); a DST "
        "that already holds this copy is left as it is."
    ),
    "db_source": "the database to copy",
    "db_target": "the empty database to copy into",
})

CLI.update({
    "shards": "Discord gateway shards in all the bot's processes",
    "shard_ids": "the shards this process runs, comma separated (default: all)",
    "shards_count": (
        "MUSBOT_SHARDS (--shards) must be a number of shards, 1 or more, not «{value}»."
    ),
    "shards_ids": (
        "MUSBOT_SHARD_IDS (--shard-ids) must be a list of different shards, from 0 to the "
        "number of shards minus 1, like «0,1», not «{value}»."
    ),
    "shards_need_postgresql": (
        "With only some shards in this process (--shard-ids), the other processes share the "
        "tables: MUSBOT_DB must be a PostgreSQL database (postgresql://…), not an SQLite file."
    ),
    "shards_ids_alone": "MUSBOT_SHARD_IDS (--shard-ids) needs MUSBOT_SHARDS (--shards).",
})

# --- a move is done only when it is saved (musbot.table.pause, musbot.bot) --------------------

ERRORS.update({
    "not_saved": "I can't save that move; repeat it in a few seconds.",
    "storage_down": (
        "The database is not answering: no new tables open until it is back (the open ones go "
        "on as soon as they can be saved). Try again in a few minutes."
    ),
})

TABLE.update({
    "paused_db": (
        "⏸️ Table paused: the match cannot be saved (the database is not answering). It goes on "
        "by itself as soon as it can; no move was lost."
    ),
    "resumed_db": "▶️ The database answers again: the match goes on.",
})

SERVER.update({
    "db_unavailable": "The database is not answering right now; try again in a moment. Nothing "
                      "was lost.",
    "db_full": "The database cannot save: its disk is full. The bot's admins must free some "
               "space; nothing was lost.",
    "db_foreign": "That database is not musbot's: the bot's admins must check MUSBOT_DB. Nothing "
                  "was changed.",
})

# --- hostile members and broken servers: pauses, limits, idle tables (musbot.discordio, cogs) --

ERRORS.update({
    "table_paused": (
        "The table is paused ({reason}); it goes on where it was as soon as musbot can write in "
        "the channel again."
    ),
    "bot_cannot_play_here": "musbot cannot run a table in this channel: it lacks {missing}.",
    "too_many_tables": (
        "This server already has {limit} open tables, its maximum (/mus config): close one "
        "before opening another."
    ),
    "too_many_own_tables": (
        "You already have {limit} open tables in this server, the most one person may have "
        "(/mus config): close one before opening another."
    ),
})

TABLE.update({
    "unpaused": "▶️ The table goes on where it was after a pause ({reason}).",
    "closed_idle": "💤 Nobody sat down or played for {minutes} min: the table closes.",
})

DISCORD.update({
    "paused_reason": "no permission in #{channel}: {missing}",
    "paused_dm": (
        "⏸️ The table in #{channel} on {guild} is paused: musbot can no longer write in that "
        "channel (it lacks {missing}). Nobody loses a turn: as soon as whoever manages the "
        "server gives it back, the table shows itself again and the match goes on where it was."
    ),
    "perm_view_channel": "View Channel",
    "perm_send_messages": "Send Messages",
    "perm_send_messages_in_threads": "Send Messages in Threads",
    "perm_embed_links": "Embed Links",
    "perm_read_message_history": "Read Message History",
})

SERVER.update({
    "config_limits": (
        "Open tables: {server} in the server and {person} per person · a table without "
        "activity {idle}."
    ),
    "config_no_limit": "no limit",
    "config_idle": "closes after {minutes} min",
    "config_idle_never": "never closes",
})

ERRORS.update({
    "bad_idle": (
        "Inactivity goes from {low} to {high} minutes (0: tables never close by themselves)."
    ),
    "bad_table_limit": "The most tables goes from 0 (no limit) to {high}.",
})

CLI.update({
    "copy_no_source": (
        "musbot db copy: {source} does not exist: there is nothing to copy (nothing was "
        "created)."
    ),
    "copy_bad_url": (
        "musbot db copy: unknown database URL {scheme}…: use a file path, sqlite:///path or "
        "postgresql://…"
    ),
    "copy_same": "musbot db copy: {where}: the source and the target are one database.",
    "copy_not_empty": (
        "musbot db copy: {where} already holds data ({rows} rows in {tables} tables) that "
        "differs from the source: musbot db copy only fills an empty database. Nothing was "
        "changed."
    ),
    "copy_mismatch": (
        "musbot db copy: {where}: the copy did not read back as the source (row counts or a "
        "hand's text differ); it was rolled back, the target is as it was."
    ),
    "copy_tables_differ": (
        "musbot db copy: {where}: its tables are not the ones this musbot knows; nothing was "
        "changed."
    ),
    "copy_locked": (
        "musbot db copy: {where}: the database is locked by another process (waited "
        "{timeout} s); is another musbot running on the same file?"
    ),
    "copy_unavailable": "musbot db copy: {where}: the database is unavailable ({detail}).",
    "copy_corrupt": (
        "musbot db copy: {where}: the database is damaged ({detail}); the file was not "
        "modified."
    ),
    "copy_too_new": (
        "musbot db copy: {where}: the database is from a newer musbot (schema {found}; this "
        "one knows up to {known}); nothing was changed."
    ),
    "copy_foreign": (
        "musbot db copy: {where}: this database was not created by musbot (it has tables but "
        "no musbot schema record); refusing to use it."
    ),
    "copy_failed": "musbot db copy: {detail}",
    "copy_already": "the target already holds this copy ({rows} rows): nothing was written",
    "copy_done": (
        "copied {rows} rows; every table's rows counted and every hand's transcript and result "
        "({hands} hands) compared as text on both sides"
    ),
})

# «¿Cómo jugué?» (musbot.coach): the review, and where it is asked for (terminal, CLI, Discord).
COACH = {
    "heading": "How did I play? Each decision with what you knew then:",
    "heading_hand": "How did I play in hand {number}? Each decision with what you knew then:",
    "four_only": "The review only knows four-player games (two pairs).",
    "no_decisions": "You have not decided anything in this hand yet.",
    "in_play": "(The hand goes on: only what you have played so far.)",
    "you_said": "you said {played}, the «dificil» bot would have said {bot}",
    "lance_chance": "{lance} {chance}",
    "phase_mus": "Mus",
    "phase_descarte": "Discard",
    "line_mus": (
        "{phase} with {cards}: {said}. Your pair would win {pair}; an opponent holds pares "
        "{pares}, juego {juego}."
    ),
    "line_lance": (
        "{lance}: {said}. Your pair wins it {chance}; an opponent holds pares {pares}, "
        "juego {juego}."
    ),
    "option": "{word} {tantos}",
    "option_game": "{word} {tantos} (the game {game})",
    "options": "Expected tantos: {options}.",
    "advice_none": "Advice: no decision cost you even a quarter of a tanto. Well played!",
    "advice_bolder": (
        "Advice: at {lance} you said {played} with a {chance} chance to win it; {best} was "
        "worth about {cost} tantos more. That hand called for pressing."
    ),
    "advice_calmer": (
        "Advice: at {lance} you said {played} with a {chance} chance to win it; {best} was "
        "worth about {cost} tantos more. That was the place not to risk it."
    ),
    "advice_other": (
        "Advice: at {lance} you said {played} with a {chance} chance to win it; {best} was "
        "worth about {cost} tantos more."
    ),
    "percent": "{n}%",
    "decimal_point": ".",
    "quoted": "“{word}”",
    "word_mus": "mus",
    "word_no_hay_mus": "no hay mus",
    "terminal_offer": "How did I play? Type «repaso» to see your decisions in hand {number}.",
    "cli_repaso": "review one seat's decisions in a stored hand (docs/replay.md)",
    "cli_repaso_file": "the hand's JSON transcript («-»: standard input)",
    "cli_asiento": "the seat whose decisions are reviewed (1 to 4)",
    "cli_semilla": "sampling seed, to repeat the same review",
    "cli_bad_seat": (
        "musbot repaso: the hand has {players} seats: --asiento goes from 1 to {players}."
    ),
    "bench_repaso": (
        "reviews of hands played by bots: time to answer (p50, p99) and how long they hold "
        "up the event loop"
    ),
    "bench_hands": "how many hands to review",
    "bench_seed": "seed of the hands",
    "button": "How did I play?",
    "slash_repaso": "Review privately how you played a hand of this match",
    "slash_mano": "The hand's number (the last one if you leave it out)",
    "no_table": "There is no table here.",
    "not_seated": "You do not play at this table: one reviews only what one played oneself.",
    "no_hand": "I do not have hand {number} of this match; the last {kept} are kept: {numbers}.",
    "no_hands": "This match has no hands to review yet.",
    "busy": "I am finishing your previous review; ask again in a few seconds.",
}

"""English, for servers that choose it (the command words of every language are accepted)."""

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
    "betting_now": "Betting at {lance} now: paso, envido, órdago, quiero or no quiero.",
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
    "unknown_word": "I do not understand «{word}».",
}

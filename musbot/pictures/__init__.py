"""Cards and tables as pictures, drawn here with Pillow (issue 43): pure functions from cards
and plain values to PNG bytes, no Discord, no live table.

- :mod:`~musbot.pictures.cards`: the 40 cards and a back; each as a 128×128 emoji.
- :mod:`~musbot.pictures.hand`: a player's four cards numbered as «descarto 1 3» counts them.
- :mod:`~musbot.pictures.table`: the table from above at the showdown.
- :mod:`~musbot.pictures.canvas`, :mod:`~musbot.pictures.fonts`: the felt, the marks, the PNG
  encoding; the type face and names made safe to draw.

The Discord side (the cards as application emojis) is :mod:`musbot.discordio.card_emojis`.
"""

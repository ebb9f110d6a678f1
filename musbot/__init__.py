"""musbot: the Mus card game on Discord, in a terminal and as a replay, on one pure engine.

The layers, from the bottom up (``tests/test_layers.py`` holds them):

- ``engine/``: the rules, pure; driven by ``apply(seat, action)``, it answers with events and
  per-seat views (``SeatView``: what one seat may know).
- ``words.py`` and ``grammar/``: every word a player types, and its parser (``grammar.read``).
- ``ai/`` (the bots), ``coach/`` (the review, «¿Cómo jugué?»), ``wording.py`` (a move's and a
  card's words, below both the coach and the table).
- ``table/``: one live table (``TableState``, pure; ``Table``, its runner: lock, clock, bots,
  «save, then publish»); ``storage/``: SQLite or PostgreSQL; ``tournament/``: txapelketak, pure,
  and ``tournament/live/`` (the runner that plays them on tables).
- ``discordio/`` (Discord's side of a table, in layers: see its docstring), ``bot/`` (the
  running bot), ``cogs/`` (one per feature, no rule logic), ``terminal.py``, ``replay.py``,
  ``cli.py``.

Two walks follow one thing through the layers, each in six steps naming the functions that take
them (``tests/test_walks.py`` checks every name): «envido 5» typed in a channel, cog → grammar
→ table runner → engine → save → snapshot published → message edited, in :mod:`musbot.table`;
a tournament match's end, the engine's last point → the table's save → the «match over» notice
→ the tournament's runner → its state, saved → its board and bracket, in
:mod:`musbot.tournament`.

Names in the code, one word for one thing:

- *seat* a place at the table (0–3, or 0–5); *pair* (``Rules.team``) the seats that play
  together; *mano* the seat that speaks first; *postre* the last.
- *lance* one of Grande, Chica, Pares, Juego (or Punto); *envite* a bet; *deje* what a refused
  envite leaves; *órdago* the bet of the whole game; *tanteo* the count at a hand's end;
  *seña* a signal to one's partner (*cazada*: seen by an opponent).
- *page* (``table.Page``): what a table shows as one unit, a hand or the lobby; on Discord a
  *board* shows a channel's pages as *page messages*, each rendered from a *snapshot*.
- *holder*: whoever was dealt a hand's cards; only they may review it, and only as far as they
  held it (``coach.book``).
- *entry* (``table.entry.Entry``): what a tournament set on one of its match tables; a person's
  entry into a tournament is a *sign-up* (``tournament.model.Signup``).
- The engine's ``Match``, ``Event`` and ``Phase`` are a match's rules, a hand's record and a
  hand's step; the tournament's are a *fixture* (``Fixture``: a slot of the draw, played or
  not), a ``TournamentEvent`` and its *stage* (``Stage``: sign-up, running, finished). A
  league's ``Standing`` is a person's line over a season; a tournament's is a pair's
  (``PairStanding``). One class per name across the package (tests/test_layers.py).
- *texts*: every sentence comes from the catalogues through its audience's handle
  (``i18n.TABLE``, ``DISCORD``, ``SERVER``, ``CLI``, ``TERMINAL``, ``COACH``, ``TXAPELKETA``,
  ``REPLAY``, ``BENCH``…), ``TABLE("hand_started", lang, …)``; nothing else reads them
  (tests/test_i18n_lookups.py).

A table that is not being played is in one of four states, each with its own cause and its own
way back (``table.halts`` names them and makes the table's side of each):

- *asleep*: restored after a restart, its channel not seen yet by the gateway (``bot.storage``);
  it wakes when the channel is seen.
- *hidden*: its channel was lost to the bot (a permission taken away, the channel deleted:
  ``discordio.access``); it resumes when the channel is seen again.
- *paused*: a change could not be saved (``table.pause``); it plays on once a save succeeds.
- *suspended*: the bot is stopping; the table is saved, its clock and bots stopped, to go on
  after the next start.
"""

-- 0007: tournaments of pairs (txapelketak, issue #26). A tournament's whole state is one JSON
-- document (musbot.tournament.Tournament.to_dict), written after every change; the other tables
-- are what must be found across tournaments: who is named in which (to forget a person), the
-- hall of fame, and the ratings of stable pairs.

CREATE TABLE tournaments (
    tournament_id  INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    name           TEXT NOT NULL,
    name_key       TEXT NOT NULL,                   -- name folded (case, accents): for uniqueness
    phase          TEXT NOT NULL CHECK (phase IN ('signup', 'running', 'finished', 'cancelled')),
    state          TEXT NOT NULL CHECK (json_valid(state)),
    revision       INTEGER NOT NULL,                -- the state's own, which grows with each change
    rated          INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),  -- pair ratings applied
    created_by     INTEGER,                         -- user id; NULL once that user is forgotten
    channel_id     INTEGER,                         -- where its news and bracket are posted
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    finished_at    TEXT,
    UNIQUE (guild_id, name_key)
);
CREATE INDEX tournaments_phase ON tournaments (phase, guild_id);

-- Everyone a tournament's state names (signed up, partners named, pairs drawn).
CREATE TABLE tournament_people (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_people_user ON tournament_people (user_id);

-- The hall of fame: each finished tournament's champions (place 1) and finalists (place 2),
-- two people each (slot 0 and 1), as named when it finished.
CREATE TABLE tournament_podium (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    place          INTEGER NOT NULL CHECK (place IN (1, 2)),
    slot           INTEGER NOT NULL CHECK (slot IN (0, 1)),
    user_id        INTEGER,                         -- NULL once forgotten
    name           TEXT,                            -- NULL once forgotten
    PRIMARY KEY (tournament_id, place, slot)
);
CREATE INDEX tournament_podium_user ON tournament_podium (user_id);

-- OpenSkill rating of a stable pair (the same two people, lower user id first) in a server.
CREATE TABLE pair_ratings (
    guild_id    INTEGER NOT NULL,
    player_a    INTEGER NOT NULL,
    player_b    INTEGER NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    matches     INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, player_a, player_b),
    CHECK (player_a < player_b)
);
CREATE INDEX pair_ratings_b ON pair_ratings (player_b);

-- Batches of pair results applied (a tournament's, a league match's), by the caller's key, so
-- that applying one again changes nothing.
CREATE TABLE pair_rating_keys (
    guild_id    INTEGER NOT NULL,
    rating_key  TEXT NOT NULL,
    applied_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, rating_key)
);

-- Where each match's table is played (a thread): found again after a restart, never opened
-- twice; a replayed match is played again in the same place.
CREATE TABLE tournament_tables (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    match_id       TEXT NOT NULL,
    channel_id     INTEGER NOT NULL UNIQUE,
    PRIMARY KEY (tournament_id, match_id)
);

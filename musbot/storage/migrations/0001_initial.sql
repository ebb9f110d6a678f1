-- 0001: the first schema (issue #4). Timestamps are ISO-8601 UTC text; Discord ids are integers.
-- Users appear only in players, match_seats, league_members, ratings and rating_history, so that
-- forgetting a player (Database.forget_player) touches those and nothing else.

CREATE TABLE players (
    user_id       INTEGER PRIMARY KEY,              -- Discord user id
    display_name  TEXT,                             -- NULL once forgotten
    forgotten     INTEGER NOT NULL DEFAULT 0 CHECK (forgotten IN (0, 1)),
    forgotten_at  TEXT,
    created_at    TEXT NOT NULL
);

CREATE TABLE servers (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    updated_at  TEXT NOT NULL
);

-- One row per table in play; the table layer rewrites its state after every action.
CREATE TABLE live_tables (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER,                            -- NULL outside a guild (DMs, terminal)
    state       TEXT NOT NULL CHECK (json_valid(state)),
    version     INTEGER NOT NULL DEFAULT 1,         -- bumped on every save
    updated_at  TEXT NOT NULL
);

CREATE TABLE leagues (
    league_id   INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,                      -- name folded (case, accents): for uniqueness
    created_by  INTEGER,                            -- user id; NULL once that user is forgotten
    created_at  TEXT NOT NULL,
    UNIQUE (guild_id, name_key)
);

CREATE TABLE league_members (
    league_id  INTEGER NOT NULL REFERENCES leagues (league_id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES players (user_id) ON DELETE CASCADE,
    joined_at  TEXT NOT NULL,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE seasons (
    season_id   INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (league_id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number >= 1),
    started_at  TEXT NOT NULL,
    closed_at   TEXT,
    UNIQUE (league_id, number)
);
-- At most one open season per league.
CREATE UNIQUE INDEX seasons_one_open ON seasons (league_id) WHERE closed_at IS NULL;

CREATE TABLE matches (
    match_id     INTEGER PRIMARY KEY,
    match_key    TEXT UNIQUE,                       -- the caller's id, makes start_match retryable
    channel_id   INTEGER,
    guild_id     INTEGER,
    league_id    INTEGER REFERENCES leagues (league_id),   -- NULL: not a league table
    season_id    INTEGER REFERENCES seasons (season_id),   -- the season open when it finished
    rules        TEXT NOT NULL CHECK (json_valid(rules)),
    players      INTEGER NOT NULL CHECK (players IN (2, 4, 6)),
    has_bots     INTEGER NOT NULL DEFAULT 0 CHECK (has_bots IN (0, 1)),
    started_at   TEXT NOT NULL,
    ended_at     TEXT,
    abandoned    INTEGER NOT NULL DEFAULT 0 CHECK (abandoned IN (0, 1)),
    winner_team  INTEGER CHECK (winner_team IN (0, 1)),
    games_0      INTEGER NOT NULL DEFAULT 0,        -- games won by each team
    games_1      INTEGER NOT NULL DEFAULT 0,
    tantos_0     INTEGER NOT NULL DEFAULT 0,        -- tantos summed over the games' final scores
    tantos_1     INTEGER NOT NULL DEFAULT 0,
    final_score  TEXT CHECK (final_score IS NULL OR json_valid(final_score)),
    rated        INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))
);
CREATE INDEX matches_season ON matches (season_id, ended_at);
CREATE INDEX matches_league ON matches (league_id, ended_at);

-- kind 'player': player_id set; 'bot': bot marker set; 'anonymous': a forgotten player.
CREATE TABLE match_seats (
    match_id   INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    team       INTEGER NOT NULL CHECK (team IN (0, 1)),
    kind       TEXT NOT NULL CHECK (kind IN ('player', 'bot', 'anonymous')),
    player_id  INTEGER REFERENCES players (user_id),
    bot        TEXT,
    PRIMARY KEY (match_id, seat),
    CHECK ((kind = 'player') = (player_id IS NOT NULL)),
    CHECK ((kind = 'bot') = (bot IS NOT NULL))
);
CREATE INDEX match_seats_player ON match_seats (player_id);

CREATE TABLE games (
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    number       INTEGER NOT NULL CHECK (number >= 1),
    winner_team  INTEGER NOT NULL CHECK (winner_team IN (0, 1)),
    score_0      INTEGER NOT NULL,
    score_1      INTEGER NOT NULL,
    PRIMARY KEY (match_id, number)
);

-- transcript: docs/replay.md input; result: docs/replay.md output.
CREATE TABLE hands (
    hand_id      INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    number       INTEGER NOT NULL CHECK (number >= 1),
    game_number  INTEGER NOT NULL,
    transcript   TEXT NOT NULL CHECK (json_valid(transcript)),
    result       TEXT NOT NULL CHECK (json_valid(result)),
    recorded_at  TEXT NOT NULL,
    UNIQUE (match_id, number)
);

-- Every scoring step of a hand, in the order scored (docs/replay.md "ledger").
CREATE TABLE ledger (
    hand_id  INTEGER NOT NULL REFERENCES hands (hand_id) ON DELETE CASCADE,
    step     INTEGER NOT NULL,
    pair     INTEGER NOT NULL CHECK (pair IN (0, 1)),
    tantos   INTEGER NOT NULL,
    lance    TEXT NOT NULL,
    kind     TEXT NOT NULL,
    PRIMARY KEY (hand_id, step)
);

-- Every órdago called; seats, not users, so that forgetting a player needs no change here.
CREATE TABLE ordagos (
    ordago_id      INTEGER PRIMARY KEY,
    hand_id        INTEGER NOT NULL REFERENCES hands (hand_id) ON DELETE CASCADE,
    match_id       INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    caller_seat    INTEGER NOT NULL,
    accepter_seat  INTEGER,                         -- NULL: refused
    lance          TEXT,                            -- known when accepted
    winner_team    INTEGER CHECK (winner_team IN (0, 1))
);
CREATE INDEX ordagos_match ON ordagos (match_id);

-- OpenSkill rating of a player in one season (every season starts afresh).
CREATE TABLE ratings (
    season_id   INTEGER NOT NULL REFERENCES seasons (season_id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL REFERENCES players (user_id) ON DELETE CASCADE,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    matches     INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (season_id, user_id)
);

CREATE TABLE rating_history (
    season_id    INTEGER NOT NULL REFERENCES seasons (season_id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES players (user_id) ON DELETE CASCADE,
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    recorded_at  TEXT NOT NULL,
    PRIMARY KEY (season_id, user_id, match_id)
);

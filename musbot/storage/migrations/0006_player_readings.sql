-- 0006: how a person bets, as the «dificil» bots of one server read it from the showdowns of its
-- tables (musbot.ai.reading.Reading, a small JSON document). Kept per server, never shared with
-- another; forgetting a player (Database.forget_player) deletes every row of theirs.

CREATE TABLE player_readings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    reading     TEXT NOT NULL CHECK (json_valid(reading)),
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_readings_user ON player_readings (user_id);

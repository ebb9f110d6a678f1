-- 0006 on PostgreSQL: ../0006_player_readings.sql in PostgreSQL's types (BIGINT ids, `json`).

CREATE TABLE player_readings (
    guild_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    reading     JSON NOT NULL,
    updated_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_readings_user ON player_readings (user_id);

-- 0002: DB-backed timers (RoboDanny's reminder model), so that turn timers and other deadlines
-- survive a restart: one dispatcher task sleeps until the earliest row is due.

CREATE TABLE timers (
    timer_id    INTEGER PRIMARY KEY,
    event       TEXT NOT NULL,                      -- what to do when due, e.g. 'turn'
    timer_key   TEXT UNIQUE,                        -- at most one timer per key ('turn:<channel>')
    expires_at  TEXT NOT NULL,
    data        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
    created_at  TEXT NOT NULL
);
CREATE INDEX timers_expires ON timers (expires_at);

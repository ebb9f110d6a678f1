-- 0009 on PostgreSQL: ../0009_person_calls.sql with a BIGINT Discord id.

CREATE TABLE person_calls (
    user_id     BIGINT PRIMARY KEY,
    way         TEXT NOT NULL CHECK (way IN ('mention', 'dm')),
    chosen_at   TEXT COLLATE "C" NOT NULL
);

-- 0009: how each person wants to be told it is their turn when they are not watching the table
-- (/mus avisos): a mention in the table's channel (the default, no row) or a DM. A row only for
-- those who chose; no name; forgetting a person (Database.forget_player) deletes it.

CREATE TABLE person_calls (
    user_id     INTEGER PRIMARY KEY,                -- Discord user id
    way         TEXT NOT NULL CHECK (way IN ('mention', 'dm')),
    chosen_at   TEXT NOT NULL
);

-- 0005: each person's own language (/mus idioma), for what only they read (DMs, private
-- answers). A row only for those who chose one: the others read their Discord client's language.
-- No reference to players: choosing a language makes nobody a player, and stores no name.
-- Forgetting a person (Database.forget_player) deletes their row.

CREATE TABLE person_languages (
    user_id     INTEGER PRIMARY KEY,                -- Discord user id
    language    TEXT NOT NULL CHECK (language IN ('es', 'eu', 'fr', 'en')),
    chosen_at   TEXT NOT NULL
);

-- 0005 on PostgreSQL: ../0005_person_languages.sql with a BIGINT Discord id.

CREATE TABLE person_languages (
    user_id     BIGINT PRIMARY KEY,
    language    TEXT NOT NULL CHECK (language IN ('es', 'eu', 'fr', 'en')),
    chosen_at   TEXT COLLATE "C" NOT NULL
);

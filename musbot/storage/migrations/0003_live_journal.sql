-- 0003: a journal per live table. Between two saves of its whole state (2 KB), a table in play
-- appends each move here (a few dozen bytes); the next whole save empties it, and a restore
-- replays it on the saved state. A JSON array, always valid: SQLite's json_insert writes it.

ALTER TABLE live_tables ADD COLUMN journal TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(journal));

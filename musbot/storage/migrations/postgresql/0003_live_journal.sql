-- 0003 on PostgreSQL: ../0003_live_journal.sql's journal, a `json` array (checked JSON, its text
-- kept as written).

ALTER TABLE live_tables ADD COLUMN journal JSON NOT NULL DEFAULT '[]';

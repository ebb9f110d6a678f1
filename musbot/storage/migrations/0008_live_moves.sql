-- 0008: a live table's journal (0003) in rows of its own, one per entry. Appended to a column of
-- the table's row, every move rewrote the whole row in the write-ahead log, its saved state
-- included (kilobytes, on pages of their own); an entry's own row is a few dozen bytes.
-- A whole save of the table removes its entries in the same statement (the trigger), and
-- removing the table removes them (the reference). ``at``: when the entry was written (a
-- table's updated_at is its last write, a save's or an entry's).

CREATE TABLE live_moves (
    channel_id  INTEGER NOT NULL REFERENCES live_tables (channel_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,                   -- 1, 2, … after the table's last whole save
    entry       TEXT NOT NULL CHECK (json_valid(entry)),
    at          TEXT NOT NULL,
    PRIMARY KEY (channel_id, seq)
) WITHOUT ROWID;

INSERT INTO live_moves (channel_id, seq, entry, at)
SELECT live_tables.channel_id, moves.key + 1,
       CASE moves.type WHEN 'array' THEN moves.value WHEN 'object' THEN moves.value
                       WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null'
                       ELSE json_quote(moves.value) END,
       live_tables.updated_at
FROM live_tables, json_each(live_tables.journal) AS moves;

-- A table's version counted its entries; it now counts its saves, and a read adds its entries.
UPDATE live_tables SET version = version - json_array_length(journal);

ALTER TABLE live_tables DROP COLUMN journal;

CREATE TRIGGER live_tables_saved AFTER UPDATE OF state ON live_tables
BEGIN
    DELETE FROM live_moves WHERE channel_id = NEW.channel_id;
END;

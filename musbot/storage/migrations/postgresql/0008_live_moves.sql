-- 0008 on PostgreSQL: ../0008_live_moves.sql's rows, the entries as `json`. No trigger: a whole
-- save removes the table's entries in its own statement (musbot.storage.live).

CREATE TABLE live_moves (
    channel_id  BIGINT NOT NULL REFERENCES live_tables (channel_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    entry       JSON NOT NULL,
    at          TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (channel_id, seq)
);

INSERT INTO live_moves (channel_id, seq, entry, at)
SELECT live_tables.channel_id, moves.seq, moves.entry, live_tables.updated_at
FROM live_tables, json_array_elements(live_tables.journal) WITH ORDINALITY AS moves (entry, seq);

UPDATE live_tables SET version = version - json_array_length(journal);

ALTER TABLE live_tables DROP COLUMN journal;

-- The episodes index holds no place, so a search scored every matching
-- episode of every project before the place filter dropped most (55% of a
-- request block's CPU at 1M parts). A place column would fix the order
-- but not the scores: bm25 divides by a row's tokens in every column.
-- Instead each index row's rowid carries its episode's place: the place's
-- number times 2^40 plus the episode's id (episodeRowid), so a place's
-- rows are one rowid range, which FTS5 reads alone, while bm25's row
-- count, token totals and each term's row count stay the whole index's.
CREATE TABLE episode_places (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    project    TEXT    NOT NULL,
    repo       TEXT    NOT NULL,
    UNIQUE (account_id, project, repo)
);
INSERT INTO episode_places (account_id, project, repo)
    SELECT DISTINCT account_id, project, repo FROM episodes ORDER BY account_id, project, repo;

-- The index is rebuilt empty, and the first open after this migration
-- indexes every episode again, at its new rowid (see indexBacklog).
DROP TABLE episodes_vocab;
DROP TABLE episodes_fts;
CREATE VIRTUAL TABLE episodes_fts USING fts5(
    body, context,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./'"
);
CREATE VIRTUAL TABLE episodes_vocab USING fts5vocab(episodes_fts, 'row');
INSERT INTO fts_backlog (layer, id) SELECT 'L2', id FROM episodes;

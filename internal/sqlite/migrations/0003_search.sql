-- Full-text indexes, one per layer. cairn tokenizes in Go (ASCII words
-- with stems, code identifiers whole and in parts, CJK bigrams) and stores
-- the space-joined tokens; FTS5's unicode61 tokenizer with these
-- tokenchars reads them back unchanged. The indexes are contentless (the
-- text lives in the layer's own table, never twice) with delete support,
-- so a purge removes a row's terms by rowid. An external-content table
-- would make PRAGMA integrity_check compare the index with the raw text
-- re-tokenized by FTS5's tokenizer, which is not ours.
-- The place column holds opaque tokens naming the account and the
-- session's worktree, project and repo, so a search ANDs its place into the
-- match and FTS5 intersects posting lists instead of the store joining and
-- filtering every matching row.
CREATE VIRTUAL TABLE parts_fts USING fts5(
    body, context, place,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./'"
);
CREATE VIRTUAL TABLE parts_vocab USING fts5vocab(parts_fts, 'row');

-- Document counts per layer, kept in the same transaction as the index,
-- for IDF-based query term selection.
CREATE TABLE fts_docs (
    layer TEXT    PRIMARY KEY,
    docs  INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO fts_docs (layer, docs) VALUES ('L0', 0);

-- Parts imported before this migration are indexed by the first store
-- open after it (see indexBacklog); marking them here keeps the migration
-- itself pure SQL.
CREATE TABLE fts_backlog (
    layer TEXT    NOT NULL,
    id    INTEGER NOT NULL,
    PRIMARY KEY (layer, id)
) WITHOUT ROWID;
INSERT INTO fts_backlog (layer, id) SELECT 'L0', id FROM parts;
INSERT INTO parts_fts (parts_fts, rank) VALUES ('automerge', 8);

-- L1: one statement table for notes and facts, with two clocks. Times are
-- Unix milliseconds; 0 means "not set" (an open window, a current belief).
CREATE TABLE statements (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    kind         TEXT    NOT NULL,              -- fact | event | note
    subject      TEXT    NOT NULL DEFAULT '',
    predicate    TEXT    NOT NULL DEFAULT '',
    object       TEXT    NOT NULL,
    slot         TEXT    NOT NULL DEFAULT '',   -- subject + predicate: one-value slots hold one current row
    class        TEXT    NOT NULL DEFAULT '',
    category     TEXT    NOT NULL DEFAULT '',
    cardinality  TEXT    NOT NULL,
    tier         TEXT    NOT NULL DEFAULT '',   -- '' = no tier: stored, never sent to a model
    writer       TEXT    NOT NULL,
    place_rung   TEXT    NOT NULL DEFAULT '',
    place_key    TEXT    NOT NULL DEFAULT '',
    confidence   REAL    NOT NULL DEFAULT 1,
    pinned       INTEGER NOT NULL DEFAULT 0,
    valid_at     INTEGER NOT NULL,              -- world clock
    invalid_at   INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,              -- system clock
    expired_at   INTEGER NOT NULL DEFAULT 0,
    reason       TEXT    NOT NULL DEFAULT '',
    replaced_by  INTEGER NOT NULL DEFAULT 0,
    revises      INTEGER NOT NULL DEFAULT 0,    -- the row a late arrival re-windowed
    usage_count  INTEGER NOT NULL DEFAULT 0,
    last_used_at INTEGER NOT NULL DEFAULT 0
);
-- Few indexes, chosen so that closing a row moves as little as possible:
-- every write point transaction pays for each index it touches.
CREATE INDEX statements_slot ON statements (account_id, slot);
CREATE INDEX statements_current ON statements (account_id, kind) WHERE expired_at = 0 AND invalid_at = 0;

CREATE TABLE evidence (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    statement_id INTEGER NOT NULL REFERENCES statements(id),
    session_id   INTEGER NOT NULL DEFAULT 0,
    turn_id      INTEGER NOT NULL DEFAULT 0,
    part_seq     INTEGER NOT NULL DEFAULT 0,
    source       TEXT    NOT NULL DEFAULT '',
    quote        TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX evidence_statement ON evidence (statement_id);
CREATE INDEX evidence_turn ON evidence (turn_id);

CREATE VIRTUAL TABLE statements_fts USING fts5(
    body, context,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./'"
);
CREATE VIRTUAL TABLE statements_vocab USING fts5vocab(statements_fts, 'row');
INSERT INTO fts_docs (layer, docs) VALUES ('L1', 0);

-- Work that waits while capture is switched off: tool rules and turn
-- extraction run on it when capture is switched on again.
CREATE TABLE capture_queue (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    kind       TEXT    NOT NULL,    -- tools | turn
    session_id INTEGER NOT NULL,
    turn_id    INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (account_id, kind, turn_id)
);

-- Candidates wait out a settling window before promotion into L1; a later
-- turn in the same session resets the window.
CREATE TABLE candidates (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    turn_id      INTEGER NOT NULL REFERENCES turns(id),
    draft        TEXT    NOT NULL,           -- JSON memory.Draft, redacted
    user_text    TEXT    NOT NULL DEFAULT '', -- the user's words, to check a claim of asserted
    created_at   INTEGER NOT NULL,
    due_at       INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'pending', -- pending | promoted | dropped
    statement_id INTEGER NOT NULL DEFAULT 0,
    note         TEXT    NOT NULL DEFAULT ''  -- why it was dropped
);
CREATE INDEX candidates_due ON candidates (account_id, status, due_at);
CREATE INDEX candidates_session ON candidates (session_id, status);
CREATE UNIQUE INDEX candidates_once ON candidates (turn_id, draft);

-- L2: one bounded request/outcome summary per completed turn.
CREATE TABLE episodes (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    turn_id      INTEGER NOT NULL REFERENCES turns(id),
    worktree     TEXT    NOT NULL DEFAULT '',
    project      TEXT    NOT NULL DEFAULT '',
    repo         TEXT    NOT NULL DEFAULT '',
    request      TEXT    NOT NULL DEFAULT '',
    outcome      TEXT    NOT NULL DEFAULT '',
    summary      TEXT    NOT NULL,
    tools        TEXT    NOT NULL DEFAULT '',
    files        TEXT    NOT NULL DEFAULT '',
    status       TEXT    NOT NULL DEFAULT '',
    first_part   INTEGER NOT NULL DEFAULT 0,
    last_part    INTEGER NOT NULL DEFAULT 0,
    at           INTEGER NOT NULL,           -- the turn's time
    created_at   INTEGER NOT NULL,
    confidence   REAL    NOT NULL DEFAULT 1,
    pinned       INTEGER NOT NULL DEFAULT 0,
    expired_at   INTEGER NOT NULL DEFAULT 0,
    reason       TEXT    NOT NULL DEFAULT '',  -- forgotten | capped
    usage_count  INTEGER NOT NULL DEFAULT 0,
    last_used_at INTEGER NOT NULL DEFAULT 0,
    UNIQUE (turn_id)
);
CREATE INDEX episodes_project ON episodes (account_id, project, expired_at, pinned, at);
CREATE VIRTUAL TABLE episodes_fts USING fts5(
    body, context,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./'"
);
CREATE VIRTUAL TABLE episodes_vocab USING fts5vocab(episodes_fts, 'row');
INSERT INTO fts_docs (layer, docs) VALUES ('L2', 0);

-- L3: a conservative profile rebuilt from active L1 notes; inspection only.
CREATE TABLE profiles (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL UNIQUE REFERENCES accounts(id),
    body       TEXT    NOT NULL,
    sources    TEXT    NOT NULL DEFAULT '', -- the note ids it rests on
    built_at   INTEGER NOT NULL
);
CREATE VIRTUAL TABLE profiles_fts USING fts5(
    body, context,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./'"
);
INSERT INTO fts_docs (layer, docs) VALUES ('L3', 0);

-- L0: sessions, turns and their redacted parts, as imported from client
-- transcripts or captured by hooks.
CREATE TABLE sessions (
    id                 INTEGER PRIMARY KEY,
    account_id         INTEGER NOT NULL REFERENCES accounts(id),
    provider           TEXT    NOT NULL,
    external_id        TEXT    NOT NULL,
    parent_external_id TEXT    NOT NULL DEFAULT '',
    subagent           INTEGER NOT NULL DEFAULT 0,
    cwd                TEXT    NOT NULL DEFAULT '',
    worktree           TEXT    NOT NULL DEFAULT '',
    project            TEXT    NOT NULL DEFAULT '',
    repo               TEXT    NOT NULL DEFAULT '',
    title              TEXT    NOT NULL DEFAULT '',
    summary            TEXT    NOT NULL DEFAULT '',
    client_version     TEXT    NOT NULL DEFAULT '',
    model              TEXT    NOT NULL DEFAULT '',
    branch             TEXT    NOT NULL DEFAULT '',
    started_at         INTEGER NOT NULL DEFAULT 0,
    ended_at           INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (account_id, provider, external_id)
);
CREATE INDEX sessions_worktree ON sessions (account_id, worktree, ended_at);
CREATE INDEX sessions_project ON sessions (account_id, project, ended_at);

CREATE TABLE turns (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq        INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    request    TEXT    NOT NULL DEFAULT '',
    outcome    TEXT    NOT NULL DEFAULT '',
    status     TEXT    NOT NULL,
    flags      INTEGER NOT NULL DEFAULT 0,
    model      TEXT    NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL DEFAULT 0,
    ended_at   INTEGER NOT NULL DEFAULT 0,
    -- digest of the redacted content: a re-import that finds the same
    -- digest changes nothing; a different one replaces the turn's parts.
    digest     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (session_id, key)
);

CREATE TABLE parts (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    turn_id    INTEGER NOT NULL REFERENCES turns(id),
    seq        INTEGER NOT NULL, -- position in the session
    role       TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    tool       TEXT    NOT NULL DEFAULT '',
    is_error   INTEGER NOT NULL DEFAULT 0,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX parts_turn ON parts (turn_id, seq);
CREATE INDEX parts_session ON parts (session_id, seq);

-- What each imported file looked like when last read, so an unchanged file
-- is skipped without parsing and a grown one is re-read.
CREATE TABLE sources (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    path       TEXT    NOT NULL,
    provider   TEXT    NOT NULL,
    files      TEXT    NOT NULL, -- JSON list of {path, size, mod_time}
    consumed   INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, path)
) WITHOUT ROWID;

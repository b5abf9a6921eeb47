-- API tokens of a team gateway. Only the SHA-256 of a token is kept (the
-- token itself is shown once, when it is made); hint is its first
-- characters, so a person can tell tokens apart in a list. A revoked
-- token stays as a row, so the list shows when it stopped working.
CREATE TABLE tokens (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name       TEXT    NOT NULL DEFAULT '',
    hash       BLOB    NOT NULL UNIQUE,
    hint       TEXT    NOT NULL,
    operator   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tokens_account ON tokens (account_id, id);

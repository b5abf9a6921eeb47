-- Writes an agent asked for during a turn: they take effect when the
-- turn ends normally and are dropped if the turn is refused.
CREATE TABLE pending_writes (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    worktree     TEXT    NOT NULL,
    write        TEXT    NOT NULL, -- JSON: the draft, writer, tier claim, place
    created_at   INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'pending', -- pending | applied | dropped
    statement_id INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX pending_writes_place ON pending_writes (account_id, worktree, status, created_at);

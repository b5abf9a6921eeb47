-- Phase 1's output per session and pipeline version: kept here, not in the
-- vault, until a consolidation publishes it.
CREATE TABLE extractions (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    version      TEXT    NOT NULL,
    slug         TEXT    NOT NULL DEFAULT '',
    raw_memory   TEXT    NOT NULL DEFAULT '',
    summary      TEXT    NOT NULL DEFAULT '',
    empty        INTEGER NOT NULL DEFAULT 0,
    task         TEXT    NOT NULL DEFAULT '',
    task_group   TEXT    NOT NULL DEFAULT '',
    outcome      TEXT    NOT NULL DEFAULT '',
    keywords     TEXT    NOT NULL DEFAULT '',
    statements   TEXT    NOT NULL DEFAULT '',
    model        TEXT    NOT NULL DEFAULT '',
    session_at   INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    usage_count  INTEGER NOT NULL DEFAULT 0,
    last_used_at INTEGER NOT NULL DEFAULT 0,
    pruned_at    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (account_id, session_id, version)
);

-- Phase 1 job state per session: claimed through a lease so several cairn
-- processes never extract one session twice; retried with backoff.
CREATE TABLE jobs (
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    session_id  INTEGER NOT NULL REFERENCES sessions(id),
    version     TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'pending', -- pending | running | done | failed | skipped
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL DEFAULT 0,
    owner       TEXT    NOT NULL DEFAULT '',
    lease_until INTEGER NOT NULL DEFAULT 0,
    error       TEXT    NOT NULL DEFAULT '',
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (account_id, session_id, version)
) WITHOUT ROWID;

-- Named leases: one consolidation in flight across processes, renewed by
-- heartbeat.
CREATE TABLE leases (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name       TEXT    NOT NULL,
    owner      TEXT    NOT NULL,
    until      INTEGER NOT NULL,
    PRIMARY KEY (account_id, name)
) WITHOUT ROWID;

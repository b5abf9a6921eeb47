-- Every call cairn makes to a model: which phase, provider and model, the
-- tokens, how long it took and what it is estimated to cost. The daily
-- budget sums cost_usd since the start of the day; skipped calls (budget
-- spent, nothing sent) are kept too, so `cairn costs` shows them.
CREATE TABLE model_calls (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    at         INTEGER NOT NULL,
    phase      TEXT    NOT NULL,  -- extraction | consolidation | turn_facts
    provider   TEXT    NOT NULL,
    model      TEXT    NOT NULL DEFAULT '',
    status     TEXT    NOT NULL,  -- ok | failed | refused | skipped
    tokens_in  INTEGER NOT NULL DEFAULT 0,
    tokens_out INTEGER NOT NULL DEFAULT 0,
    took_ms    INTEGER NOT NULL DEFAULT 0,
    cost_usd   REAL    NOT NULL DEFAULT 0,
    priced     INTEGER NOT NULL DEFAULT 0,
    error      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX model_calls_at ON model_calls (account_id, at);

-- The memory version (v1, v2 or dual) in force when a session was first
-- seen: a later switch applies to new sessions only.
CREATE TABLE session_versions (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    session_id INTEGER NOT NULL,  -- no foreign key: a purge of the session must not stop on it
    version    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, session_id)
) WITHOUT ROWID;

-- What each recall sent: the ids, layers, categories, evidence, scores,
-- the exact text and its estimated tokens, beside the transcript (never
-- in it).
CREATE TABLE receipts (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    provider    TEXT    NOT NULL,
    session_ref TEXT    NOT NULL,   -- the client's session id
    kind        TEXT    NOT NULL,   -- standing | recall
    request     TEXT    NOT NULL DEFAULT '',
    request_key TEXT    NOT NULL DEFAULT '', -- hash of the request, to find its turn later
    turn_id     INTEGER NOT NULL DEFAULT 0,  -- the turn it served, once imported
    status      TEXT    NOT NULL,
    items       TEXT    NOT NULL,   -- JSON: ref, layer, category, evidence, score
    text        TEXT    NOT NULL,
    tokens      INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX receipts_session ON receipts (account_id, provider, session_ref, created_at);
CREATE INDEX receipts_request ON receipts (account_id, request_key);

-- Which statement each receipt carried, for refusal hold-back.
CREATE TABLE receipt_items (
    receipt_id   INTEGER NOT NULL REFERENCES receipts(id),
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    statement_id INTEGER NOT NULL,
    PRIMARY KEY (receipt_id, statement_id)
) WITHOUT ROWID;
CREATE INDEX receipt_items_statement ON receipt_items (account_id, statement_id);

-- A session's own read and write policies (a preset), kept by the
-- client's session id: a hook may ask before the session is imported.
CREATE TABLE session_policies (
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    provider    TEXT    NOT NULL,
    session_ref TEXT    NOT NULL,
    preset      TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (account_id, provider, session_ref)
) WITHOUT ROWID;

-- A preset waiting for the next session started in a directory.
CREATE TABLE place_presets (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    worktree   TEXT    NOT NULL,
    preset     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, worktree)
) WITHOUT ROWID;

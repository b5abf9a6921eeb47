-- Accounts: every table that holds memory carries account_id, so a team
-- gateway isolates tenants without reworking queries. A local store has
-- one account.
CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
INSERT INTO accounts (id, name, created_at) VALUES (1, 'local', 0);

-- Settings kept in the store: the global switches set with
-- `cairn config set`, per account.
CREATE TABLE settings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
) WITHOUT ROWID;

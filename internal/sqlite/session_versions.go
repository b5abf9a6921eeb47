package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/cairn-memory/cairn/internal/memory"
)

// RecordSessionVersion records the memory version in force for a session
// the first time it is seen; a later call keeps the first.
func (db *DB) RecordSessionVersion(ctx context.Context, acct memory.AccountID, sessionID int64, version string) error {
	return wrapChange("record session version", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO session_versions (account_id, session_id, version, created_at)
			VALUES (?, ?, ?, ?) ON CONFLICT (account_id, session_id) DO NOTHING`,
			int64(acct), sessionID, version, millis(tx.Now))
		return err
	}))
}

// SessionVersion returns the version recorded for a session; ok is false
// when none was.
func (db *DB) SessionVersion(ctx context.Context, acct memory.AccountID, sessionID int64) (string, bool, error) {
	var v string
	err := db.read.QueryRowContext(ctx, `SELECT version FROM session_versions WHERE account_id = ? AND session_id = ?`,
		int64(acct), sessionID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, memory.Wrap(memory.CodeInternal, "read session version", err)
	}
	return v, true, nil
}

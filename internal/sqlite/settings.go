package sqlite

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Settings returns the settings kept in the store for an account.
func (db *DB) Settings(ctx context.Context, acct memory.AccountID) (map[string]string, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT key, value FROM settings WHERE account_id = ?`, int64(acct))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read settings", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read settings", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}

// SetSetting stores one setting; an empty value removes it, so the
// configuration file's value applies again.
func (db *DB) SetSetting(ctx context.Context, acct memory.AccountID, key, value string) error {
	return wrapChange("write setting", db.Update(ctx, func(tx *Tx) error {
		if value == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM settings WHERE account_id = ? AND key = ?`, int64(acct), key)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			int64(acct), key, value, millis(tx.Now))
		return err
	}))
}

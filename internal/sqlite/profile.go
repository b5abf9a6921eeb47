package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// SaveProfile replaces the account's profile (L3); an empty body removes it.
func (db *DB) SaveProfile(ctx context.Context, acct memory.AccountID, body string, sources []int64) error {
	return wrapChange("save profile", db.Update(ctx, func(tx *Tx) error {
		ix, err := newIndexer(ctx, tx, memory.L3, 2)
		if err != nil {
			return err
		}
		var old int64
		_ = tx.QueryRowContext(ctx, `SELECT id FROM profiles WHERE account_id = ?`, int64(acct)).Scan(&old)
		if old != 0 {
			if err := ix.remove(ctx, old); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM profiles WHERE id = ?`, old); err != nil {
				return err
			}
		}
		if body != "" {
			ids := make([]string, len(sources))
			for i, s := range sources {
				ids[i] = strconv.FormatInt(s, 10)
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO profiles (account_id, body, sources, built_at) VALUES (?, ?, ?, ?)`,
				int64(acct), body, strings.Join(ids, " "), millis(tx.Now))
			if err != nil {
				return err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			if err := ix.add(ctx, id, body, ""); err != nil {
				return err
			}
		}
		return ix.close(ctx)
	}))
}

// Profile returns the account's profile, or false when there is none.
func (db *DB) Profile(ctx context.Context, acct memory.AccountID) (memory.Profile, bool, error) {
	var p memory.Profile
	var src string
	var built int64
	err := db.read.QueryRowContext(ctx, `SELECT id, body, sources, built_at FROM profiles WHERE account_id = ?`, int64(acct)).Scan(&p.ID, &p.Body, &src, &built)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, memory.Wrap(memory.CodeInternal, "read profile", err)
	}
	for _, f := range strings.Fields(src) {
		if n, err := strconv.ParseInt(f, 10, 64); err == nil {
			p.Sources = append(p.Sources, n)
		}
	}
	p.BuiltAt = fromMillis(built)
	return p, true, nil
}

package sqlite

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// AcquireLease takes a named lease for owner until until, if nobody else
// holds it (or theirs expired). It reports whether owner now holds it.
func (db *DB) AcquireLease(ctx context.Context, acct memory.AccountID, name, owner string, until time.Time) (bool, error) {
	held := false
	err := db.Update(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `INSERT INTO leases (account_id, name, owner, until) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, name) DO UPDATE SET owner = excluded.owner, until = excluded.until
			WHERE leases.until < ? OR leases.owner = excluded.owner`,
			int64(acct), name, owner, millis(until), millis(tx.Now))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		held = n > 0
		return nil
	})
	return held, wrapChange("acquire lease", err)
}

// RenewLease extends a lease its owner still holds; false when it was lost.
func (db *DB) RenewLease(ctx context.Context, acct memory.AccountID, name, owner string, until time.Time) (bool, error) {
	held := false
	err := db.Update(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `UPDATE leases SET until = ? WHERE account_id = ? AND name = ? AND owner = ?`,
			millis(until), int64(acct), name, owner)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		held = n > 0
		return nil
	})
	return held, wrapChange("renew lease", err)
}

// ReleaseLease gives a lease up.
func (db *DB) ReleaseLease(ctx context.Context, acct memory.AccountID, name, owner string) error {
	return wrapChange("release lease", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM leases WHERE account_id = ? AND name = ? AND owner = ?`, int64(acct), name, owner)
		return err
	}))
}

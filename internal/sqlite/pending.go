package sqlite

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// AddPending keeps a write that waits for its turn to end.
func (db *DB) AddPending(ctx context.Context, acct memory.AccountID, worktree string, write []byte) (int64, error) {
	var id int64
	err := db.Update(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `INSERT INTO pending_writes (account_id, worktree, write, created_at) VALUES (?, ?, ?, ?)`,
			int64(acct), worktree, string(write), millis(tx.Now))
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, wrapChange("keep pending write", err)
}

// Pending lists waiting writes of a worktree made in [from, to).
func (db *DB) Pending(ctx context.Context, acct memory.AccountID, worktree string, from, to time.Time) ([]memory.PendingWrite, error) {
	q := `SELECT id, worktree, write, created_at FROM pending_writes WHERE account_id = ? AND status = 'pending'`
	args := []any{int64(acct)}
	if worktree != "" {
		q += ` AND worktree = ?`
		args = append(args, worktree)
	}
	q += ` AND created_at >= ? AND created_at < ? ORDER BY id`
	args = append(args, millis(from), millis(to))
	rows, err := db.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read pending writes", err)
	}
	defer rows.Close()
	var out []memory.PendingWrite
	for rows.Next() {
		var p memory.PendingWrite
		var at int64
		var w string
		if err := rows.Scan(&p.ID, &p.Worktree, &w, &at); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read pending writes", err)
		}
		p.Write, p.CreatedAt = []byte(w), fromMillis(at)
		out = append(out, p)
	}
	return out, rows.Err()
}

// SettlePending marks a pending write applied (with its statement) or
// dropped.
func (db *DB) SettlePending(ctx context.Context, acct memory.AccountID, id int64, status string, statementID int64) error {
	return wrapChange("settle pending write", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE pending_writes SET status = ?, statement_id = ? WHERE id = ? AND account_id = ?`,
			status, statementID, id, int64(acct))
		return err
	}))
}

package sqlite

import (
	"context"
	"strconv"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Enqueue records a turn whose capture waits for capture to be switched
// on. Queuing the same turn twice keeps one entry.
func (db *DB) Enqueue(ctx context.Context, acct memory.AccountID, kind string, sessionID, turnID int64) error {
	return wrapChange("queue capture", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO capture_queue (account_id, kind, session_id, turn_id, created_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, kind, turn_id) DO NOTHING`,
			int64(acct), kind, sessionID, turnID, millis(tx.Now))
		return err
	}))
}

// Queued returns waiting entries, oldest first.
func (db *DB) Queued(ctx context.Context, acct memory.AccountID, limit int) ([]memory.QueuedTurn, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, kind, session_id, turn_id FROM capture_queue
		WHERE account_id = ? ORDER BY id LIMIT ?`, int64(acct), limit)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read capture queue", err)
	}
	defer rows.Close()
	var out []memory.QueuedTurn
	for rows.Next() {
		var q memory.QueuedTurn
		if err := rows.Scan(&q.ID, &q.Kind, &q.SessionID, &q.TurnID); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read capture queue", err)
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// Unqueue removes a processed entry.
func (db *DB) Unqueue(ctx context.Context, acct memory.AccountID, id int64) error {
	return wrapChange("unqueue capture", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM capture_queue WHERE id = ? AND account_id = ?`, id, int64(acct))
		return err
	}))
}

// SessionOfTurn loads the session a turn belongs to, with all its turns.
func (db *DB) SessionOfTurn(ctx context.Context, acct memory.AccountID, turnID int64) (memory.Session, error) {
	var sid int64
	if err := db.read.QueryRowContext(ctx, `SELECT session_id FROM turns WHERE id = ? AND account_id = ?`, turnID, int64(acct)).Scan(&sid); err != nil {
		return memory.Session{}, memory.Errorf(memory.CodeNotFound, "no turn %d", turnID)
	}
	return db.LoadSession(ctx, acct, itoa(sid))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

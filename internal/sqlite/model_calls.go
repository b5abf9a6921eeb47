package sqlite

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// RecordModelCall stores one model call.
func (db *DB) RecordModelCall(ctx context.Context, acct memory.AccountID, c model.CallRecord) (int64, error) {
	var id int64
	err := db.Update(ctx, func(tx *Tx) error {
		at := c.At
		if at.IsZero() {
			at = tx.Now
		}
		return tx.QueryRowContext(ctx, `INSERT INTO model_calls (account_id, at, phase, provider, model, status,
			tokens_in, tokens_out, took_ms, cost_usd, priced, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			int64(acct), millis(at), c.Phase, c.Provider, c.Model, c.Status, c.In, c.Out, c.Took.Milliseconds(),
			c.CostUSD, c.Priced, c.Error).Scan(&id)
	})
	return id, wrapChange("record model call", err)
}

// ModelCalls lists the calls made since since, oldest first.
func (db *DB) ModelCalls(ctx context.Context, acct memory.AccountID, since time.Time) ([]model.CallRecord, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, at, phase, provider, model, status, tokens_in, tokens_out,
		took_ms, cost_usd, priced, error FROM model_calls WHERE account_id = ? AND at >= ? ORDER BY at, id`,
		int64(acct), millis(since))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read model calls", err)
	}
	defer rows.Close()
	var out []model.CallRecord
	for rows.Next() {
		var c model.CallRecord
		var at, took int64
		if err := rows.Scan(&c.ID, &at, &c.Phase, &c.Provider, &c.Model, &c.Status, &c.In, &c.Out, &took,
			&c.CostUSD, &c.Priced, &c.Error); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read model calls", err)
		}
		c.At, c.Took = fromMillis(at), time.Duration(took)*time.Millisecond
		out = append(out, c)
	}
	return out, rows.Err()
}

// ModelSpend sums the estimated cost of the calls made since since.
func (db *DB) ModelSpend(ctx context.Context, acct memory.AccountID, since time.Time) (float64, error) {
	var sum float64
	err := db.read.QueryRowContext(ctx, `SELECT COALESCE(SUM(cost_usd), 0) FROM model_calls WHERE account_id = ? AND at >= ?`,
		int64(acct), millis(since)).Scan(&sum)
	if err != nil {
		return 0, memory.Wrap(memory.CodeInternal, "sum model spend", err)
	}
	return sum, nil
}

// DeferJob puts a session's phase-1 job off until nextAt without counting
// an attempt: the work was skipped (the model budget was spent), not
// failed.
func (db *DB) DeferJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, why string, nextAt time.Time) error {
	return wrapChange("defer job", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE jobs SET status = 'pending', error = ?, next_at = ?, lease_until = 0, updated_at = ?
			WHERE account_id = ? AND session_id = ? AND version = ?`,
			why, millis(nextAt), millis(tx.Now), int64(acct), sessionID, version)
		return err
	}))
}

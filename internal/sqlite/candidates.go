package sqlite

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// AddCandidates queues drafts from one turn, due at dueAt, and moves every
// pending candidate of the session to dueAt too: a later turn resets the
// settling window. A draft queued twice for one turn is kept once.
func (db *DB) AddCandidates(ctx context.Context, acct memory.AccountID, sessionID, turnID int64, drafts []memory.Draft, userText string, dueAt time.Time) error {
	return wrapChange("queue candidates", db.Update(ctx, func(tx *Tx) error {
		return addCandidatesTx(ctx, tx, acct, memory.CandidateSet{SessionID: sessionID, TurnID: turnID, Drafts: drafts, UserText: userText, DueAt: dueAt})
	}))
}

func addCandidatesTx(ctx context.Context, tx *Tx, acct memory.AccountID, c memory.CandidateSet) error {
	if _, err := tx.exec(ctx, `UPDATE candidates SET due_at = ? WHERE account_id = ? AND session_id = ? AND status = 'pending' AND due_at < ?`,
		millis(c.DueAt), int64(acct), c.SessionID, millis(c.DueAt)); err != nil {
		return err
	}
	for _, d := range c.Drafts {
		raw, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO candidates (account_id, session_id, turn_id, draft, user_text, created_at, due_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (turn_id, draft) DO NOTHING`,
			int64(acct), c.SessionID, c.TurnID, string(raw), c.UserText, millis(tx.Now), millis(c.DueAt)); err != nil {
			return err
		}
	}
	return nil
}

// AnyDue is the cheap check every open makes: is a candidate due?
func (db *DB) AnyDue(ctx context.Context, acct memory.AccountID, now time.Time) (bool, error) {
	var due bool
	err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM candidates WHERE account_id = ? AND status = 'pending' AND due_at <= ?)`,
		int64(acct), millis(now)).Scan(&due)
	if err != nil {
		return false, memory.Wrap(memory.CodeInternal, "check due candidates", err)
	}
	return due, nil
}

// DueCandidates returns the candidates whose window has passed, oldest
// first, with their session's place.
func (db *DB) DueCandidates(ctx context.Context, acct memory.AccountID, now time.Time, limit int) ([]memory.Candidate, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT c.id, c.session_id, c.turn_id, c.draft, c.user_text, c.due_at, s.worktree, s.project, s.repo
		FROM candidates c JOIN sessions s ON s.id = c.session_id AND s.account_id = c.account_id
		WHERE c.account_id = ? AND c.status = 'pending' AND c.due_at <= ? ORDER BY c.id LIMIT ?`, int64(acct), millis(now), limit)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read due candidates", err)
	}
	defer rows.Close()
	var out []memory.Candidate
	for rows.Next() {
		var c memory.Candidate
		var raw string
		var due int64
		if err := rows.Scan(&c.ID, &c.SessionID, &c.TurnID, &raw, &c.UserText, &due, &c.Place.Worktree, &c.Place.Project, &c.Place.Repo); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read due candidates", err)
		}
		if err := json.Unmarshal([]byte(raw), &c.Draft); err != nil {
			continue // a row we cannot read is dropped by the caller's next pass
		}
		c.DueAt = fromMillis(due)
		out = append(out, c)
	}
	return out, rows.Err()
}

// DropCandidate records that a candidate will not be promoted, and why.
func (db *DB) DropCandidate(ctx context.Context, acct memory.AccountID, id int64, why string) error {
	return wrapChange("drop candidate", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE candidates SET status = 'dropped', note = ? WHERE id = ? AND account_id = ?`, why, id, int64(acct))
		return err
	}))
}

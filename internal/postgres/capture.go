package postgres

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// AddCandidates queues drafts from one turn, due at dueAt, and moves every
// pending candidate of the session to dueAt too.
func (db *DB) AddCandidates(ctx context.Context, acct memory.AccountID, sessionID, turnID int64, drafts []memory.Draft, userText string, dueAt time.Time) error {
	return wrap("queue candidates", db.update(ctx, acct, func(tx *Tx) error {
		return addCandidatesTx(ctx, tx, memory.CandidateSet{SessionID: sessionID, TurnID: turnID, Drafts: drafts, UserText: userText, DueAt: dueAt})
	}))
}

func addCandidatesTx(ctx context.Context, tx *Tx, c memory.CandidateSet) error {
	acct := int64(tx.acct)
	if _, err := tx.exec(ctx, `UPDATE candidates SET due_at = ? WHERE account_id = ? AND session_id = ? AND status = 'pending' AND due_at < ?`,
		millis(c.DueAt), acct, c.SessionID, millis(c.DueAt)); err != nil {
		return err
	}
	for _, d := range c.Drafts {
		raw, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO candidates (account_id, session_id, turn_id, draft, user_text, created_at, due_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (turn_id, md5(draft)) DO NOTHING`,
			acct, c.SessionID, c.TurnID, string(raw), c.UserText, millis(tx.Now), millis(c.DueAt)); err != nil {
			return err
		}
	}
	return nil
}

// AnyDue reports whether a candidate is due.
func (db *DB) AnyDue(ctx context.Context, acct memory.AccountID, now time.Time) (bool, error) {
	var due bool
	err := db.view(ctx, acct, func(tx *Tx) error {
		return tx.row(ctx, `SELECT EXISTS (SELECT 1 FROM candidates WHERE account_id = ? AND status = 'pending' AND due_at <= ?)`,
			int64(acct), millis(now)).Scan(&due)
	})
	return due, wrap("check due candidates", err)
}

// DueCandidates returns the candidates whose window has passed, oldest
// first, with their session's place.
func (db *DB) DueCandidates(ctx context.Context, acct memory.AccountID, now time.Time, limit int) ([]memory.Candidate, error) {
	var out []memory.Candidate
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT c.id, c.session_id, c.turn_id, c.draft, c.user_text, c.due_at, s.worktree, s.project, s.repo
			FROM candidates c JOIN sessions s ON s.id = c.session_id AND s.account_id = c.account_id
			WHERE c.account_id = ? AND c.status = 'pending' AND c.due_at <= ? ORDER BY c.id LIMIT ?`, int64(acct), millis(now), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c memory.Candidate
			var raw string
			var due int64
			if err := rows.Scan(&c.ID, &c.SessionID, &c.TurnID, &raw, &c.UserText, &due, &c.Place.Worktree, &c.Place.Project, &c.Place.Repo); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(raw), &c.Draft); err != nil {
				continue
			}
			c.DueAt = fromMillis(due)
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, wrap("read due candidates", err)
}

// DropCandidate records that a candidate will not be promoted, and why.
func (db *DB) DropCandidate(ctx context.Context, acct memory.AccountID, id int64, why string) error {
	return wrap("drop candidate", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE candidates SET status = 'dropped', note = ? WHERE id = ? AND account_id = ?`, why, id, int64(acct))
		return err
	}))
}

// Enqueue records a turn whose capture waits for capture to be on.
func (db *DB) Enqueue(ctx context.Context, acct memory.AccountID, kind string, sessionID, turnID int64) error {
	return wrap("queue capture", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO capture_queue (account_id, kind, session_id, turn_id, created_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, kind, turn_id) DO NOTHING`,
			int64(acct), kind, sessionID, turnID, millis(tx.Now))
		return err
	}))
}

// Queued returns waiting entries, oldest first.
func (db *DB) Queued(ctx context.Context, acct memory.AccountID, limit int) ([]memory.QueuedTurn, error) {
	var out []memory.QueuedTurn
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT id, kind, session_id, turn_id FROM capture_queue WHERE account_id = ? ORDER BY id LIMIT ?`, int64(acct), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var q memory.QueuedTurn
			if err := rows.Scan(&q.ID, &q.Kind, &q.SessionID, &q.TurnID); err != nil {
				return err
			}
			out = append(out, q)
		}
		return rows.Err()
	})
	return out, wrap("read capture queue", err)
}

// Unqueue removes a processed entry.
func (db *DB) Unqueue(ctx context.Context, acct memory.AccountID, id int64) error {
	return wrap("unqueue capture", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM capture_queue WHERE id = ? AND account_id = ?`, id, int64(acct))
		return err
	}))
}

// SaveProfile replaces the account's profile; an empty body removes it.
func (db *DB) SaveProfile(ctx context.Context, acct memory.AccountID, body string, sources []int64) error {
	return wrap("save profile", db.update(ctx, acct, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `DELETE FROM profiles WHERE account_id = ?`, int64(acct)); err != nil {
			return err
		}
		if body == "" {
			return nil
		}
		ids := make([]string, len(sources))
		for i, s := range sources {
			ids[i] = strconv.FormatInt(s, 10)
		}
		d := newDoc(column{ftsTokens(body), 'A'})
		_, err := tx.exec(ctx, `INSERT INTO profiles (account_id, body, sources, built_at, fts, fts_len) VALUES (?, ?, ?, ?, ?::tsvector, ?)`,
			int64(acct), body, strings.Join(ids, " "), millis(tx.Now), d.vector, d.size)
		return err
	}))
}

// Profile returns the account's profile, or false when there is none.
func (db *DB) Profile(ctx context.Context, acct memory.AccountID) (memory.Profile, bool, error) {
	var p memory.Profile
	found := false
	err := db.view(ctx, acct, func(tx *Tx) error {
		var src string
		var built int64
		err := tx.row(ctx, `SELECT id, body, sources, built_at FROM profiles WHERE account_id = ?`, int64(acct)).Scan(&p.ID, &p.Body, &src, &built)
		if noRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		for _, f := range strings.Fields(src) {
			if n, err := strconv.ParseInt(f, 10, 64); err == nil {
				p.Sources = append(p.Sources, n)
			}
		}
		p.BuiltAt = fromMillis(built)
		return nil
	})
	return p, found, wrap("read profile", err)
}

// searchProfile matches the account's profile.
func searchProfile(ctx context.Context, tx *Tx, q memory.SearchQuery) ([]memory.Match, error) {
	phrases := queryTerms(q.Terms)
	m, err := layerStats(ctx, tx, memory.L3, "profiles", phrases, "AB")
	if err != nil {
		return nil, err
	}
	var out []memory.Match
	var body string
	var built int64
	hits, err := rankRows(ctx, tx, m, phrases, 1, 1, `SELECT p.id, p.fts_len, `+strings.Replace(lexInfo, "%s", "p", 1)+`, p.body, p.built_at
		FROM profiles p WHERE p.fts @@ ?::tsquery AND p.account_id = ? LIMIT 1`,
		[]any{lexemes(phrases), anyQuery(phrases, "AB"), int64(tx.acct)}, func(*hit) []any { return []any{&body, &built} })
	if err != nil {
		return nil, err
	}
	for _, h := range hits {
		out = append(out, memory.Match{Layer: memory.L3, Confidence: 1, ID: h.id, BM25: h.score, Text: body, Time: fromMillis(built)})
	}
	return out, nil
}

// SaveCapture writes what capture derived from a session's turns in one
// transaction.
func (db *DB) SaveCapture(ctx context.Context, acct memory.AccountID, eps []memory.Episode, cands []memory.CandidateSet, ps []temporal.Proposal) ([]temporal.Applied, error) {
	var out []temporal.Applied
	err := db.update(ctx, acct, func(tx *Tx) error {
		out = out[:0]
		for _, ep := range eps {
			if _, err := saveEpisodeTx(ctx, tx, ep); err != nil {
				return err
			}
		}
		for _, c := range cands {
			if err := addCandidatesTx(ctx, tx, c); err != nil {
				return err
			}
		}
		for _, p := range ps {
			row, action, err := applyTx(ctx, tx, p)
			if err != nil {
				return err
			}
			out = append(out, temporal.Applied{Statement: row, Action: action})
		}
		return nil
	})
	if err != nil {
		return nil, wrap("save capture", err)
	}
	return out, nil
}

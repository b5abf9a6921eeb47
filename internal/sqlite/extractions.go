package sqlite

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// EligibleSessions lists sessions whose phase-1 job for a version is due:
// ended between oldest and idleBefore, with no finished job or one for an
// older state of the session, not failed for good, and not claimed.
func (db *DB) EligibleSessions(ctx context.Context, acct memory.AccountID, version string, idleBefore, oldest, now time.Time, limit int) ([]int64, error) {
	ids, err := queryIDs(ctx, db.read, `SELECT s.id FROM sessions s
		LEFT JOIN jobs j ON j.account_id = s.account_id AND j.session_id = s.id AND j.version = ?
		LEFT JOIN extractions x ON x.account_id = s.account_id AND x.session_id = s.id AND x.version = ?
		WHERE s.account_id = ? AND s.ended_at > 0 AND s.ended_at <= ? AND s.ended_at >= ?
		  AND (j.session_id IS NULL
		       OR (j.status IN ('pending', 'running') AND j.next_at <= ? AND j.lease_until < ?)
		       OR (j.status = 'done' AND x.session_at < s.ended_at))
		ORDER BY s.ended_at LIMIT ?`,
		version, version, int64(acct), millis(idleBefore), millis(oldest), millis(now), millis(now), limit)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "find sessions to extract", err)
	}
	return ids, nil
}

// ClaimJob takes a session's phase-1 job for owner until until, unless
// another process holds it; false when it is taken, or finished and the
// session has not grown since (two processes that listed the same session
// never both extract it).
func (db *DB) ClaimJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, owner string, until time.Time) (bool, error) {
	claimed := false
	err := db.Update(ctx, func(tx *Tx) error {
		// Only a session of the account can be claimed for it.
		res, err := tx.exec(ctx, `INSERT INTO jobs (account_id, session_id, version, status, owner, lease_until, updated_at)
			SELECT ?, ?, ?, 'running', ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ? AND account_id = ?)
			ON CONFLICT (account_id, session_id, version) DO UPDATE SET status = 'running', owner = excluded.owner,
				lease_until = excluded.lease_until, updated_at = excluded.updated_at
			WHERE jobs.lease_until < ? AND jobs.next_at <= ?
			  AND (jobs.status IN ('pending', 'running')
			       OR (jobs.status = 'done' AND EXISTS (SELECT 1 FROM extractions x JOIN sessions s ON s.id = x.session_id AND s.account_id = x.account_id
			           WHERE x.account_id = jobs.account_id AND x.session_id = jobs.session_id AND x.version = jobs.version
			             AND x.session_at < s.ended_at)))`,
			int64(acct), sessionID, version, owner, millis(until), millis(tx.Now), sessionID, int64(acct), millis(tx.Now), millis(tx.Now))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		claimed = n > 0
		return nil
	})
	return claimed, wrapChange("claim job", err)
}

// FinishJob records a job's end: done (with its extraction saved), or a
// failure retried at nextAt, or failed for good.
func (db *DB) FinishJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, status, errText string, nextAt time.Time) error {
	return wrapChange("finish job", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE jobs SET status = ?, error = ?, next_at = ?, lease_until = 0,
			attempts = attempts + CASE WHEN ? = 'done' THEN 0 ELSE 1 END, updated_at = ?
			WHERE account_id = ? AND session_id = ? AND version = ?`,
			status, errText, millis(nextAt), status, millis(tx.Now), int64(acct), sessionID, version)
		return err
	}))
}

// JobAttempts returns how many times a session's job failed.
func (db *DB) JobAttempts(ctx context.Context, acct memory.AccountID, sessionID int64, version string) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT attempts FROM jobs WHERE account_id = ? AND session_id = ? AND version = ?`,
		int64(acct), sessionID, version).Scan(&n)
	if err != nil {
		return 0, nil
	}
	return n, nil
}

// SaveExtraction stores (or replaces) a session's extraction.
func (db *DB) SaveExtraction(ctx context.Context, acct memory.AccountID, x memory.Extraction) (int64, error) {
	var id int64
	err := db.Update(ctx, func(tx *Tx) error {
		ids := make([]string, len(x.Statements))
		for i, s := range x.Statements {
			ids[i] = strconv.FormatInt(s, 10)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO extractions (account_id, session_id, version, slug, raw_memory, summary, empty,
			task, task_group, outcome, keywords, statements, model, session_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, session_id, version) DO UPDATE SET slug = excluded.slug, raw_memory = excluded.raw_memory,
				summary = excluded.summary, empty = excluded.empty, task = excluded.task, task_group = excluded.task_group,
				outcome = excluded.outcome, keywords = excluded.keywords, statements = excluded.statements, model = excluded.model,
				session_at = excluded.session_at, created_at = excluded.created_at, pruned_at = 0
			RETURNING id`,
			int64(acct), x.SessionID, x.Version, x.Slug, x.RawMemory, x.Summary, boolInt(x.Empty), x.Task, x.TaskGroup,
			string(x.Outcome), strings.Join(x.Keywords, " "), strings.Join(ids, " "), x.Model, millis(x.SessionAt), millis(tx.Now)).Scan(&id)
		return err
	})
	return id, wrapChange("save extraction", err)
}

const extractionCols = `x.id, x.session_id, s.external_id, s.provider, s.worktree, s.project, s.repo, x.version, x.slug, x.raw_memory,
	x.summary, x.empty, x.task, x.task_group, x.outcome, x.keywords, x.statements, x.model, x.session_at, x.created_at,
	x.usage_count, x.last_used_at`

// Extractions lists a version's unpruned, non-empty extractions.
func (db *DB) Extractions(ctx context.Context, acct memory.AccountID, version string) ([]memory.Extraction, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+extractionCols+` FROM extractions x JOIN sessions s ON s.id = x.session_id AND s.account_id = x.account_id
		WHERE x.account_id = ? AND x.version = ? AND x.pruned_at = 0 AND x.empty = 0 ORDER BY x.id`, int64(acct), version)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read extractions", err)
	}
	defer rows.Close()
	var out []memory.Extraction
	for rows.Next() {
		var x memory.Extraction
		var prov, outcome, kw, st string
		var empty, sat, cat, lu int64
		if err := rows.Scan(&x.ID, &x.SessionID, &x.SessionRef, &prov, &x.Place.Worktree, &x.Place.Project, &x.Place.Repo,
			&x.Version, &x.Slug, &x.RawMemory, &x.Summary, &empty, &x.Task, &x.TaskGroup, &outcome, &kw, &st, &x.Model,
			&sat, &cat, &x.UsageCount, &lu); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read extractions", err)
		}
		x.Provider, x.Outcome, x.Empty = memory.Provider(prov), memory.Outcome(outcome), empty != 0
		x.Keywords = strings.Fields(kw)
		for _, f := range strings.Fields(st) {
			if n, err := strconv.ParseInt(f, 10, 64); err == nil {
				x.Statements = append(x.Statements, n)
			}
		}
		x.SessionAt, x.CreatedAt, x.LastUsedAt = fromMillis(sat), fromMillis(cat), fromMillis(lu)
		out = append(out, x)
	}
	return out, rows.Err()
}

// PruneExtractions marks extractions unused since before as pruned: they
// leave the published set and the next diff shows their files gone.
func (db *DB) PruneExtractions(ctx context.Context, acct memory.AccountID, version string, before time.Time) (int, error) {
	n := 0
	err := db.Update(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `UPDATE extractions SET pruned_at = ? WHERE account_id = ? AND version = ? AND pruned_at = 0
			AND MAX(last_used_at, created_at) < ?`, millis(tx.Now), int64(acct), version, millis(before))
		if err != nil {
			return err
		}
		k, _ := res.RowsAffected()
		n = int(k)
		return nil
	})
	return n, wrapChange("prune extractions", err)
}

// MarkExtractionsUsed counts uses of extractions (cited vault files).
func (db *DB) MarkExtractionsUsed(ctx context.Context, acct memory.AccountID, slugs []string) error {
	if len(slugs) == 0 {
		return nil
	}
	return wrapChange("mark extractions used", db.Update(ctx, func(tx *Tx) error {
		for _, s := range slugs {
			if _, err := tx.exec(ctx, `UPDATE extractions SET usage_count = usage_count + 1, last_used_at = ? WHERE account_id = ? AND slug = ?`,
				millis(tx.Now), int64(acct), s); err != nil {
				return err
			}
		}
		return nil
	}))
}

// ResetPhases forgets phase 1's and phase 2's work for an account: every
// extraction and job, so sessions are extracted afresh. Sessions, their
// flags and the statements stay.
func (db *DB) ResetPhases(ctx context.Context, acct memory.AccountID) error {
	return wrapChange("reset phases", db.Update(ctx, func(tx *Tx) error {
		for _, q := range []string{`DELETE FROM extractions WHERE account_id = ?`, `DELETE FROM jobs WHERE account_id = ?`} {
			if _, err := tx.ExecContext(ctx, q, int64(acct)); err != nil {
				return err
			}
		}
		return nil
	}))
}

package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// EligibleSessions lists sessions whose phase-1 job for a version is due.
func (db *DB) EligibleSessions(ctx context.Context, acct memory.AccountID, version string, idleBefore, oldest, now time.Time, limit int) ([]int64, error) {
	var out []int64
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT s.id FROM sessions s
			LEFT JOIN jobs j ON j.account_id = s.account_id AND j.session_id = s.id AND j.version = ?
			LEFT JOIN extractions x ON x.account_id = s.account_id AND x.session_id = s.id AND x.version = ?
			WHERE s.account_id = ? AND s.ended_at > 0 AND s.ended_at <= ? AND s.ended_at >= ?
			  AND (j.session_id IS NULL
			       OR (j.status IN ('pending', 'running') AND j.next_at <= ? AND j.lease_until < ?)
			       OR (j.status = 'done' AND x.session_at < s.ended_at))
			ORDER BY s.ended_at, s.id LIMIT ?`,
			version, version, int64(acct), millis(idleBefore), millis(oldest), millis(now), millis(now), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
		}
		return rows.Err()
	})
	return out, wrap("find sessions to extract", err)
}

// ClaimJob takes a session's phase-1 job for owner until until, unless
// another process holds it or it is finished for the session as it is.
// Two handles claiming at once: the second's insert waits on the first's
// row and then finds it held, so exactly one wins.
func (db *DB) ClaimJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, owner string, until time.Time) (bool, error) {
	var n int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		var err error
		n, err = tx.exec(ctx, `INSERT INTO jobs AS j (account_id, session_id, version, status, owner, lease_until, updated_at)
			SELECT ?, ?, ?, 'running', ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ? AND account_id = ?)
			ON CONFLICT (account_id, session_id, version) DO UPDATE SET status = 'running', owner = excluded.owner,
				lease_until = excluded.lease_until, updated_at = excluded.updated_at
			WHERE j.lease_until < ? AND j.next_at <= ?
			  AND (j.status IN ('pending', 'running')
			       OR (j.status = 'done' AND EXISTS (SELECT 1 FROM extractions x JOIN sessions s ON s.id = x.session_id AND s.account_id = x.account_id
			           WHERE x.account_id = j.account_id AND x.session_id = j.session_id AND x.version = j.version
			             AND x.session_at < s.ended_at)))`,
			int64(acct), sessionID, version, owner, millis(until), millis(tx.Now), sessionID, int64(acct), millis(tx.Now), millis(tx.Now))
		return err
	})
	return n > 0, wrap("claim job", err)
}

// FinishJob records a job's end.
func (db *DB) FinishJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, status, errText string, nextAt time.Time) error {
	return wrap("finish job", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE jobs SET status = ?, error = ?, next_at = ?, lease_until = 0,
			attempts = attempts + CASE WHEN ?::text = 'done' THEN 0 ELSE 1 END, updated_at = ?
			WHERE account_id = ? AND session_id = ? AND version = ?`,
			status, errText, millis(nextAt), status, millis(tx.Now), int64(acct), sessionID, version)
		return err
	}))
}

// JobAttempts returns how many times a session's job failed.
func (db *DB) JobAttempts(ctx context.Context, acct memory.AccountID, sessionID int64, version string) (int, error) {
	var n int
	err := db.view(ctx, acct, func(tx *Tx) error {
		err := tx.row(ctx, `SELECT attempts FROM jobs WHERE account_id = ? AND session_id = ? AND version = ?`, int64(acct), sessionID, version).Scan(&n)
		if noRows(err) {
			return nil
		}
		return err
	})
	return n, wrap("read job attempts", err)
}

// SaveExtraction stores (or replaces) a session's extraction.
func (db *DB) SaveExtraction(ctx context.Context, acct memory.AccountID, x memory.Extraction) (int64, error) {
	var id int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		ids := make([]string, len(x.Statements))
		for i, s := range x.Statements {
			ids[i] = strconv.FormatInt(s, 10)
		}
		return tx.row(ctx, `INSERT INTO extractions (account_id, session_id, version, slug, raw_memory, summary, empty,
			task, task_group, outcome, keywords, statements, model, session_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, session_id, version) DO UPDATE SET slug = excluded.slug, raw_memory = excluded.raw_memory,
				summary = excluded.summary, empty = excluded.empty, task = excluded.task, task_group = excluded.task_group,
				outcome = excluded.outcome, keywords = excluded.keywords, statements = excluded.statements, model = excluded.model,
				session_at = excluded.session_at, created_at = excluded.created_at, pruned_at = 0
			RETURNING id`,
			int64(acct), x.SessionID, x.Version, x.Slug, x.RawMemory, x.Summary, boolInt(x.Empty), x.Task, x.TaskGroup,
			string(x.Outcome), strings.Join(x.Keywords, " "), strings.Join(ids, " "), x.Model, millis(x.SessionAt), millis(tx.Now)).Scan(&id)
	})
	return id, wrap("save extraction", err)
}

// Extractions lists a version's unpruned, non-empty extractions.
func (db *DB) Extractions(ctx context.Context, acct memory.AccountID, version string) ([]memory.Extraction, error) {
	var out []memory.Extraction
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT x.id, x.session_id, s.external_id, s.provider, s.worktree, s.project, s.repo, x.version, x.slug, x.raw_memory,
				x.summary, x.empty, x.task, x.task_group, x.outcome, x.keywords, x.statements, x.model, x.session_at, x.created_at,
				x.usage_count, x.last_used_at
			FROM extractions x JOIN sessions s ON s.id = x.session_id AND s.account_id = x.account_id
			WHERE x.account_id = ? AND x.version = ? AND x.pruned_at = 0 AND x.empty = 0 ORDER BY x.id`, int64(acct), version)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var x memory.Extraction
			var prov, outcome, kw, st string
			var empty, sat, cat, lu int64
			if err := rows.Scan(&x.ID, &x.SessionID, &x.SessionRef, &prov, &x.Place.Worktree, &x.Place.Project, &x.Place.Repo,
				&x.Version, &x.Slug, &x.RawMemory, &x.Summary, &empty, &x.Task, &x.TaskGroup, &outcome, &kw, &st, &x.Model,
				&sat, &cat, &x.UsageCount, &lu); err != nil {
				return err
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
		return rows.Err()
	})
	return out, wrap("read extractions", err)
}

// PruneExtractions marks extractions unused since before as pruned.
func (db *DB) PruneExtractions(ctx context.Context, acct memory.AccountID, version string, before time.Time) (int, error) {
	var n int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		var err error
		n, err = tx.exec(ctx, `UPDATE extractions SET pruned_at = ? WHERE account_id = ? AND version = ? AND pruned_at = 0
			AND GREATEST(last_used_at, created_at) < ?`, millis(tx.Now), int64(acct), version, millis(before))
		return err
	})
	return int(n), wrap("prune extractions", err)
}

// MarkExtractionsUsed counts uses of extractions (cited vault files).
func (db *DB) MarkExtractionsUsed(ctx context.Context, acct memory.AccountID, slugs []string) error {
	if len(slugs) == 0 {
		return nil
	}
	return wrap("mark extractions used", db.update(ctx, acct, func(tx *Tx) error {
		for _, s := range slugs {
			if _, err := tx.exec(ctx, `UPDATE extractions SET usage_count = usage_count + 1, last_used_at = ? WHERE account_id = ? AND slug = ?`,
				millis(tx.Now), int64(acct), s); err != nil {
				return err
			}
		}
		return nil
	}))
}

// ResetPhases forgets phase 1's and phase 2's work for an account.
func (db *DB) ResetPhases(ctx context.Context, acct memory.AccountID) error {
	return wrap("reset phases", db.update(ctx, acct, func(tx *Tx) error {
		for _, q := range []string{`DELETE FROM extractions WHERE account_id = ?`, `DELETE FROM jobs WHERE account_id = ?`} {
			if _, err := tx.exec(ctx, q, int64(acct)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// AcquireLease takes a named lease for owner until until, if nobody else
// holds it (or theirs expired).
func (db *DB) AcquireLease(ctx context.Context, acct memory.AccountID, name, owner string, until time.Time) (bool, error) {
	var n int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		var err error
		n, err = tx.exec(ctx, `INSERT INTO leases (account_id, name, owner, until) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, name) DO UPDATE SET owner = excluded.owner, until = excluded.until
			WHERE leases.until < ? OR leases.owner = excluded.owner`,
			int64(acct), name, owner, millis(until), millis(tx.Now))
		return err
	})
	return n > 0, wrap("acquire lease", err)
}

// RenewLease extends a lease its owner still holds.
func (db *DB) RenewLease(ctx context.Context, acct memory.AccountID, name, owner string, until time.Time) (bool, error) {
	var n int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		var err error
		n, err = tx.exec(ctx, `UPDATE leases SET until = ? WHERE account_id = ? AND name = ? AND owner = ?`, millis(until), int64(acct), name, owner)
		return err
	})
	return n > 0, wrap("renew lease", err)
}

// ReleaseLease gives a lease up.
func (db *DB) ReleaseLease(ctx context.Context, acct memory.AccountID, name, owner string) error {
	return wrap("release lease", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM leases WHERE account_id = ? AND name = ? AND owner = ?`, int64(acct), name, owner)
		return err
	}))
}

// Health checks the connection and the schema and counts every table's
// rows (counts only, through a function that runs as the owner).
func (db *DB) Health(ctx context.Context) (memory.StoreHealth, error) {
	h := memory.StoreHealth{Kind: "postgres", Path: db.dsn, BinarySchema: SchemaVersion(), Rows: map[string]int64{}}
	v, err := db.Version(ctx)
	if err != nil {
		return h, err
	}
	h.SchemaVersion = v
	err = db.view(ctx, 0, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT name, n FROM cairn_row_counts()`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			var n int64
			if err := rows.Scan(&name, &n); err != nil {
				return err
			}
			h.Rows[name] = n
		}
		return rows.Err()
	})
	if err != nil {
		return h, wrap("check store", err)
	}
	h.Integrity = "ok"
	return h, nil
}

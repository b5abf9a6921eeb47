package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Health runs PRAGMA integrity_check and counts the rows of every table.
func (db *DB) Health(ctx context.Context) (memory.StoreHealth, error) {
	h := memory.StoreHealth{Kind: "sqlite", Path: db.path, BinarySchema: SchemaVersion(), Rows: map[string]int64{}}
	v, err := db.Version(ctx)
	if err != nil {
		return h, err
	}
	h.SchemaVersion = v
	err = db.View(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `PRAGMA integrity_check`)
		if err != nil {
			return err
		}
		var msgs []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return err
			}
			msgs = append(msgs, s)
		}
		rows.Close()
		h.Integrity = strings.Join(msgs, "; ")
		if err := tx.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&h.JournalMode); err != nil {
			return err
		}
		names, err := tableNames(ctx, tx)
		if err != nil {
			return err
		}
		for _, n := range names {
			var c int64
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+n+`"`).Scan(&c); err != nil {
				return err
			}
			h.Rows[n] = c
		}
		return nil
	})
	if err != nil {
		return h, memory.Wrap(memory.CodeInternal, "check store", err)
	}
	return h, nil
}

// tableNames lists the store's own tables: not SQLite's internals and not
// the shadow tables of full-text indexes.
func tableNames(ctx context.Context, tx *sql.Tx) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
		  AND name NOT LIKE '%\_data' ESCAPE '\' AND name NOT LIKE '%\_idx' ESCAPE '\'
		  AND name NOT LIKE '%\_content' ESCAPE '\' AND name NOT LIKE '%\_docsize' ESCAPE '\'
		  AND name NOT LIKE '%\_config' ESCAPE '\'
		ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// RefreshPlannerStats lets SQLite refresh the planner's statistics where
// they are missing or stale, from a sample of each index. Without them
// the planner walks an index on account_id alone for queries a table scan
// answers faster (a standing block's session-state read took 3× longer).
// It first merges a round's share of the full-text indexes' segments
// (MergeIndexes), the other structure reads depend on.
func (db *DB) RefreshPlannerStats(ctx context.Context) error {
	if _, err := db.MergeIndexes(ctx, mergeRoundSteps); err != nil {
		return err
	}
	for _, q := range []string{`PRAGMA analysis_limit = 400`, `PRAGMA optimize = 0x10002`} {
		if _, err := db.write.ExecContext(ctx, q); err != nil {
			return memory.Wrap(memory.CodeInternal, "refresh planner statistics", err)
		}
	}
	return nil
}

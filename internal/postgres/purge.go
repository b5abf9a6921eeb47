package postgres

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/jackc/pgx/v5"
)

// purgeTables are the tables a purge deletes from, compacted after it.
var purgeTables = []string{"statements", "evidence", "receipt_items", "receipts", "candidates", "pending_writes", "episodes", "fts_stats"}

// Purge physically deletes an account's retracted and forgotten rows, as
// the SQLite store does: statements with their evidence (their index is
// the row's own tsvector, deleted with it), forgotten episodes, and every
// receipt, candidate and pending write that carried their text. Then
// VACUUM FULL rewrites each touched table and rebuilds its indexes (the
// GIN indexes included, whose entries a plain VACUUM would keep), so the
// text is in none of the tables' files. It runs as the owner, the only
// role PostgreSQL lets vacuum; without it nothing is deleted.
//
// VACUUM FULL locks each table while it rewrites it: every account waits
// for a purge. The write-ahead log keeps the old text until PostgreSQL
// recycles its segments (docs/postgres.md).
func (db *DB) Purge(ctx context.Context, acct memory.AccountID) (memory.PurgeCounts, error) {
	var c memory.PurgeCounts
	owns, err := db.ownsTables(ctx, purgeTables)
	if err != nil {
		return c, wrap("check the right to vacuum", err)
	}
	if !owns {
		return c, needOwner("purging (its VACUUM FULL)")
	}
	a := int64(acct)
	err = db.update(ctx, acct, func(tx *Tx) error {
		texts, err := purgedTexts(ctx, tx, a)
		if err != nil {
			return err
		}
		for _, t := range texts {
			if t == "" {
				continue
			}
			for _, q := range []string{
				`DELETE FROM receipt_items WHERE account_id = ? AND receipt_id IN (SELECT id FROM receipts WHERE account_id = ? AND strpos(text, ?) > 0)`,
				`DELETE FROM receipts WHERE account_id = ? AND strpos(text, ?) > 0`,
				`DELETE FROM candidates WHERE account_id = ? AND strpos(draft, ?) > 0`,
				`DELETE FROM pending_writes WHERE account_id = ? AND strpos(write, ?) > 0`,
			} {
				// Every placeholder is the account but the last, the text.
				args := make([]any, strings.Count(q, "?"))
				for i := range args {
					args[i] = a
				}
				args[len(args)-1] = t
				n, err := tx.exec(ctx, q, args...)
				if err != nil {
					return err
				}
				c.Traces += n
			}
		}
		const gone = `SELECT id FROM statements WHERE account_id = ? AND reason IN ('retracted', 'forgotten')`
		for _, q := range []string{
			`DELETE FROM evidence WHERE account_id = ? AND statement_id IN (` + gone + `)`,
			`DELETE FROM receipt_items WHERE account_id = ? AND statement_id IN (` + gone + `)`,
			// Rows that a purged row replaced point at it; the pointer
			// would name a row that no longer exists.
			`UPDATE statements SET replaced_by = 0 WHERE account_id = ? AND replaced_by IN (` + gone + `)`,
		} {
			if _, err := tx.exec(ctx, q, a, a); err != nil {
				return err
			}
		}
		if c.Statements, err = tx.exec(ctx, `DELETE FROM statements WHERE account_id = ? AND reason IN ('retracted', 'forgotten')`, a); err != nil {
			return err
		}
		c.Episodes, err = tx.exec(ctx, `DELETE FROM episodes WHERE account_id = ? AND reason = 'forgotten'`, a)
		return err
	})
	if err != nil {
		return c, wrap("purge", err)
	}
	return c, db.compact(ctx)
}

// purgedTexts returns the text of every row a purge deletes, to find the
// copies other tables hold of it.
func purgedTexts(ctx context.Context, tx *Tx, acct int64) ([]string, error) {
	rows, err := tx.query(ctx, `SELECT object FROM statements WHERE account_id = ? AND reason IN ('retracted', 'forgotten')
		UNION SELECT summary FROM episodes WHERE account_id = ? AND reason = 'forgotten'`, acct, acct)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// compact rewrites the purged tables and their indexes (VACUUM FULL, as
// the owner; it cannot run inside a transaction).
func (db *DB) compact(ctx context.Context) error {
	for _, t := range purgeTables {
		if _, err := db.admin().Exec(ctx, `VACUUM (FULL, ANALYZE) `+pgx.Identifier{t}.Sanitize()); err != nil {
			return memory.Wrap(memory.CodeInternal, "vacuum "+t, err)
		}
	}
	return nil
}

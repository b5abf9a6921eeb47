package sqlite

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Purge physically deletes an account's retracted and forgotten rows:
// statements with their evidence and index terms, forgotten episodes with
// theirs, and every receipt, candidate and pending write that carried
// their text. Each index is then merged (a contentless FTS5 delete only
// marks terms gone until the segments merge), the file vacuumed and the
// WAL truncated, so the text is gone from the bytes on disk.
func (db *DB) Purge(ctx context.Context, acct memory.AccountID) (memory.PurgeCounts, error) {
	var c memory.PurgeCounts
	a := int64(acct)
	err := db.Update(ctx, func(tx *Tx) error {
		texts, err := purgedTexts(ctx, tx, a)
		if err != nil {
			return err
		}
		for _, t := range texts {
			if t == "" {
				continue
			}
			for _, q := range []string{
				`DELETE FROM receipt_items WHERE receipt_id IN (SELECT id FROM receipts WHERE account_id = ? AND instr(text, ?) > 0)`,
				`DELETE FROM receipts WHERE account_id = ? AND instr(text, ?) > 0`,
				`DELETE FROM candidates WHERE account_id = ? AND instr(draft, ?) > 0`,
				`DELETE FROM pending_writes WHERE account_id = ? AND instr(write, ?) > 0`,
			} {
				res, err := tx.ExecContext(ctx, q, a, t)
				if err != nil {
					return err
				}
				n, _ := res.RowsAffected()
				c.Traces += n
			}
		}
		const gone = `SELECT id FROM statements WHERE account_id = ? AND reason IN ('retracted', 'forgotten')`
		for _, q := range []string{
			`DELETE FROM statements_fts WHERE rowid IN (` + gone + `)`,
			`DELETE FROM evidence WHERE statement_id IN (` + gone + `)`,
			`DELETE FROM receipt_items WHERE account_id = ? AND statement_id IN (` + gone + `)`,
		} {
			if _, err := tx.ExecContext(ctx, q, repeatAcct(q, a)...); err != nil {
				return err
			}
		}
		// Rows that a purged row replaced or revised point at it; the
		// pointer would name a row that no longer exists.
		if _, err := tx.ExecContext(ctx, `UPDATE statements SET replaced_by = 0 WHERE account_id = ? AND replaced_by IN (`+gone+`)`, a, a); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM statements WHERE account_id = ? AND reason IN ('retracted', 'forgotten')`, a)
		if err != nil {
			return err
		}
		c.Statements, _ = res.RowsAffected()
		// A forgotten episode left the index when it was forgotten.
		if res, err = tx.ExecContext(ctx, `DELETE FROM episodes WHERE account_id = ? AND reason = 'forgotten'`, a); err != nil {
			return err
		}
		c.Episodes, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return c, wrapChange("purge", err)
	}
	return c, db.compact(ctx)
}

// purgedTexts returns the text of every row a purge deletes, to find the
// copies other tables hold of it.
func purgedTexts(ctx context.Context, tx *Tx, acct int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT object FROM statements WHERE account_id = ? AND reason IN ('retracted', 'forgotten')
		UNION SELECT summary FROM episodes WHERE account_id = ? AND reason = 'forgotten'`, acct, acct)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// repeatAcct gives a statement as many account arguments as it has
// placeholders: every placeholder in a purge statement is the account.
func repeatAcct(q string, acct int64) []any {
	var args []any
	for _, r := range q {
		if r == '?' {
			args = append(args, acct)
		}
	}
	return args
}

// compact merges every full-text index, vacuums the file and truncates the
// WAL: after it, deleted text is in no page of the database or its log.
func (db *DB) compact(ctx context.Context) error {
	for _, fts := range ftsTable {
		if _, err := db.write.ExecContext(ctx, `INSERT INTO `+fts+` (`+fts+`) VALUES ('optimize')`); err != nil {
			return memory.Wrap(memory.CodeInternal, "merge "+fts, err)
		}
	}
	if _, err := db.write.ExecContext(ctx, `VACUUM`); err != nil {
		return memory.Wrap(memory.CodeInternal, "vacuum", err)
	}
	if _, err := db.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return memory.Wrap(memory.CodeInternal, "checkpoint", err)
	}
	return nil
}

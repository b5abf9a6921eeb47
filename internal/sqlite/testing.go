package sqlite

import "context"

// ForceVersionForTest records a schema version as applied, so tests of other
// packages can build a store "from the future". It is not used by cairn.
func (db *DB) ForceVersionForTest(ctx context.Context, v int) error {
	_, err := db.execWrite(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'forced', 0)`, v)
	return err
}

// DeleteClosedForTest deletes every closed row, to build the "overwrite"
// arm of the store eval (a store that keeps only current values). cairn
// itself never deletes a statement except through an operator purge.
func (db *DB) DeleteClosedForTest(ctx context.Context) error {
	return db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM statements_fts WHERE rowid IN (SELECT id FROM statements WHERE expired_at <> 0 OR invalid_at <> 0)`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM evidence WHERE statement_id IN (SELECT id FROM statements WHERE expired_at <> 0 OR invalid_at <> 0)`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM statements WHERE expired_at <> 0 OR invalid_at <> 0`)
		return err
	})
}

package sqlite

import "context"

// ForceVersionForTest records a schema version as applied, so tests of other
// packages can build a store "from the future". It is not used by cairn.
func (db *DB) ForceVersionForTest(ctx context.Context, v int) error {
	_, err := db.write.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'forced', 0)`, v)
	return err
}

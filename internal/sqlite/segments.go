package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/cairn-memory/cairn/internal/memory"
)

// FTS5 adds a segment to an index at every flush and merges them only
// when four share a level, so an index grows to a few dozen segments (26
// per index at 100k parts), and every term a search looks up seeks each
// one. Merged down to about one segment per level, a request's block took
// about half the CPU (BENCHMARKS.md, recall block). The background round
// does the merging, a bounded step at a time, so no write waits on it
// long; the writes themselves keep FTS5's own merging.
const (
	// mergeStepPages is one transaction's merge work: about 2 MB of
	// index pages written, well under a receipt's wait for the lock.
	mergeStepPages = 500
	// mergeRoundSteps bounds a round's steps per index. A store that
	// gained a session's turns since the last round needs one or two; a
	// freshly imported one converges over several rounds.
	mergeRoundSteps = 16
)

// MergeIndexes merges the segments of every full-text index, at most
// steps steps of mergeStepPages each, and says whether any index still
// had work to do at its last step.
func (db *DB) MergeIndexes(ctx context.Context, steps int) (bool, error) {
	more := false
	for _, l := range memory.Layers {
		fts, ok := ftsTable[l]
		if !ok {
			continue
		}
		for range steps {
			worked, err := db.mergeStep(ctx, fts)
			if err != nil {
				return more, memory.Wrap(memory.CodeInternal, "merge index "+fts, err)
			}
			if !worked {
				break
			}
			more = true
		}
	}
	return more, nil
}

// mergeUser is the index's usermerge setting: an explicit 'merge'
// merges a level once it holds this many segments (FTS5's default is 4),
// which leaves about one segment per level.
const mergeUser = 2

// mergeStep runs one 'merge' command on an index and says whether it
// merged anything: the command itself counts as one change, so fewer
// than two changes mean there was nothing to merge (FTS5's documentation).
func (db *DB) mergeStep(ctx context.Context, fts string) (bool, error) {
	worked := false
	err := db.Update(ctx, func(tx *Tx) error {
		// The setting is kept in the index's own configuration; it is
		// written once, not at every step.
		var user int
		err := tx.QueryRowContext(ctx, `SELECT v FROM `+fts+`_config WHERE k = 'usermerge'`).Scan(&user)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if user != mergeUser {
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+fts+`(`+fts+`, rank) VALUES('usermerge', ?)`, mergeUser); err != nil {
				return err
			}
		}
		var before, after int64
		if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+fts+`(`+fts+`, rank) VALUES('merge', ?)`, mergeStepPages); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
			return err
		}
		worked = after-before >= 2
		return nil
	})
	return worked, err
}

package sqlite

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// backlogBatch bounds one transaction of backlog indexing, so a large old
// store is indexed in steps that each commit.
const backlogBatch = 2000

// indexBacklog indexes rows a migration marked as not yet in their layer's
// index (rows stored before the index existed). It runs at open and
// resumes where it stopped if the process dies.
func (db *DB) indexBacklog(ctx context.Context) error {
	// Every open passes here, hooks included: look before taking the lock.
	var pending bool
	if err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM fts_backlog)`).Scan(&pending); err != nil {
		return memory.Wrap(memory.CodeInternal, "check the index backlog", err)
	}
	if !pending {
		return nil
	}
	if err := db.indexPartsBacklog(ctx); err != nil {
		return err
	}
	return db.indexEpisodesBacklog(ctx)
}

func (db *DB) indexPartsBacklog(ctx context.Context) error {
	for {
		done := false
		err := db.Update(ctx, func(tx *Tx) error {
			rows, err := tx.QueryContext(ctx, `SELECT b.id, p.session_id, p.seq, p.text FROM fts_backlog b
				JOIN parts p ON p.id = b.id WHERE b.layer = 'L0' ORDER BY p.session_id, p.seq LIMIT ?`, backlogBatch)
			if err != nil {
				return err
			}
			bySession := map[int64][]writtenPart{}
			var order []int64
			n := 0
			for rows.Next() {
				var sid int64
				var w writtenPart
				if err := rows.Scan(&w.id, &sid, &w.seq, &w.text); err != nil {
					rows.Close()
					return err
				}
				if _, ok := bySession[sid]; !ok {
					order = append(order, sid)
				}
				bySession[sid] = append(bySession[sid], w)
				n++
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			if n == 0 {
				done = true
				// Rows whose part is gone have nothing to index.
				_, err := tx.ExecContext(ctx, `DELETE FROM fts_backlog WHERE layer = 'L0'`)
				return err
			}
			ix, err := newIndexer(ctx, tx, memory.L0, 3)
			if err != nil {
				return err
			}
			for _, sid := range order {
				var p memory.Place
				var acct int64
				if err := tx.QueryRowContext(ctx, `SELECT account_id, worktree, project, repo FROM sessions WHERE id = ?`, sid).Scan(&acct, &p.Worktree, &p.Project, &p.Repo); err != nil {
					return err
				}
				if err := indexWritten(ctx, tx, ix, sid, placeTokens(memory.AccountID(acct), p), bySession[sid]); err != nil {
					return err
				}
				for _, w := range bySession[sid] {
					if _, err := tx.ExecContext(ctx, `DELETE FROM fts_backlog WHERE layer = 'L0' AND id = ?`, w.id); err != nil {
						return err
					}
				}
			}
			return ix.close(ctx)
		})
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "index parts stored before the search index", err)
		}
		if done {
			return nil
		}
	}
}

// indexEpisodesBacklog indexes the episodes a migration marked (0019
// rebuilt the index with each episode's place in its rowid) as
// saveEpisodeTx indexes one.
func (db *DB) indexEpisodesBacklog(ctx context.Context) error {
	for {
		done := false
		err := db.Update(ctx, func(tx *Tx) error {
			rows, err := tx.QueryContext(ctx, `SELECT b.id, `+episodeRowidSQL+`, e.summary, e.request, e.outcome, e.files, e.tools
				FROM fts_backlog b JOIN episodes e ON e.id = b.id`+episodePlaceJoin+`
				WHERE b.layer = 'L2' AND e.expired_at = 0 ORDER BY b.id LIMIT ?`, backlogBatch)
			if err != nil {
				return err
			}
			type row struct {
				rowid         int64
				body, context string
			}
			var batch []row
			var last int64
			for rows.Next() {
				var r row
				var summary, request, outcome, files, tools string
				if err := rows.Scan(&last, &r.rowid, &summary, &request, &outcome, &files, &tools); err != nil {
					rows.Close()
					return err
				}
				r.body, r.context = episodeIndexText(summary, request, outcome, files, tools)
				batch = append(batch, r)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			if len(batch) == 0 {
				done = true
				// Rows whose episode is gone have nothing to index.
				_, err := tx.ExecContext(ctx, `DELETE FROM fts_backlog WHERE layer = 'L2'`)
				return err
			}
			ix, err := newIndexer(ctx, tx, memory.L2, 2)
			if err != nil {
				return err
			}
			for _, r := range batch {
				if err := ix.add(ctx, r.rowid, r.body, r.context); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM fts_backlog WHERE layer = 'L2' AND id <= ?`, last); err != nil {
				return err
			}
			return ix.close(ctx)
		})
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "index episodes again with their places", err)
		}
		if done {
			return nil
		}
	}
}

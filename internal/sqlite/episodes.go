package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// SaveEpisode writes a turn's episode, replacing the one an earlier
// capture of the same turn wrote.
func (db *DB) SaveEpisode(ctx context.Context, acct memory.AccountID, ep memory.Episode) (int64, error) {
	var id int64
	err := db.Update(ctx, func(tx *Tx) error {
		ix, err := newIndexer(ctx, tx, memory.L2, 2)
		if err != nil {
			return err
		}
		if id, err = saveEpisodeTx(ctx, tx, ix, acct, ep); err != nil {
			return err
		}
		return ix.close(ctx)
	})
	return id, wrapChange("save episode", err)
}

func saveEpisodeTx(ctx context.Context, tx *Tx, ix *indexer, acct memory.AccountID, ep memory.Episode) (int64, error) {
	var old, oldRow, oldExpired int64
	if rows, err := tx.query(ctx, `SELECT e.id, `+episodeRowidSQL+`, e.expired_at FROM episodes e`+episodePlaceJoin+`
		WHERE e.turn_id = ? AND e.account_id = ?`, ep.TurnID, int64(acct)); err == nil {
		if rows.Next() {
			_ = rows.Scan(&old, &oldRow, &oldExpired)
		}
		rows.Close()
	}
	if old != 0 {
		// Only an active episode has an index row (migration 0021).
		if oldExpired == 0 {
			if err := ix.remove(ctx, oldRow); err != nil {
				return 0, err
			}
		}
		if _, err := tx.exec(ctx, `DELETE FROM episodes WHERE id = ?`, old); err != nil {
			return 0, err
		}
	}
	res, err := tx.exec(ctx, `INSERT INTO episodes (account_id, session_id, turn_id, worktree, project, repo, request, outcome,
		summary, tools, files, status, first_part, last_part, at, created_at, confidence)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		int64(acct), ep.SessionID, ep.TurnID, ep.Place.Worktree, ep.Place.Project, ep.Place.Repo, ep.Request, ep.Outcome,
		ep.Summary, strings.Join(ep.Tools, " "), strings.Join(ep.Files, " "), string(ep.Status), ep.FirstPart, ep.LastPart,
		millis(ep.At), millis(tx.Now), orOne(ep.Confidence))
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	if id >= 1<<episodeIDBits {
		return 0, memory.Errorf(memory.CodeInternal, "episode id %d is past the index's %d bits", id, episodeIDBits)
	}
	place, err := episodePlace(ctx, tx, acct, ep.Place)
	if err != nil {
		return 0, err
	}
	body, context := episodeIndexText(ep.Summary, ep.Request, ep.Outcome, strings.Join(ep.Files, " "), strings.Join(ep.Tools, " "))
	return id, ix.add(ctx, episodeRowid(place, id), body, context)
}

// episodeIndexText is what an episode's index row holds, from its
// columns: its words, and the files and tools it touched.
func episodeIndexText(summary, request, outcome, files, tools string) (body, context string) {
	return summary + "\n" + request + "\n" + outcome, files + " " + tools
}

// episodeIDBits is how many low bits of an episodes_fts rowid hold the
// episode's id; the bits above hold the number of its place (account,
// project and repo; migration 0019), so that a place's rows are one range
// of the index. 2^40 ids, 2^23 places.
const episodeIDBits = 40

// episodeRowid is an episode's rowid in episodes_fts.
func episodeRowid(place, id int64) int64 { return place<<episodeIDBits | id }

// episodeRowidSQL is episodeRowid for an episodes row e joined by
// episodePlaceJoin to its place p; a row without one keeps its id.
var episodeRowidSQL = `((COALESCE(p.id, 0) << ` + strconv.Itoa(episodeIDBits) + `) | e.id)`

const episodePlaceJoin = ` LEFT JOIN episode_places p ON p.account_id = e.account_id AND p.project = e.project AND p.repo = e.repo`

// episodePlace numbers an episode's place, adding it the first time.
func episodePlace(ctx context.Context, tx *Tx, acct memory.AccountID, p memory.Place) (int64, error) {
	const find = `SELECT id FROM episode_places WHERE account_id = ? AND project = ? AND repo = ?`
	st, err := tx.stmt(ctx, find)
	if err != nil {
		return 0, err
	}
	var id int64
	err = st.QueryRowContext(stmtCtx(ctx), int64(acct), p.Project, p.Repo).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		var res sql.Result
		if res, err = tx.exec(ctx, `INSERT INTO episode_places (account_id, project, repo) VALUES (?, ?, ?)`, int64(acct), p.Project, p.Repo); err == nil {
			id, err = res.LastInsertId()
		}
	}
	if err == nil && id >= 1<<(63-episodeIDBits) {
		err = memory.Errorf(memory.CodeInternal, "episode place %d is past the index's %d places", id, 1<<(63-episodeIDBits))
	}
	return id, err
}

func orOne(f float64) float64 {
	if f <= 0 {
		return 1
	}
	return f
}

const episodeCols = `e.id, e.session_id, s.external_id, e.turn_id, t.seq, t.key, e.worktree, e.project, e.repo, e.request, e.outcome,
	e.summary, e.tools, e.files, e.status, e.first_part, e.last_part, e.at, e.created_at, e.confidence, e.pinned, e.expired_at,
	e.reason, e.usage_count`

const episodeFrom = ` FROM episodes e JOIN sessions s ON s.id = e.session_id AND s.account_id = e.account_id
	JOIN turns t ON t.id = e.turn_id AND t.account_id = e.account_id`

func scanEpisodes(ctx context.Context, q querier, query string, args ...any) ([]memory.Episode, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memory.Episode
	for rows.Next() {
		var e memory.Episode
		var tools, files, status, reason string
		var at, created, expired, pinned int64
		if err := rows.Scan(&e.ID, &e.SessionID, &e.SessionRef, &e.TurnID, &e.TurnSeq, &e.TurnKey, &e.Place.Worktree, &e.Place.Project,
			&e.Place.Repo, &e.Request, &e.Outcome, &e.Summary, &tools, &files, &status, &e.FirstPart, &e.LastPart, &at, &created,
			&e.Confidence, &pinned, &expired, &reason, &e.UsageCount); err != nil {
			return nil, err
		}
		e.Tools, e.Files = strings.Fields(tools), strings.Fields(files)
		e.Status, e.Reason, e.Pinned = memory.TurnStatus(status), memory.Reason(reason), pinned != 0
		e.At, e.CreatedAt, e.ExpiredAt = fromMillis(at), fromMillis(created), fromMillis(expired)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Episodes lists episodes, newest first: active ones, or all with all.
func (db *DB) Episodes(ctx context.Context, acct memory.AccountID, all bool, limit int) ([]memory.Episode, error) {
	q := `SELECT ` + episodeCols + episodeFrom + ` WHERE e.account_id = ?`
	if !all {
		q += ` AND e.expired_at = 0`
	}
	q += ` ORDER BY e.at DESC, e.id DESC LIMIT ?`
	if limit <= 0 {
		limit = 1 << 30
	}
	out, err := scanEpisodes(ctx, db.read, q, int64(acct), limit)
	return out, wrapChange("read episodes", err)
}

// SessionEpisodes lists a session's active episodes in turn order.
func (db *DB) SessionEpisodes(ctx context.Context, acct memory.AccountID, sessionID int64) ([]memory.Episode, error) {
	out, err := scanEpisodes(ctx, db.read, `SELECT `+episodeCols+episodeFrom+` WHERE e.account_id = ? AND e.session_id = ?
		AND e.expired_at = 0 ORDER BY e.at, e.id`, int64(acct), sessionID)
	return out, wrapChange("read a session's episodes", err)
}

// Episode returns one episode.
func (db *DB) Episode(ctx context.Context, acct memory.AccountID, id int64) (memory.Episode, error) {
	out, err := scanEpisodes(ctx, db.read, `SELECT `+episodeCols+episodeFrom+` WHERE e.account_id = ? AND e.id = ?`, int64(acct), id)
	if err != nil {
		return memory.Episode{}, wrapChange("read episode", err)
	}
	if len(out) == 0 {
		return memory.Episode{}, memory.Errorf(memory.CodeNotFound, "no episode e%d; `cairn notes --episodes` lists them", id)
	}
	return out[0], nil
}

// SetEpisodeState forgets (reason) or restores (reason "") an episode.
func (db *DB) SetEpisodeState(ctx context.Context, acct memory.AccountID, id int64, reason memory.Reason) (memory.Episode, error) {
	err := db.Update(ctx, func(tx *Tx) error {
		var expired int64
		if err := tx.QueryRowContext(ctx, `SELECT expired_at FROM episodes WHERE id = ? AND account_id = ?`, id, int64(acct)).Scan(&expired); err != nil {
			return memory.Errorf(memory.CodeNotFound, "no episode e%d", id)
		}
		if reason == "" {
			if _, err := tx.ExecContext(ctx, `UPDATE episodes SET expired_at = 0, reason = '' WHERE id = ?`, id); err != nil || expired == 0 {
				return err
			}
			return indexEpisodes(ctx, tx, true, id)
		}
		if expired != 0 {
			return memory.Errorf(memory.CodeConflict, "episode e%d is already inactive", id)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE episodes SET expired_at = ?, reason = ? WHERE id = ?`, millis(tx.Now), string(reason), id); err != nil {
			return err
		}
		return indexEpisodes(ctx, tx, false, id)
	})
	if err != nil {
		return memory.Episode{}, wrapChange("change episode", err)
	}
	return db.Episode(ctx, acct, id)
}

// PinEpisode pins or unpins an episode; pinned episodes are never capped.
func (db *DB) PinEpisode(ctx context.Context, acct memory.AccountID, id int64, pinned bool) (memory.Episode, error) {
	err := db.Update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE episodes SET pinned = ? WHERE id = ? AND account_id = ?`, boolInt(pinned), id, int64(acct))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return memory.Errorf(memory.CodeNotFound, "no episode e%d", id)
		}
		return nil
	})
	if err != nil {
		return memory.Episode{}, wrapChange("pin episode", err)
	}
	return db.Episode(ctx, acct, id)
}

// CapEpisodes closes, oldest first, the active unpinned episodes of each
// project beyond max; closed episodes are kept, not deleted.
func (db *DB) CapEpisodes(ctx context.Context, acct memory.AccountID, max int) (int, error) {
	n := 0
	err := db.Update(ctx, func(tx *Tx) error {
		ids, err := queryIDs(ctx, tx, `SELECT id FROM (
				SELECT id, ROW_NUMBER() OVER (PARTITION BY project ORDER BY at DESC, id DESC) AS rn
				FROM episodes WHERE account_id = ? AND expired_at = 0 AND pinned = 0
			) WHERE rn > ? ORDER BY id`, int64(acct), max)
		if err != nil || len(ids) == 0 {
			return err
		}
		// The index holds active episodes only (migration 0021).
		if err := indexEpisodes(ctx, tx, false, ids...); err != nil {
			return err
		}
		st, err := tx.stmt(ctx, `UPDATE episodes SET expired_at = ?, reason = 'capped' WHERE id = ?`)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := st.ExecContext(stmtCtx(ctx), millis(tx.Now), id); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	return n, wrapChange("cap episodes", err)
}

// indexEpisodes adds episodes' rows to the index (add) or removes them
// from it: the index holds active episodes only, so an episode that
// closes leaves it and one restored comes back.
func indexEpisodes(ctx context.Context, tx *Tx, add bool, ids ...int64) error {
	ix, err := newIndexer(ctx, tx, memory.L2, 2)
	if err != nil {
		return err
	}
	st, err := tx.stmt(ctx, `SELECT `+episodeRowidSQL+`, e.summary, e.request, e.outcome, e.files, e.tools
		FROM episodes e`+episodePlaceJoin+` WHERE e.id = ?`)
	if err != nil {
		return err
	}
	for _, id := range ids {
		var rowid int64
		var summary, request, outcome, files, tools string
		err := st.QueryRowContext(stmtCtx(ctx), id).Scan(&rowid, &summary, &request, &outcome, &files, &tools)
		if err != nil {
			return err
		}
		if !add {
			if err := ix.remove(ctx, rowid); err != nil {
				return err
			}
			continue
		}
		body, context := episodeIndexText(summary, request, outcome, files, tools)
		if err := ix.add(ctx, rowid, body, context); err != nil {
			return err
		}
	}
	return ix.close(ctx)
}

// LastEpisodes returns the newest active episodes of a worktree, leaving
// out one session's: where work in this place left off.
func (db *DB) LastEpisodes(ctx context.Context, acct memory.AccountID, worktree string, excludeSession int64, limit int) ([]memory.Episode, error) {
	out, err := scanEpisodes(ctx, db.read, `SELECT `+episodeCols+episodeFrom+`
		WHERE e.account_id = ? AND e.worktree = ? AND e.expired_at = 0 AND e.session_id <> ?
		ORDER BY e.at DESC, e.id DESC LIMIT ?`, int64(acct), worktree, excludeSession, limit)
	return out, wrapChange("read last episodes", err)
}

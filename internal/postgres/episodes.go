package postgres

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// SaveEpisode writes a turn's episode, replacing the one an earlier
// capture of the same turn wrote.
func (db *DB) SaveEpisode(ctx context.Context, acct memory.AccountID, ep memory.Episode) (int64, error) {
	var id int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		var err error
		id, err = saveEpisodeTx(ctx, tx, ep)
		return err
	})
	return id, wrap("save episode", err)
}

func saveEpisodeTx(ctx context.Context, tx *Tx, ep memory.Episode) (int64, error) {
	if _, err := tx.exec(ctx, `DELETE FROM episodes WHERE turn_id = ? AND account_id = ?`, ep.TurnID, int64(tx.acct)); err != nil {
		return 0, err
	}
	d := newDoc(column{ftsTokens(ep.Summary + "\n" + ep.Request + "\n" + ep.Outcome), 'A'},
		column{ftsTokens(strings.Join(ep.Files, " ") + " " + strings.Join(ep.Tools, " ")), 'B'})
	var id int64
	err := tx.row(ctx, `INSERT INTO episodes (account_id, session_id, turn_id, worktree, project, repo, request, outcome,
		summary, tools, files, status, first_part, last_part, at, created_at, confidence, fts, fts_len)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::tsvector, ?) RETURNING id`,
		int64(tx.acct), ep.SessionID, ep.TurnID, ep.Place.Worktree, ep.Place.Project, ep.Place.Repo, ep.Request, ep.Outcome,
		ep.Summary, strings.Join(ep.Tools, " "), strings.Join(ep.Files, " "), string(ep.Status), ep.FirstPart, ep.LastPart,
		millis(ep.At), millis(tx.Now), orOne(ep.Confidence), d.vector, d.size).Scan(&id)
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

func scanEpisodes(ctx context.Context, tx *Tx, q string, args ...any) ([]memory.Episode, error) {
	rows, err := tx.query(ctx, q, args...)
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

func (db *DB) episodes(ctx context.Context, acct memory.AccountID, op, q string, args ...any) ([]memory.Episode, error) {
	var out []memory.Episode
	err := db.view(ctx, acct, func(tx *Tx) error {
		var err error
		out, err = scanEpisodes(ctx, tx, q, args...)
		return err
	})
	return out, wrap(op, err)
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
	return db.episodes(ctx, acct, "read episodes", q, int64(acct), limit)
}

// SessionEpisodes lists a session's active episodes in turn order.
func (db *DB) SessionEpisodes(ctx context.Context, acct memory.AccountID, sessionID int64) ([]memory.Episode, error) {
	return db.episodes(ctx, acct, "read a session's episodes", `SELECT `+episodeCols+episodeFrom+`
		WHERE e.account_id = ? AND e.session_id = ? AND e.expired_at = 0 ORDER BY e.at, e.id`, int64(acct), sessionID)
}

// LastEpisodes returns the newest active episodes of a worktree, leaving
// out one session's.
func (db *DB) LastEpisodes(ctx context.Context, acct memory.AccountID, worktree string, excludeSession int64, limit int) ([]memory.Episode, error) {
	return db.episodes(ctx, acct, "read last episodes", `SELECT `+episodeCols+episodeFrom+`
		WHERE e.account_id = ? AND e.worktree = ? AND e.expired_at = 0 AND e.session_id <> ?
		ORDER BY e.at DESC, e.id DESC LIMIT ?`, int64(acct), worktree, excludeSession, limit)
}

// Episode returns one episode.
func (db *DB) Episode(ctx context.Context, acct memory.AccountID, id int64) (memory.Episode, error) {
	out, err := db.episodes(ctx, acct, "read episode", `SELECT `+episodeCols+episodeFrom+` WHERE e.account_id = ? AND e.id = ?`, int64(acct), id)
	if err != nil {
		return memory.Episode{}, err
	}
	if len(out) == 0 {
		return memory.Episode{}, memory.Errorf(memory.CodeNotFound, "no episode e%d; `cairn notes --episodes` lists them", id)
	}
	return out[0], nil
}

// SetEpisodeState forgets (reason) or restores (reason "") an episode.
func (db *DB) SetEpisodeState(ctx context.Context, acct memory.AccountID, id int64, reason memory.Reason) (memory.Episode, error) {
	err := db.update(ctx, acct, func(tx *Tx) error {
		var expired int64
		if err := tx.row(ctx, `SELECT expired_at FROM episodes WHERE id = ? AND account_id = ?`, id, int64(acct)).Scan(&expired); err != nil {
			if noRows(err) {
				return memory.Errorf(memory.CodeNotFound, "no episode e%d", id)
			}
			return err
		}
		if reason == "" {
			_, err := tx.exec(ctx, `UPDATE episodes SET expired_at = 0, reason = '' WHERE id = ? AND account_id = ?`, id, int64(acct))
			return err
		}
		if expired != 0 {
			return memory.Errorf(memory.CodeConflict, "episode e%d is already inactive", id)
		}
		_, err := tx.exec(ctx, `UPDATE episodes SET expired_at = ?, reason = ? WHERE id = ? AND account_id = ?`, millis(tx.Now), string(reason), id, int64(acct))
		return err
	})
	if err != nil {
		return memory.Episode{}, wrap("change episode", err)
	}
	return db.Episode(ctx, acct, id)
}

// PinEpisode pins or unpins an episode.
func (db *DB) PinEpisode(ctx context.Context, acct memory.AccountID, id int64, pinned bool) (memory.Episode, error) {
	err := db.update(ctx, acct, func(tx *Tx) error {
		n, err := tx.exec(ctx, `UPDATE episodes SET pinned = ? WHERE id = ? AND account_id = ?`, boolInt(pinned), id, int64(acct))
		if err != nil {
			return err
		}
		if n == 0 {
			return memory.Errorf(memory.CodeNotFound, "no episode e%d", id)
		}
		return nil
	})
	if err != nil {
		return memory.Episode{}, wrap("pin episode", err)
	}
	return db.Episode(ctx, acct, id)
}

// CapEpisodes closes, oldest first, the active unpinned episodes of each
// project beyond max.
func (db *DB) CapEpisodes(ctx context.Context, acct memory.AccountID, max int) (int, error) {
	var n int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		var err error
		n, err = tx.exec(ctx, `UPDATE episodes SET expired_at = ?, reason = 'capped' WHERE account_id = ? AND id IN (
			SELECT id FROM (
				SELECT id, ROW_NUMBER() OVER (PARTITION BY project ORDER BY at DESC, id DESC) AS rn
				FROM episodes WHERE account_id = ? AND expired_at = 0 AND pinned = 0
			) ranked WHERE rn > ?)`, millis(tx.Now), int64(acct), int64(acct), max)
		return err
	})
	return int(n), wrap("cap episodes", err)
}

// MarkEpisodesUsed records that cited episodes were used.
func (db *DB) MarkEpisodesUsed(ctx context.Context, acct memory.AccountID, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	return wrap("mark episodes used", db.update(ctx, acct, func(tx *Tx) error {
		for _, id := range ids {
			if _, err := tx.exec(ctx, `UPDATE episodes SET usage_count = usage_count + 1, last_used_at = ? WHERE id = ? AND account_id = ?`,
				millis(tx.Now), id, int64(acct)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// searchEpisodes finds active episodes of the query's project, leaving
// out the current session's.
func searchEpisodes(ctx context.Context, tx *Tx, q memory.SearchQuery) ([]memory.Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	phrases, match := derivedMatch(q)
	m, err := layerStats(ctx, tx, memory.L2, "episodes", phrases, "AB")
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	args := []any{lexemes(phrases), match, int64(tx.acct)}
	sb.WriteString(`SELECT e.id, e.fts_len, ` + strings.Replace(lexInfo, "%s", "e", 1) + `
		FROM episodes e WHERE e.fts @@ ?::tsquery AND e.account_id = ? AND e.expired_at = 0`)
	rung := q.Rung
	if !rung.Wider(memory.RungWorktree) {
		rung = memory.RungProject
	}
	placeFilter(&sb, &args, q.Place, rung, "e.worktree", "e.project", "e.repo")
	if q.ExcludeSession != 0 {
		sb.WriteString(` AND e.session_id <> ?`)
		args = append(args, q.ExcludeSession)
	}
	timeWindow(&sb, &args, q, "e.at")
	hits, err := rankRows(ctx, tx, m, phrases, episodesBodyWeight, episodesContextWeight, sb.String(), args, nil)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	hits = hits[:min(limit, len(hits))]
	ids := hitIDs(hits)
	eps, err := scanEpisodes(ctx, tx, `SELECT `+episodeCols+episodeFrom+` WHERE e.account_id = ? AND e.id = ANY(?)`, int64(tx.acct), ids)
	if err != nil {
		return nil, err
	}
	byID := map[int64]memory.Episode{}
	for _, e := range eps {
		byID[e.ID] = e
	}
	var out []memory.Match
	for _, h := range hits {
		e, ok := byID[h.id]
		if !ok {
			continue
		}
		out = append(out, memory.Match{
			Layer: memory.L2, ID: e.ID, BM25: h.score, Text: e.Summary, Context: strings.Join(append(append([]string{}, e.Files...), e.Tools...), " "),
			Confidence: e.Confidence, Pinned: e.Pinned, Time: e.At, SessionID: e.SessionID, SessionRef: e.SessionRef,
			TurnID: e.TurnID, TurnKey: e.TurnKey, TurnSeq: e.TurnSeq, PartSeq: e.FirstPart, Worktree: e.Place.Worktree,
		})
	}
	return out, nil
}

// placeFilter restricts a query to what a read at place p up to rung r sees.
func placeFilter(sb *strings.Builder, args *[]any, p memory.Place, r memory.Rung, worktree, project, repo string) {
	switch r {
	case memory.RungEverywhere:
		return
	case memory.RungRepo:
		if p.Repo != "" {
			sb.WriteString(` AND (` + repo + ` = ? OR ` + project + ` = ?)`)
			*args = append(*args, p.Repo, p.Project)
			return
		}
		fallthrough
	case memory.RungProject:
		sb.WriteString(` AND ` + project + ` = ?`)
		*args = append(*args, p.Project)
	default:
		sb.WriteString(` AND ` + worktree + ` = ?`)
		*args = append(*args, p.Worktree)
	}
}

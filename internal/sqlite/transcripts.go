package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// SaveSession upserts a session and its turns in one transaction. Turns are
// matched by key: an unchanged digest is left alone, a changed one has its
// parts replaced, a new key is inserted. Turns missing from s (a rewound
// branch) are kept: nothing stored is lost by a re-import.
func (db *DB) SaveSession(ctx context.Context, acct memory.AccountID, s memory.Session) (memory.SaveCounts, error) {
	c := memory.SaveCounts{Changed: map[string]int64{}}
	err := db.Update(ctx, func(tx *Tx) error {
		id, place, err := upsertSessionPlace(ctx, tx, acct, s)
		if err != nil {
			return err
		}
		c.SessionID = id
		existing, err := turnDigests(ctx, tx, id)
		if err != nil {
			return err
		}
		insTurn, err := tx.PrepareContext(ctx, `INSERT INTO turns
			(account_id, session_id, seq, key, request, outcome, status, flags, model, started_at, ended_at, digest, created_at, updated_at, pending_capture)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`)
		if err != nil {
			return err
		}
		defer insTurn.Close()
		insPart, err := tx.PrepareContext(ctx, `INSERT INTO parts
			(account_id, session_id, turn_id, seq, role, kind, tool, is_error, text, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insPart.Close()
		ix, err := newIndexer(ctx, tx, memory.L0, 3)
		if err != nil {
			return err
		}
		var written []writtenPart
		for _, t := range s.Turns {
			old, seen := existing[t.Key]
			var turnID int64
			switch {
			case seen && old.digest == t.Digest:
				c.TurnsUnchanged++
				if old.pending {
					c.Changed[t.Key] = old.id // saved before, never learned from
				}
				continue
			case seen:
				turnID = old.id
				if err := dropParts(ctx, tx, ix, turnID); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE turns SET seq = ?, request = ?, outcome = ?, status = ?, flags = ?, model = ?,
					started_at = ?, ended_at = ?, digest = ?, updated_at = ?, pending_capture = 1 WHERE id = ?`,
					t.Seq, t.Request, t.Outcome, string(t.Status), int64(t.Flags), t.Model,
					millis(t.StartedAt), millis(t.EndedAt), t.Digest, millis(tx.Now), turnID); err != nil {
					return err
				}
				c.TurnsUpdated++
				c.Changed[t.Key] = turnID
			default:
				res, err := insTurn.ExecContext(stmtCtx(ctx), int64(acct), id, t.Seq, t.Key, t.Request, t.Outcome, string(t.Status),
					int64(t.Flags), t.Model, millis(t.StartedAt), millis(t.EndedAt), t.Digest, millis(tx.Now), millis(tx.Now))
				if err != nil {
					return err
				}
				if turnID, err = res.LastInsertId(); err != nil {
					return err
				}
				c.TurnsAdded++
				c.Changed[t.Key] = turnID
			}
			for _, p := range t.Parts {
				res, err := insPart.ExecContext(stmtCtx(ctx), int64(acct), id, turnID, p.Seq, string(p.Role), string(p.Kind),
					p.Tool, boolInt(p.IsError), p.Text, millis(p.Time))
				if err != nil {
					return err
				}
				pid, err := res.LastInsertId()
				if err != nil {
					return err
				}
				written = append(written, writtenPart{id: pid, seq: p.Seq, text: p.Text})
				c.Parts++
			}
		}
		if err := indexWritten(ctx, tx, ix, id, placeTokens(acct, place), written); err != nil {
			return err
		}
		return ix.close(ctx)
	})
	if err != nil {
		return c, memory.Wrap(memory.CodeInternal, "save session "+s.ExternalID, err)
	}
	return c, nil
}

func upsertSession(ctx context.Context, tx *Tx, acct memory.AccountID, s memory.Session) (int64, error) {
	id, _, err := upsertSessionPlace(ctx, tx, acct, s)
	return id, err
}

// upsertSessionPlace returns the session's id and its stored place: a
// re-import that does not know the place keeps the stored one, and the
// parts it adds are indexed there.
func upsertSessionPlace(ctx context.Context, tx *Tx, acct memory.AccountID, s memory.Session) (int64, memory.Place, error) {
	var id int64
	var p memory.Place
	err := tx.QueryRowContext(ctx, `INSERT INTO sessions
		(account_id, provider, external_id, parent_external_id, subagent, cwd, worktree, project, repo,
		 title, summary, client_version, model, branch, started_at, ended_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account_id, provider, external_id) DO UPDATE SET
			parent_external_id = CASE WHEN excluded.parent_external_id <> '' THEN excluded.parent_external_id ELSE parent_external_id END,
			subagent = excluded.subagent,
			cwd = CASE WHEN excluded.cwd <> '' THEN excluded.cwd ELSE cwd END,
			worktree = CASE WHEN excluded.worktree <> '' THEN excluded.worktree ELSE worktree END,
			project = CASE WHEN excluded.project <> '' THEN excluded.project ELSE project END,
			repo = CASE WHEN excluded.repo <> '' THEN excluded.repo ELSE repo END,
			title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE title END,
			summary = CASE WHEN excluded.summary <> '' THEN excluded.summary ELSE summary END,
			client_version = CASE WHEN excluded.client_version <> '' THEN excluded.client_version ELSE client_version END,
			model = CASE WHEN excluded.model <> '' THEN excluded.model ELSE model END,
			branch = CASE WHEN excluded.branch <> '' THEN excluded.branch ELSE branch END,
			started_at = CASE WHEN started_at = 0 OR (excluded.started_at <> 0 AND excluded.started_at < started_at) THEN excluded.started_at ELSE started_at END,
			ended_at = MAX(ended_at, excluded.ended_at),
			updated_at = excluded.updated_at
		RETURNING id, worktree, project, repo`,
		int64(acct), string(s.Provider), s.ExternalID, s.ParentExternalID, boolInt(s.Subagent), s.Cwd,
		s.Place.Worktree, s.Place.Project, s.Place.Repo, s.Title, s.Summary, s.ClientVersion, s.Model, s.Branch,
		millis(s.StartedAt), millis(s.EndedAt), millis(tx.Now), millis(tx.Now)).Scan(&id, &p.Worktree, &p.Project, &p.Repo)
	return id, p, err
}

// writtenPart is a part saved by this transaction, waiting to be indexed.
type writtenPart struct {
	id   int64
	seq  int
	text string
}

// dropParts removes a turn's parts and their index entries.
func dropParts(ctx context.Context, tx *Tx, ix *indexer, turnID int64) error {
	ids, err := queryIDs(ctx, tx, `SELECT id FROM parts WHERE turn_id = ?`, turnID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := ix.remove(ctx, id); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM parts WHERE turn_id = ?`, turnID)
	return err
}

// indexWritten indexes the parts saved in this transaction and re-indexes
// the stored parts whose neighbourhood they changed. A part's context
// column holds its neighbours in the session (see contextWindow).
func indexWritten(ctx context.Context, tx *Tx, ix *indexer, sessionID int64, place string, w []writtenPart) error {
	if len(w) == 0 {
		return nil
	}
	written := make(map[int64]string, len(w))
	lo, hi := w[0].seq, w[0].seq
	for _, p := range w {
		written[p.id] = p.text
		lo, hi = min(lo, p.seq), max(hi, p.seq)
	}
	win := contextWindow
	rows, err := tx.query(ctx, `SELECT id, seq, kind, substr(text, 1, ?), substr(text, -?) FROM parts
		WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq, id`,
		contextChars, contextChars, sessionID, lo-win*4-8, hi+win*4+8)
	if err != nil {
		return err
	}
	var list []neighbour
	for rows.Next() {
		var n neighbour
		if err := rows.Scan(&n.id, &n.seq, &n.kind, &n.head, &n.tail); err != nil {
			rows.Close()
			return err
		}
		list = append(list, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	affected := make([]bool, len(list))
	for i, n := range list {
		if _, ok := written[n.id]; ok {
			for j := max(0, i-win); j <= min(len(list)-1, i+win); j++ {
				affected[j] = true
			}
		}
	}
	// The rows to index, in order; a stored neighbour's old entry goes
	// first, since its context changed.
	var jobs []indexJob
	for i, n := range list {
		if !affected[i] {
			continue
		}
		body, ok := written[n.id]
		if !ok {
			if err := tx.QueryRowContext(ctx, `SELECT text FROM parts WHERE id = ?`, n.id).Scan(&body); err != nil {
				return err
			}
			if err := ix.remove(ctx, n.id); err != nil {
				return err
			}
		}
		jobs = append(jobs, indexJob{id: n.id, fields: [2]string{indexedBody(body), contextOf(list, i)}})
	}
	// cairn's tokenizer runs on another goroutine, a few parts ahead of
	// the FTS5 inserts: it is pure, and the import's writer is one core
	// busy with SQLite while the other reads the next source
	// (BENCHMARKS.md, Import).
	stop := make(chan struct{})
	defer close(stop)
	toks := make(chan [2]string, tokenizeAhead)
	go func() {
		for _, j := range jobs {
			select {
			case toks <- [2]string{text.IndexText(j.fields[0]), text.IndexText(j.fields[1])}:
			case <-stop:
				return
			}
		}
	}()
	for _, j := range jobs {
		t := <-toks
		if err := ix.addTokens(ctx, j.id, t[0], t[1], place); err != nil {
			return err
		}
	}
	return nil
}

// tokenizeAhead bounds how many parts' tokens wait for their insert:
// parts are at most indexedBodyChars, so a few MiB at most.
const tokenizeAhead = 64

// indexJob is one part to index: its body and context, not yet tokenized.
type indexJob struct {
	id     int64
	fields [2]string
}

type digestRow struct {
	id      int64
	digest  string
	pending bool
}

func turnDigests(ctx context.Context, tx *Tx, sessionID int64) (map[string]digestRow, error) {
	rows, err := tx.QueryContext(ctx, `SELECT key, id, digest, pending_capture FROM turns WHERE session_id = ?`, sessionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]digestRow{}
	for rows.Next() {
		var k string
		var r digestRow
		if err := rows.Scan(&k, &r.id, &r.digest, &r.pending); err != nil {
			return nil, err
		}
		out[k] = r
	}
	return out, rows.Err()
}

// SourceFiles returns what a source's files looked like when last imported.
func (db *DB) SourceFiles(ctx context.Context, acct memory.AccountID, path string) ([]transcript.File, memory.Provider, bool, error) {
	var raw, prov string
	err := db.read.QueryRowContext(ctx, `SELECT files, provider FROM sources WHERE account_id = ? AND path = ?`, int64(acct), path).Scan(&raw, &prov)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, memory.Wrap(memory.CodeInternal, "read source state", err)
	}
	var files []transcript.File
	if err := json.Unmarshal([]byte(raw), &files); err != nil {
		return nil, "", false, nil // an unreadable record only costs a re-read
	}
	return files, memory.Provider(prov), true, nil
}

// SaveSource records a source's files after a successful import.
func (db *DB) SaveSource(ctx context.Context, acct memory.AccountID, path string, provider memory.Provider, files []transcript.File, consumed int64) error {
	raw, err := json.Marshal(files)
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "encode source state", err)
	}
	return db.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sources (account_id, path, provider, files, consumed, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, path) DO UPDATE SET provider = excluded.provider, files = excluded.files,
				consumed = excluded.consumed, updated_at = excluded.updated_at`,
			int64(acct), path, string(provider), string(raw), consumed, millis(tx.Now))
		return err
	})
}

// ListSessions returns sessions, newest first, with their sizes.
func (db *DB) ListSessions(ctx context.Context, acct memory.AccountID, limit int) ([]memory.SessionSummary, error) {
	if limit <= 0 {
		limit = 1 << 30
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+sessionCols+`,
			(SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id),
			(SELECT COUNT(*) FROM parts p WHERE p.session_id = s.id)
		FROM sessions s WHERE s.account_id = ? ORDER BY s.started_at DESC, s.id DESC LIMIT ?`, int64(acct), limit)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "list sessions", err)
	}
	defer rows.Close()
	var out []memory.SessionSummary
	for rows.Next() {
		var s memory.SessionSummary
		r := &sessionRow{s: &s.Session}
		if err := rows.Scan(append(r.dest(), &s.TurnCount, &s.PartCount)...); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "list sessions", err)
		}
		r.finish()
		out = append(out, s)
	}
	return out, rows.Err()
}

// LoadSession returns one session with its turns and parts. ref is cairn's
// numeric id or the client's session id (a unique prefix of it will do).
func (db *DB) LoadSession(ctx context.Context, acct memory.AccountID, ref string) (memory.Session, error) {
	var s memory.Session
	err := db.View(ctx, func(tx *sql.Tx) error {
		id, err := findSession(ctx, tx, acct, ref)
		if err != nil {
			return err
		}
		r := &sessionRow{s: &s}
		if err := tx.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.id = ?`, id).Scan(r.dest()...); err != nil {
			return err
		}
		r.finish()
		turns, err := loadTurns(ctx, tx, id)
		if err != nil {
			return err
		}
		s.Turns = turns
		return nil
	})
	if err != nil {
		return s, memory.Wrap(memory.CodeInternal, "load session", err)
	}
	return s, nil
}

func findSession(ctx context.Context, tx *sql.Tx, acct memory.AccountID, ref string) (int64, error) {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM sessions WHERE account_id = ? AND id = ?`, int64(acct), n).Scan(&id)
		if err == nil {
			return id, nil
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT id FROM sessions WHERE account_id = ? AND (external_id = ? OR external_id LIKE ? ESCAPE '\') LIMIT 2`,
		int64(acct), ref, escapeLike(ref)+"%")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, err
		}
		ids = append(ids, id)
	}
	switch len(ids) {
	case 0:
		return 0, memory.Errorf(memory.CodeNotFound, "no session %q; run `cairn sessions` to list them", ref)
	case 1:
		return ids[0], nil
	}
	return 0, memory.Errorf(memory.CodeInvalid, "session %q is ambiguous; give more of its id", ref)
}

func loadTurns(ctx context.Context, tx *sql.Tx, sessionID int64) ([]memory.Turn, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, session_id, seq, key, request, outcome, status, flags, model, started_at, ended_at
		FROM turns WHERE session_id = ? ORDER BY seq, id`, sessionID)
	if err != nil {
		return nil, err
	}
	var turns []memory.Turn
	index := map[int64]int{}
	for rows.Next() {
		var t memory.Turn
		var st string
		var flags, started, ended int64
		if err := rows.Scan(&t.ID, &t.SessionID, &t.Seq, &t.Key, &t.Request, &t.Outcome, &st, &flags, &t.Model, &started, &ended); err != nil {
			rows.Close()
			return nil, err
		}
		t.Status, t.Flags = memory.TurnStatus(st), memory.Provenance(flags)
		t.StartedAt, t.EndedAt = fromMillis(started), fromMillis(ended)
		index[t.ID] = len(turns)
		turns = append(turns, t)
	}
	rows.Close()
	prows, err := tx.QueryContext(ctx, `SELECT id, turn_id, seq, role, kind, tool, is_error, text, created_at
		FROM parts WHERE session_id = ? ORDER BY seq, id`, sessionID)
	if err != nil {
		return nil, err
	}
	defer prows.Close()
	for prows.Next() {
		var p memory.Part
		var role, kind string
		var isErr, at int64
		if err := prows.Scan(&p.ID, &p.TurnID, &p.Seq, &role, &kind, &p.Tool, &isErr, &p.Text, &at); err != nil {
			return nil, err
		}
		p.Role, p.Kind, p.IsError, p.Time = memory.Role(role), memory.PartKind(kind), isErr != 0, fromMillis(at)
		if i, ok := index[p.TurnID]; ok {
			turns[i].Parts = append(turns[i].Parts, p)
		}
	}
	return turns, prows.Err()
}

const sessionCols = `s.id, s.account_id, s.provider, s.external_id, s.parent_external_id, s.subagent, s.cwd,
	s.worktree, s.project, s.repo, s.title, s.summary, s.client_version, s.model, s.branch, s.started_at, s.ended_at`

// sessionRow scans a session's columns and converts the ones stored in
// another shape.
type sessionRow struct {
	s                              *memory.Session
	acct, subagent, started, ended int64
	provider                       string
}

func (r *sessionRow) dest() []any {
	s := r.s
	return []any{&s.ID, &r.acct, &r.provider, &s.ExternalID, &s.ParentExternalID, &r.subagent, &s.Cwd,
		&s.Place.Worktree, &s.Place.Project, &s.Place.Repo, &s.Title, &s.Summary, &s.ClientVersion, &s.Model, &s.Branch,
		&r.started, &r.ended}
}

func (r *sessionRow) finish() {
	r.s.Account, r.s.Provider, r.s.Subagent = memory.AccountID(r.acct), memory.Provider(r.provider), r.subagent != 0
	r.s.StartedAt, r.s.EndedAt = fromMillis(r.started), fromMillis(r.ended)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func escapeLike(s string) string {
	r := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || s[i] == '_' || s[i] == '\\' {
			r = append(r, '\\')
		}
		r = append(r, s[i])
	}
	return string(r)
}

// SessionID finds cairn's id of a client's session; 0 when it is not
// stored yet.
func (db *DB) SessionID(ctx context.Context, acct memory.AccountID, provider memory.Provider, ref string) (int64, error) {
	var id int64
	err := db.read.QueryRowContext(ctx, `SELECT id FROM sessions WHERE account_id = ? AND provider = ? AND external_id = ?`,
		int64(acct), string(provider), ref).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, memory.Wrap(memory.CodeInternal, "find session", err)
	}
	return id, nil
}

// CaptureDone clears the turns' pending capture: they have been learned
// from (or their session may not teach).
func (db *DB) CaptureDone(ctx context.Context, acct memory.AccountID, turnIDs []int64) error {
	if len(turnIDs) == 0 {
		return nil
	}
	return db.Update(ctx, func(tx *Tx) error {
		args := []any{int64(acct)}
		for _, id := range turnIDs {
			args = append(args, id)
		}
		_, err := tx.ExecContext(ctx, `UPDATE turns SET pending_capture = 0 WHERE account_id = ? AND pending_capture = 1 AND id IN (?`+
			strings.Repeat(",?", len(turnIDs)-1)+`)`, args...)
		return err
	})
}

package postgres

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// SaveSession upserts a session and its turns in one transaction, as the
// SQLite store does: an unchanged digest is left alone, a changed one has
// its parts replaced, a new key is inserted, a missing one is kept.
func (db *DB) SaveSession(ctx context.Context, acct memory.AccountID, s memory.Session) (memory.SaveCounts, error) {
	c := memory.SaveCounts{Changed: map[string]int64{}}
	err := db.update(ctx, acct, func(tx *Tx) error {
		c = memory.SaveCounts{Changed: map[string]int64{}}
		id, place, err := upsertSession(ctx, tx, s)
		if err != nil {
			return err
		}
		c.SessionID = id
		existing := map[string][2]string{}
		pending := map[string]bool{}
		rows, err := tx.query(ctx, `SELECT key, id, digest, pending_capture FROM turns WHERE session_id = ? AND account_id = ?`, id, int64(acct))
		if err != nil {
			return err
		}
		for rows.Next() {
			var k, d string
			var tid int64
			var pc int16
			if err := rows.Scan(&k, &tid, &d, &pc); err != nil {
				rows.Close()
				return err
			}
			existing[k] = [2]string{strconv.FormatInt(tid, 10), d}
			pending[k] = pc == 1
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var written []writtenPart
		for _, t := range s.Turns {
			old, seen := existing[t.Key]
			var turnID int64
			switch {
			case seen && old[1] == t.Digest:
				c.TurnsUnchanged++
				if pending[t.Key] {
					tid, _ := strconv.ParseInt(old[0], 10, 64)
					c.Changed[t.Key] = tid // saved before, never learned from
				}
				continue
			case seen:
				turnID, _ = strconv.ParseInt(old[0], 10, 64)
				if _, err := tx.exec(ctx, `DELETE FROM parts WHERE turn_id = ? AND account_id = ?`, turnID, int64(acct)); err != nil {
					return err
				}
				if _, err := tx.exec(ctx, `UPDATE turns SET seq = ?, request = ?, outcome = ?, status = ?, flags = ?, model = ?,
					started_at = ?, ended_at = ?, digest = ?, updated_at = ?, pending_capture = 1 WHERE id = ? AND account_id = ?`,
					t.Seq, t.Request, t.Outcome, string(t.Status), int64(t.Flags), t.Model,
					millis(t.StartedAt), millis(t.EndedAt), t.Digest, millis(tx.Now), turnID, int64(acct)); err != nil {
					return err
				}
				c.TurnsUpdated++
			default:
				if err := tx.row(ctx, `INSERT INTO turns
					(account_id, session_id, seq, key, request, outcome, status, flags, model, started_at, ended_at, digest, created_at, updated_at, pending_capture)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) RETURNING id`,
					int64(acct), id, t.Seq, t.Key, t.Request, t.Outcome, string(t.Status), int64(t.Flags), t.Model,
					millis(t.StartedAt), millis(t.EndedAt), t.Digest, millis(tx.Now), millis(tx.Now)).Scan(&turnID); err != nil {
					return err
				}
				c.TurnsAdded++
			}
			c.Changed[t.Key] = turnID
			for _, p := range t.Parts {
				var pid int64
				if err := tx.row(ctx, `INSERT INTO parts (account_id, session_id, turn_id, seq, role, kind, tool, is_error, text, created_at)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
					int64(acct), id, turnID, p.Seq, string(p.Role), string(p.Kind), p.Tool, boolInt(p.IsError), p.Text, millis(p.Time)).Scan(&pid); err != nil {
					return err
				}
				written = append(written, writtenPart{id: pid, seq: p.Seq, text: p.Text})
				c.Parts++
			}
		}
		return indexWritten(ctx, tx, id, placeTokens(acct, place), written)
	})
	if err != nil {
		return c, wrap("save session "+s.ExternalID, err)
	}
	return c, nil
}

func upsertSession(ctx context.Context, tx *Tx, s memory.Session) (int64, memory.Place, error) {
	var id int64
	var p memory.Place
	err := tx.row(ctx, `INSERT INTO sessions AS o
		(account_id, provider, external_id, parent_external_id, subagent, cwd, worktree, project, repo,
		 title, summary, client_version, model, branch, started_at, ended_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account_id, provider, external_id) DO UPDATE SET
			parent_external_id = CASE WHEN excluded.parent_external_id <> '' THEN excluded.parent_external_id ELSE o.parent_external_id END,
			subagent = excluded.subagent,
			cwd = CASE WHEN excluded.cwd <> '' THEN excluded.cwd ELSE o.cwd END,
			worktree = CASE WHEN excluded.worktree <> '' THEN excluded.worktree ELSE o.worktree END,
			project = CASE WHEN excluded.project <> '' THEN excluded.project ELSE o.project END,
			repo = CASE WHEN excluded.repo <> '' THEN excluded.repo ELSE o.repo END,
			title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE o.title END,
			summary = CASE WHEN excluded.summary <> '' THEN excluded.summary ELSE o.summary END,
			client_version = CASE WHEN excluded.client_version <> '' THEN excluded.client_version ELSE o.client_version END,
			model = CASE WHEN excluded.model <> '' THEN excluded.model ELSE o.model END,
			branch = CASE WHEN excluded.branch <> '' THEN excluded.branch ELSE o.branch END,
			started_at = CASE WHEN o.started_at = 0 OR (excluded.started_at <> 0 AND excluded.started_at < o.started_at) THEN excluded.started_at ELSE o.started_at END,
			ended_at = GREATEST(o.ended_at, excluded.ended_at),
			updated_at = excluded.updated_at
		RETURNING id, worktree, project, repo`,
		int64(tx.acct), string(s.Provider), s.ExternalID, s.ParentExternalID, boolInt(s.Subagent), s.Cwd,
		s.Place.Worktree, s.Place.Project, s.Place.Repo, s.Title, s.Summary, s.ClientVersion, s.Model, s.Branch,
		millis(s.StartedAt), millis(s.EndedAt), millis(tx.Now), millis(tx.Now)).Scan(&id, &p.Worktree, &p.Project, &p.Repo)
	return id, p, err
}

type writtenPart struct {
	id   int64
	seq  int
	text string
}

// A part's context is its neighbours in its session, as in the SQLite
// store (see its index.go for the measurements behind the numbers).
const (
	contextWindow    = 2
	contextChars     = 600
	toolContextChars = 160
	indexedBodyChars = 16 << 10
)

type neighbour struct {
	id         int64
	seq        int
	kind       string
	head, tail string
}

// indexWritten indexes the parts saved in this transaction and re-indexes
// the stored parts whose neighbourhood they changed.
func indexWritten(ctx context.Context, tx *Tx, sessionID int64, place []string, w []writtenPart) error {
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
	rows, err := tx.query(ctx, `SELECT id, seq, kind, substr(text, 1, ?), `+tailExpr+` FROM parts
		WHERE session_id = ? AND account_id = ? AND seq BETWEEN ? AND ? ORDER BY seq, id`,
		contextChars, contextChars, sessionID, int64(tx.acct), lo-win*4-8, hi+win*4+8)
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
	for i, n := range list {
		if !affected[i] {
			continue
		}
		body, ok := written[n.id]
		if !ok {
			if err := tx.row(ctx, `SELECT text FROM parts WHERE id = ?`, n.id).Scan(&body); err != nil {
				return err
			}
		}
		d := newDoc(column{ftsTokens(indexedBody(body)), 'A'}, column{ftsTokens(contextOf(list, i)), 'B'}, column{place, 'D'})
		if _, err := tx.exec(ctx, `UPDATE parts SET fts = ?::tsvector, fts_len = ? WHERE id = ?`, d.vector, d.size, n.id); err != nil {
			return err
		}
	}
	return nil
}

// tailExpr is the last contextChars characters of text, as SQLite's
// substr(text, -n) gives them.
const tailExpr = `right(text, ?)`

func contextOf(list []neighbour, i int) string {
	win, chars := contextWindow, contextChars
	if k := memory.PartKind(list[i].kind); k == memory.KindToolCall || k == memory.KindToolResult {
		win, chars = 1, toolContextChars
	}
	var b strings.Builder
	for d := 1; d <= win; d++ {
		if i-d >= 0 {
			b.WriteString(tail(list[i-d].tail, chars))
			b.WriteByte('\n')
		}
		if i+d < len(list) {
			b.WriteString(head(list[i+d].head, chars))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

func indexedBody(s string) string {
	if len(s) <= indexedBodyChars {
		return s
	}
	return s[:indexedBodyChars*3/4] + "\n" + s[len(s)-indexedBodyChars/4:]
}

// SourceFiles returns what a source's files looked like when last imported.
func (db *DB) SourceFiles(ctx context.Context, acct memory.AccountID, path string) ([]transcript.File, memory.Provider, bool, error) {
	var raw, prov string
	found := false
	err := db.view(ctx, acct, func(tx *Tx) error {
		err := tx.row(ctx, `SELECT files, provider FROM sources WHERE account_id = ? AND path = ?`, int64(acct), path).Scan(&raw, &prov)
		if noRows(err) {
			return nil
		}
		found = err == nil
		return err
	})
	if err != nil {
		return nil, "", false, wrap("read source state", err)
	}
	if !found {
		return nil, "", false, nil
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
	return wrap("save source state", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO sources (account_id, path, provider, files, consumed, updated_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, path) DO UPDATE SET provider = excluded.provider, files = excluded.files,
				consumed = excluded.consumed, updated_at = excluded.updated_at`,
			int64(acct), path, string(provider), string(raw), consumed, millis(tx.Now))
		return err
	}))
}

const sessionCols = `s.id, s.account_id, s.provider, s.external_id, s.parent_external_id, s.subagent, s.cwd,
	s.worktree, s.project, s.repo, s.title, s.summary, s.client_version, s.model, s.branch, s.started_at, s.ended_at`

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

// ListSessions returns sessions, newest first, with their sizes.
func (db *DB) ListSessions(ctx context.Context, acct memory.AccountID, limit int) ([]memory.SessionSummary, error) {
	if limit <= 0 {
		limit = 1 << 30
	}
	var out []memory.SessionSummary
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT `+sessionCols+`,
				(SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id AND t.account_id = s.account_id),
				(SELECT COUNT(*) FROM parts p WHERE p.session_id = s.id AND p.account_id = s.account_id)
			FROM sessions s WHERE s.account_id = ? ORDER BY s.started_at DESC, s.id DESC LIMIT ?`, int64(acct), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s memory.SessionSummary
			r := &sessionRow{s: &s.Session}
			if err := rows.Scan(append(r.dest(), &s.TurnCount, &s.PartCount)...); err != nil {
				return err
			}
			r.finish()
			out = append(out, s)
		}
		return rows.Err()
	})
	return out, wrap("list sessions", err)
}

// LoadSession returns one session with its turns and parts; ref is
// cairn's id or the client's session id (a unique prefix of it will do).
func (db *DB) LoadSession(ctx context.Context, acct memory.AccountID, ref string) (memory.Session, error) {
	var s memory.Session
	err := db.view(ctx, acct, func(tx *Tx) error {
		var err error
		s, err = loadSession(ctx, tx, ref)
		return err
	})
	return s, wrap("load session", err)
}

func loadSession(ctx context.Context, tx *Tx, ref string) (memory.Session, error) {
	var s memory.Session
	id, err := findSession(ctx, tx, ref)
	if err != nil {
		return s, err
	}
	r := &sessionRow{s: &s}
	if err := tx.row(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.id = ? AND s.account_id = ?`, id, int64(tx.acct)).Scan(r.dest()...); err != nil {
		return s, err
	}
	r.finish()
	s.Turns, err = loadTurns(ctx, tx, id)
	return s, err
}

func findSession(ctx context.Context, tx *Tx, ref string) (int64, error) {
	acct := int64(tx.acct)
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		var id int64
		if err := tx.row(ctx, `SELECT id FROM sessions WHERE account_id = ? AND id = ?`, acct, n).Scan(&id); err == nil {
			return id, nil
		}
	}
	rows, err := tx.query(ctx, `SELECT id FROM sessions WHERE account_id = ? AND (external_id = ? OR external_id LIKE ? ESCAPE '\') ORDER BY id LIMIT 2`,
		acct, ref, escapeLike(ref)+"%")
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

func loadTurns(ctx context.Context, tx *Tx, sessionID int64) ([]memory.Turn, error) {
	rows, err := tx.query(ctx, `SELECT id, session_id, seq, key, request, outcome, status, flags, model, started_at, ended_at
		FROM turns WHERE session_id = ? AND account_id = ? ORDER BY seq, id`, sessionID, int64(tx.acct))
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
	if err := rows.Err(); err != nil {
		return nil, err
	}
	prows, err := tx.query(ctx, `SELECT id, turn_id, seq, role, kind, tool, is_error, text, created_at
		FROM parts WHERE session_id = ? AND account_id = ? ORDER BY seq, id`, sessionID, int64(tx.acct))
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

// SessionID finds cairn's id of a client's session; 0 when not stored.
func (db *DB) SessionID(ctx context.Context, acct memory.AccountID, provider memory.Provider, ref string) (int64, error) {
	var id int64
	err := db.view(ctx, acct, func(tx *Tx) error {
		err := tx.row(ctx, `SELECT id FROM sessions WHERE account_id = ? AND provider = ? AND external_id = ?`,
			int64(acct), string(provider), ref).Scan(&id)
		if noRows(err) {
			return nil
		}
		return err
	})
	return id, wrap("find session", err)
}

// SessionOfTurn loads the session a turn belongs to, with all its turns.
func (db *DB) SessionOfTurn(ctx context.Context, acct memory.AccountID, turnID int64) (memory.Session, error) {
	var s memory.Session
	err := db.view(ctx, acct, func(tx *Tx) error {
		var sid int64
		if err := tx.row(ctx, `SELECT session_id FROM turns WHERE id = ? AND account_id = ?`, turnID, int64(acct)).Scan(&sid); err != nil {
			if noRows(err) {
				return memory.Errorf(memory.CodeNotFound, "no turn %d", turnID)
			}
			return err
		}
		var err error
		s, err = loadSession(ctx, tx, strconv.FormatInt(sid, 10))
		return err
	})
	return s, wrap("load session", err)
}

// Part returns one raw part with its session and turn.
func (db *DB) Part(ctx context.Context, acct memory.AccountID, id int64) (memory.Match, error) {
	c := memory.Match{Layer: memory.L0, Confidence: 1}
	err := db.view(ctx, acct, func(tx *Tx) error {
		var at int64
		var role, kind, prov string
		err := tx.row(ctx, `SELECT p.id, p.text, p.created_at, p.seq, p.role, p.kind, p.tool,
				s.id, s.external_id, s.provider, s.worktree, t.id, t.key, t.seq
			FROM parts p JOIN sessions s ON s.id = p.session_id JOIN turns t ON t.id = p.turn_id
			WHERE p.id = ? AND p.account_id = ?`, id, int64(acct)).Scan(&c.ID, &c.Text, &at, &c.PartSeq, &role, &kind, &c.Tool,
			&c.SessionID, &c.SessionRef, &prov, &c.Worktree, &c.TurnID, &c.TurnKey, &c.TurnSeq)
		if noRows(err) {
			return memory.Errorf(memory.CodeNotFound, "no part p%d", id)
		}
		c.Time, c.Role, c.Kind, c.Provider = fromMillis(at), memory.Role(role), memory.PartKind(kind), memory.Provider(prov)
		return err
	})
	return c, wrap("read part", err)
}

// CaptureDone clears the turns' pending capture: they have been learned
// from (or their session may not teach).
func (db *DB) CaptureDone(ctx context.Context, acct memory.AccountID, turnIDs []int64) error {
	if len(turnIDs) == 0 {
		return nil
	}
	err := db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE turns SET pending_capture = 0 WHERE account_id = ? AND pending_capture = 1 AND id = ANY(?)`, int64(acct), turnIDs)
		return err
	})
	return wrap("mark turns captured", err)
}

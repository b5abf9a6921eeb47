package sqlite

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// MatchRows turns the rows a vector index found into candidates, with the
// same filters a lexical search of the layer applies (place, session,
// time, liveness, tier), so the semantic leg never shows what the lexical
// one would hide. Rows the filters drop, or deleted since, are left out;
// the order is the store's, the caller ranks. BM25 is 0: the index, not
// the words, found them.
func (db *DB) MatchRows(ctx context.Context, acct memory.AccountID, layer memory.Layer, ids []int64, q memory.SearchQuery) ([]memory.Match, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	switch layer {
	case memory.L0:
		return db.matchParts(ctx, acct, ids, q)
	case memory.L1:
		return db.matchStatements(ctx, acct, ids, q)
	case memory.L2:
		return db.matchEpisodes(ctx, acct, ids, q)
	}
	return nil, nil
}

// idList appends "(?, ?, …)" for ids.
func idList(sb *strings.Builder, args *[]any, ids []int64) {
	sb.WriteString("(")
	for i, id := range ids {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("?")
		*args = append(*args, id)
	}
	sb.WriteString(")")
}

func (db *DB) matchParts(ctx context.Context, acct memory.AccountID, ids []int64, q memory.SearchQuery) ([]memory.Match, error) {
	var sb strings.Builder
	args := []any{int64(acct)}
	sb.WriteString(`SELECT p.id, p.text, p.created_at, p.seq, p.role, p.kind, p.tool,
			s.id, s.external_id, s.provider, s.worktree, t.id, t.key, t.seq
		FROM parts p
		JOIN sessions s ON s.id = p.session_id
		JOIN turns t ON t.id = p.turn_id
		WHERE p.account_id = ? AND p.id IN `)
	idList(&sb, &args, ids)
	if q.Rung != memory.RungEverywhere {
		placeFilter(&sb, &args, q.Place, q.Rung, "s.worktree", "s.project", "s.repo")
	}
	sessionAndTime(&sb, &args, q, "p.session_id", "p.created_at")
	rows, err := db.read.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "match parts", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		c := memory.Match{Layer: memory.L0, Confidence: 1}
		var at int64
		var role, kind, prov string
		if err := rows.Scan(&c.ID, &c.Text, &at, &c.PartSeq, &role, &kind, &c.Tool,
			&c.SessionID, &c.SessionRef, &prov, &c.Worktree, &c.TurnID, &c.TurnKey, &c.TurnSeq); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "match parts", err)
		}
		c.Time, c.Role, c.Kind, c.Provider = fromMillis(at), memory.Role(role), memory.PartKind(kind), memory.Provider(prov)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "match parts", err)
	}
	rows.Close()
	if err := db.attachContext(ctx, out); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "match parts", err)
	}
	return out, nil
}

func (db *DB) matchStatements(ctx context.Context, acct memory.AccountID, ids []int64, q memory.SearchQuery) ([]memory.Match, error) {
	var sb strings.Builder
	args := []any{int64(acct)}
	sb.WriteString(`SELECT ` + prefixed("s.", statementCols) + ` FROM statements s
		WHERE s.account_id = ? AND s.expired_at = 0 AND s.invalid_at = 0 AND s.id IN `)
	idList(&sb, &args, ids)
	statementFilter(&sb, &args, q)
	rows, err := db.read.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "match statements", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		var r statementRow
		if err := rows.Scan(r.dest()...); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "match statements", err)
		}
		st := r.finish()
		out = append(out, memory.Match{
			Layer: memory.L1, ID: st.ID, Text: statementBody(st), Confidence: st.Confidence,
			Pinned: st.Pinned, Time: st.ValidAt, Statement: &st,
		})
	}
	return out, rows.Err()
}

func (db *DB) matchEpisodes(ctx context.Context, acct memory.AccountID, ids []int64, q memory.SearchQuery) ([]memory.Match, error) {
	var sb strings.Builder
	args := []any{int64(acct)}
	sb.WriteString(`SELECT ` + episodeCols + episodeFrom + ` WHERE e.account_id = ? AND e.expired_at = 0 AND e.id IN `)
	idList(&sb, &args, ids)
	episodeFilter(&sb, &args, q)
	rows, err := db.read.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "match episodes", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		var e memory.Episode
		var tools, files, status, reason string
		var at, created, expired, pinned int64
		if err := rows.Scan(&e.ID, &e.SessionID, &e.SessionRef, &e.TurnID, &e.TurnSeq, &e.TurnKey, &e.Place.Worktree, &e.Place.Project,
			&e.Place.Repo, &e.Request, &e.Outcome, &e.Summary, &tools, &files, &status, &e.FirstPart, &e.LastPart, &at, &created,
			&e.Confidence, &pinned, &expired, &reason, &e.UsageCount); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "match episodes", err)
		}
		out = append(out, memory.Match{
			Layer: memory.L2, ID: e.ID, Text: e.Summary, Context: strings.Join(strings.Fields(files+" "+tools), " "),
			Confidence: e.Confidence, Pinned: pinned != 0, Time: fromMillis(at), SessionID: e.SessionID, SessionRef: e.SessionRef,
			TurnID: e.TurnID, TurnKey: e.TurnKey, TurnSeq: e.TurnSeq, PartSeq: e.FirstPart, Worktree: e.Place.Worktree,
		})
	}
	return out, rows.Err()
}

package postgres

import (
	"context"
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Column weights of each layer's bm25, as the SQLite store gives them.
const (
	partsBodyWeight         = 1.0
	partsContextWeight      = 0.5
	statementsBodyWeight    = 1.0
	statementsContextWeight = 0.3
	episodesBodyWeight      = 1.0
	episodesContextWeight   = 0.3
)

// hit is a row a layer's index matched, with its score.
type hit struct {
	id    int64
	score float64
	// the columns a search of parts filters on after ranking
	session int64
	at      int64
}

// lexInfo is the SQL that reads, for each candidate row, the weights of
// the query's lexemes in it: "lexeme\x1fweights" joined by \x1e.
const lexInfo = `(SELECT string_agg(u.lexeme || chr(31) || array_to_string(u.weights, ''), chr(30))
	FROM unnest(%s.fts) u WHERE u.lexeme = ANY(?))`

func parseLex(s string) map[string][]byte {
	out := map[string][]byte{}
	for _, e := range strings.Split(s, "\x1e") {
		lex, w, ok := strings.Cut(e, "\x1f")
		if ok {
			out[lex] = []byte(w)
		}
	}
	return out
}

// lexemes lists the distinct tokens of the phrases.
func lexemes(phrases [][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range phrases {
		for _, t := range p {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// layerStats reads what bm25 needs of a layer for the transaction's
// account: its rows and tokens, and how many rows hold each phrase (in
// the columns weights names).
func layerStats(ctx context.Context, tx *Tx, layer memory.Layer, table string, phrases [][]string, weights string) (bm25, error) {
	var rows, tokens int64
	err := tx.row(ctx, `SELECT docs, tokens FROM fts_stats WHERE account_id = ? AND layer = ?`, int64(tx.acct), string(layer)).Scan(&rows, &tokens)
	if err != nil && !noRows(err) {
		return bm25{}, err
	}
	hits := make([]int64, len(phrases))
	var sel []string
	var args []any
	for _, p := range phrases {
		q := termQuery(p, weights)
		if q == "" {
			sel = append(sel, "0")
			continue
		}
		sel = append(sel, "COUNT(*) FILTER (WHERE fts @@ ?::tsquery)")
		args = append(args, q)
	}
	args = append(args, int64(tx.acct), anyQuery(phrases, weights))
	dest := make([]any, len(hits))
	for i := range hits {
		dest[i] = &hits[i]
	}
	if err := tx.row(ctx, `SELECT `+strings.Join(sel, ", ")+` FROM `+table+` WHERE account_id = ? AND fts @@ ?::tsquery`, args...).Scan(dest...); err != nil {
		return bm25{}, err
	}
	return newBM25(rows, tokens, hits), nil
}

// rankRows scores the rows a query selects; the query's first three
// columns are id, fts_len and lexInfo, then any columns of extra.
// hitIDs lists the ranked rows' ids, in rank order.
func hitIDs(hits []hit) []int64 {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids
}

// timeWindow keeps the rows whose time column lies in the query's window.
func timeWindow(sb *strings.Builder, args *[]any, q memory.SearchQuery, col string) {
	if !q.Since.IsZero() {
		sb.WriteString(` AND ` + col + ` >= ?`)
		*args = append(*args, millis(q.Since))
	}
	if !q.Until.IsZero() {
		sb.WriteString(` AND ` + col + ` < ?`)
		*args = append(*args, millis(q.Until))
	}
}

func rankRows(ctx context.Context, tx *Tx, m bm25, phrases [][]string, wA, wB float64, q string, args []any, extra func(h *hit) []any) ([]hit, error) {
	rows, err := tx.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []hit
	for rows.Next() {
		var h hit
		var size int64
		var lex *string
		dest := []any{&h.id, &size, &lex}
		if extra != nil {
			dest = append(dest, extra(&h)...)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		var l map[string][]byte
		if lex != nil {
			l = parseLex(*lex)
		}
		h.score = m.score(freqs(phrases, l, wA, wB), size)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Best first; among equals the newest, as the SQLite store orders.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id > out[j].id
	})
	return out, nil
}

// SearchLayer returns a layer's best candidates for the query's terms,
// filtered by place, session and time.
func (db *DB) SearchLayer(ctx context.Context, acct memory.AccountID, layer memory.Layer, q memory.SearchQuery) ([]memory.Match, error) {
	if anyQuery(queryTerms(q.Terms), "AB") == "" {
		return nil, nil
	}
	var out []memory.Match
	err := db.view(ctx, acct, func(tx *Tx) error {
		var err error
		switch layer {
		case memory.L0:
			out, err = searchParts(ctx, tx, q)
		case memory.L1:
			out, err = searchStatements(ctx, tx, q)
		case memory.L2:
			out, err = searchEpisodes(ctx, tx, q)
		case memory.L3:
			out, err = searchProfile(ctx, tx, q)
		}
		return err
	})
	return out, wrap("search "+string(layer), err)
}

func searchParts(ctx context.Context, tx *Tx, q memory.SearchQuery) ([]memory.Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	terms := q.Match
	if len(terms) == 0 {
		terms = q.Terms
	}
	phrases := queryTerms(terms)
	words := anyQuery(phrases, "AB")
	if words == "" {
		return nil, nil
	}
	// As the SQLite store: the best rows of the index are read deep enough
	// to make up for those the filters drop.
	deep := limit*2 + 20
	if q.ExcludeSession != 0 || !q.Since.IsZero() || !q.Until.IsZero() {
		deep = limit*4 + 40
	}
	if !q.MatchAll {
		m, err := layerStats(ctx, tx, memory.L0, "parts", phrases, "AB")
		if err != nil {
			return nil, err
		}
		match := "(" + words + ") & " + placeQuery(tx.acct, q.Place, q.Rung)
		hits, err := rankRows(ctx, tx, m, phrases, partsBodyWeight, partsContextWeight,
			pg(`SELECT p.id, p.fts_len, `+strings.Replace(lexInfo, "%s", "p", 1)+`, p.session_id, p.created_at
				FROM parts p WHERE p.account_id = ? AND p.fts @@ ?::tsquery`),
			[]any{lexemes(phrases), int64(tx.acct), match}, func(h *hit) []any { return []any{&h.session, &h.at} })
		if err != nil {
			return nil, err
		}
		return readParts(ctx, tx, q, hits[:min(len(hits), deep)], limit)
	}
	// Every term is common: the newest rows holding all of them, then all
	// but the commonest, and so on, until enough are found; unranked.
	var out []memory.Match
	for n := len(phrases); n > 0 && len(out) < limit; n-- {
		rows, err := tx.query(ctx, `SELECT p.id, p.session_id, p.created_at FROM parts p WHERE p.account_id = ? AND p.fts @@ ?::tsquery
			ORDER BY p.id DESC LIMIT ?`, int64(tx.acct), "("+allQuery(phrases[:n], "AB")+") & "+placeQuery(tx.acct, q.Place, q.Rung), deep)
		if err != nil {
			return nil, err
		}
		var hits []hit
		for rows.Next() {
			var h hit
			if err := rows.Scan(&h.id, &h.session, &h.at); err != nil {
				rows.Close()
				return nil, err
			}
			hits = append(hits, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if out, err = readParts(ctx, tx, q, hits, limit); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readParts filters ranked hits by session and time, keeps limit of them
// and reads them with their sessions, turns and neighbours.
func readParts(ctx context.Context, tx *Tx, q memory.SearchQuery, hits []hit, limit int) ([]memory.Match, error) {
	var keep []hit
	for _, h := range hits {
		if (q.ExcludeSession != 0 && h.session == q.ExcludeSession) || (!q.Since.IsZero() && h.at < millis(q.Since)) ||
			(!q.Until.IsZero() && h.at >= millis(q.Until)) {
			continue
		}
		keep = append(keep, h)
		if len(keep) == limit {
			break
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	ids := hitIDs(keep)
	rows, err := tx.query(ctx, `SELECT p.id, p.text, p.created_at, p.seq, p.role, p.kind, p.tool,
			s.id, s.external_id, s.provider, s.worktree, t.id, t.key, t.seq
		FROM parts p JOIN sessions s ON s.id = p.session_id JOIN turns t ON t.id = p.turn_id
		WHERE p.account_id = ? AND p.id = ANY(?)`, int64(tx.acct), ids)
	if err != nil {
		return nil, err
	}
	byID := map[int64]memory.Match{}
	for rows.Next() {
		c := memory.Match{Layer: memory.L0, Confidence: 1}
		var at int64
		var role, kind, prov string
		if err := rows.Scan(&c.ID, &c.Text, &at, &c.PartSeq, &role, &kind, &c.Tool,
			&c.SessionID, &c.SessionRef, &prov, &c.Worktree, &c.TurnID, &c.TurnKey, &c.TurnSeq); err != nil {
			rows.Close()
			return nil, err
		}
		c.Time, c.Role, c.Kind, c.Provider = fromMillis(at), memory.Role(role), memory.PartKind(kind), memory.Provider(prov)
		byID[c.ID] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []memory.Match
	for _, h := range keep {
		if c, ok := byID[h.id]; ok {
			c.BM25 = h.score
			out = append(out, c)
		}
	}
	if q.SkipContext {
		return out, nil
	}
	texts, err := partContexts(ctx, tx, out)
	for i := range texts {
		out[i].Context = texts[i]
	}
	return out, err
}

// PartContexts returns each part's context, the start of its neighbours:
// the window the index's context column holds.
func (db *DB) PartContexts(ctx context.Context, acct memory.AccountID, parts []memory.Match) ([]string, error) {
	var out []string
	err := db.view(ctx, acct, func(tx *Tx) error {
		var err error
		out, err = partContexts(ctx, tx, parts)
		return err
	})
	return out, wrap("read parts' neighbours", err)
}

func partContexts(ctx context.Context, tx *Tx, parts []memory.Match) ([]string, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	win := contextWindow
	var sb strings.Builder
	args := []any{contextChars, int64(tx.acct)}
	sb.WriteString(`SELECT p.session_id, p.seq, substr(p.text, 1, ?) FROM parts p WHERE p.account_id = ? AND (`)
	for i, c := range parts {
		if i > 0 {
			sb.WriteString(" OR ")
		}
		sb.WriteString(`(p.session_id = ? AND p.seq BETWEEN ? AND ? AND p.id <> ?)`)
		args = append(args, c.SessionID, c.PartSeq-win, c.PartSeq+win, c.ID)
	}
	sb.WriteString(`)`)
	rows, err := tx.query(ctx, sb.String(), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	nb := memory.Neighbours{}
	for rows.Next() {
		var k memory.NeighbourKey
		var t string
		if err := rows.Scan(&k.Session, &k.Seq, &t); err != nil {
			return nil, err
		}
		nb[k] = t
	}
	return nb.Contexts(parts, win), rows.Err()
}

// TermStats estimates, over the account's newest documents of the raw
// layer, how many hold each term: counted under the account's row-level
// security, never past dfCap matches, like the SQLite store's.
func (db *DB) TermStats(ctx context.Context, acct memory.AccountID, layer memory.Layer, terms []string) (memory.TermStats, error) {
	const dfWindow, dfCap = 20000, 1000
	st := memory.TermStats{DF: map[string]int{}}
	if layer != memory.L0 {
		return st, nil
	}
	err := db.view(ctx, acct, func(tx *Tx) error {
		var docs int
		err := tx.row(ctx, `SELECT docs FROM fts_stats WHERE account_id = ? AND layer = ?`, int64(acct), string(layer)).Scan(&docs)
		if err != nil && !noRows(err) {
			return err
		}
		st.Docs, st.Total = min(docs, dfWindow), docs
		if len(terms) == 0 || docs == 0 {
			return nil
		}
		// The window is the ids of the newest dfWindow parts, as on SQLite
		// (with other accounts' ids between them it holds fewer rows).
		var top int64
		if err := tx.row(ctx, `SELECT COALESCE(MAX(id), 0) FROM parts WHERE account_id = ?`, int64(acct)).Scan(&top); err != nil {
			return err
		}
		for _, t := range terms {
			p := queryTerms([]string{t})
			if len(p) == 0 || termQuery(p[0], "AB") == "" {
				continue
			}
			var n int
			if err := tx.row(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM parts WHERE account_id = ? AND fts @@ ?::tsquery AND id > ? LIMIT ?) x`,
				int64(acct), termQuery(p[0], "AB"), top-dfWindow, dfCap).Scan(&n); err != nil {
				return err
			}
			st.DF[t] = n
		}
		return nil
	})
	return st, wrap("read term statistics", err)
}

// derivedMatch is the query of a derived layer, as the SQLite store's:
// the terms the raw layer is asked for (Match when set), all of them
// required when MatchAll says so; ranked by bm25 either way.
func derivedMatch(q memory.SearchQuery) ([][]string, string) {
	if len(q.Match) == 0 {
		p := queryTerms(q.Terms)
		return p, anyQuery(p, "AB")
	}
	p := queryTerms(q.Match)
	if q.MatchAll {
		return p, allQuery(p, "AB")
	}
	match := anyQuery(p, "AB")
	if len(q.Together) > 0 {
		t := queryTerms(q.Together)
		if all := allQuery(t, "AB"); all != "" && match != "" {
			match = "(" + match + ") | (" + all + ")"
		}
		p = append(p, t...)
	}
	return p, match
}

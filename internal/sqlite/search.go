package sqlite

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// partsBodyWeight and partsContextWeight weigh a part's own words against
// its neighbours' in bm25: a neighbour's words say what the part is about,
// less surely than its own.
const (
	partsBodyWeight    = 1.0
	partsContextWeight = 0.5
)

// matchExpr builds an FTS5 query from tokens: each quoted (inner quotes
// doubled), joined by OR. Tokens come from the text package, but quoting
// makes any string safe: user text never reaches MATCH unquoted.
func matchExpr(terms []string) string { return joinTerms(terms, " OR ") }

func joinTerms(terms []string, op string) string {
	var b strings.Builder
	for _, t := range terms {
		// SQLite reads the query as a C string: a NUL would end it.
		t = strings.ReplaceAll(t, "\x00", "")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(op)
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	return b.String()
}

// derivedMatch is the FTS5 query of a derived layer: the same terms the
// raw layer is asked for (chosen by its statistics, the steadiest; a word
// common in turns is common in their episodes too), all of them required
// when the raw layer requires them, or else the rows holding every
// Together term as well. Derived layers are ranked by bm25
// either way: what a query selects of them is small enough.
func derivedMatch(q memory.SearchQuery) string {
	switch {
	case len(q.Match) == 0:
		return matchExpr(q.Terms)
	case q.MatchAll:
		return allExpr(q.Match)
	}
	some := matchExpr(q.Match)
	if all := allExpr(q.Together); all != "" && some != "" {
		return "(" + some + ") OR (" + all + ")"
	}
	return some
}

// SearchLayer returns a layer's best candidates for the query's terms,
// filtered by place, session and time.
func (db *DB) SearchLayer(ctx context.Context, acct memory.AccountID, layer memory.Layer, q memory.SearchQuery) ([]memory.Match, error) {
	if matchExpr(q.Terms) == "" {
		return nil, nil
	}
	switch layer {
	case memory.L0:
		return db.searchParts(ctx, acct, q)
	case memory.L1:
		return db.searchStatements(ctx, acct, q)
	case memory.L2:
		return db.searchEpisodes(ctx, acct, q)
	case memory.L3:
		return db.searchProfile(ctx, acct, q)
	}
	return nil, nil // a layer without an index yet has no candidates
}

func (db *DB) searchParts(ctx context.Context, acct memory.AccountID, q memory.SearchQuery) ([]memory.Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	terms := q.Match
	if len(terms) == 0 {
		terms = q.Terms
	}
	// The place is ANDed into the match, and FTS5 ranks inside its own
	// table: only the best rows are joined to their parts, sessions and
	// turns. Rows the outer filters drop (the current session, a time
	// range) are made up for by reading deeper.
	if matchExpr(terms) == "" {
		return nil, nil
	}
	place, err := db.placeMatch(ctx, acct, q.Place, q.Rung)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search parts", err)
	}
	// With no session or time filter every hit is kept (the match holds
	// the account's place token), so a read needs no more than it returns.
	deep := limit
	if filtersHits(q) {
		deep = limit*4 + 40
	}
	var out []memory.Match
	if !q.MatchAll {
		expr := "{body context} : (" + matchExpr(terms) + ")"
		out, err = db.readParts(ctx, acct, q, expr, place, true, deep, limit)
		if err == nil && len(q.Match) > 0 && len(out) == 0 {
			// The rare terms are held only at other places: the newest
			// rows of the others here, as when every term is common.
			rest := otherTerms(q.Terms, q.Match)
			out, err = db.newestParts(ctx, acct, q, rest[:min(fillTerms, len(rest))], place, deep, limit)
		}
	} else {
		out, err = db.newestParts(ctx, acct, q, terms, place, deep, limit)
	}
	if err != nil {
		return nil, err
	}
	// Neighbours are read once, for the rows kept, unless the caller reads
	// them for the rows it needs.
	if !q.SkipContext {
		if err := db.attachContext(ctx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fillTerms is how many of the other terms, most informative first, the
// rows read when the rare terms found nothing must hold together at first.
const fillTerms = 3

// otherTerms is terms without those in match, in order.
func otherTerms(terms, match []string) []string {
	var out []string
	for _, t := range terms {
		if !slices.Contains(match, t) {
			out = append(out, t)
		}
	}
	return out
}

// newestParts reads the newest rows holding all terms together, then all
// but the last, and so on until limit rows are found: what a search of
// common terms can afford. Each read holds the one before it, so the last
// read decides.
func (db *DB) newestParts(ctx context.Context, acct memory.AccountID, q memory.SearchQuery, terms []string, place string, deep, limit int) ([]memory.Match, error) {
	var out []memory.Match
	var err error
	for n := len(terms); n > 0 && len(out) < limit; n-- {
		if out, err = db.readParts(ctx, acct, q, "{body context} : ("+allExpr(terms[:n])+")", place, false, deep, limit); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// allExpr is matchExpr with every term required.
func allExpr(terms []string) string { return joinTerms(terms, " AND ") }

// readParts reads the parts an FTS5 expression matches at a place (an
// AND clause of placeMatch), filtered, with their sessions and turns (the
// caller attaches their neighbours): the best by bm25 when ranked, else the newest, which FTS5
// returns without scoring a row it skips.
//
// Ranked, the place is matched by a second cursor whose rowids the ranked
// one keeps: bm25 counts every phrase of its own expression over the
// whole index once a search, and the place token of a busy worktree is
// held by tens of thousands of rows (a third of a ranked read's time). A
// place phrase weighs nothing in the score, so the scores are the same.
func (db *DB) readParts(ctx context.Context, acct memory.AccountID, q memory.SearchQuery, expr, place string, ranked bool, deep, limit int) ([]memory.Match, error) {
	var sb strings.Builder
	args := []any{partsBodyWeight, partsContextWeight, expr + place}
	where := `parts_fts MATCH ?`
	order := "score DESC, rowid DESC" // the order kept rows are read in: hits need no slack for ties
	switch {
	case !ranked:
		args[0], args[1] = 0.0, 0.0
		order = "rowid DESC"
	case place != "":
		args[2] = expr
		args = append(args, expr+place)
		// The plus keeps the IN from the index's own plan: FTS5 would
		// be asked row by row, and bm25 would count its phrases again.
		where += ` AND +rowid IN (SELECT rowid FROM parts_fts WHERE parts_fts MATCH ?)`
	}
	args = append(args, deep)
	sb.WriteString(`WITH hits AS (
			SELECT rowid AS id, ` + scoreExpr(ranked) + ` AS score FROM parts_fts
			WHERE ` + where + ` ORDER BY ` + order + ` LIMIT ?), kept AS (`)
	// Only the rows kept are read whole, with their sessions and turns.
	// The match holds the account's place token (or the store has one
	// account), so only a session or time filter can drop a hit.
	if filtersHits(q) {
		sb.WriteString(`SELECT hits.id, hits.score FROM hits JOIN parts p ON p.id = hits.id WHERE true`)
		sessionAndTime(&sb, &args, q, "p.session_id", "p.created_at")
	} else {
		sb.WriteString(`SELECT hits.id, hits.score FROM hits`)
	}
	sb.WriteString(` ORDER BY hits.score DESC, hits.id DESC LIMIT ?)
		SELECT p.id, kept.score, p.text, p.created_at, p.seq, p.role, p.kind, p.tool,
			s.id, s.external_id, s.provider, s.worktree, t.id, t.key, t.seq
		FROM kept
		JOIN parts p ON p.id = kept.id
		JOIN sessions s ON s.id = p.session_id
		JOIN turns t ON t.id = p.turn_id
		WHERE p.account_id = ?
		ORDER BY kept.score DESC, p.id DESC`)
	args = append(args, limit, int64(acct))
	rows, err := db.read.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search parts", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		c := memory.Match{Layer: memory.L0, Confidence: 1}
		var at int64
		var role, kind, prov string
		if err := rows.Scan(&c.ID, &c.BM25, &c.Text, &at, &c.PartSeq, &role, &kind, &c.Tool,
			&c.SessionID, &c.SessionRef, &prov, &c.Worktree, &c.TurnID, &c.TurnKey, &c.TurnSeq); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "search parts", err)
		}
		c.Time, c.Role, c.Kind, c.Provider = fromMillis(at), memory.Role(role), memory.PartKind(kind), memory.Provider(prov)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search parts", err)
	}
	return out, nil
}

// scoreExpr is bm25 with the columns' weights taken as the first two
// arguments, or, unranked, a constant that still consumes them. Its scope
// is the column filter every ranked parts read has (bm25.go).
func scoreExpr(ranked bool) string {
	if ranked {
		return "-" + rankFunction + "(parts_fts, 'parts{body context}', ?, ?, 0.0)"
	}
	return "(? + ?)"
}

// placeMatch is placeMatchFor as an AND clause, or nothing for a read of
// everywhere in a store of one account: every row is the account's, and
// bm25 counts each phrase's rows once per search, which for the account's
// token is the whole index (a millisecond per 25,000 parts).
func (db *DB) placeMatch(ctx context.Context, acct memory.AccountID, p memory.Place, r memory.Rung) (string, error) {
	if r == memory.RungEverywhere {
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts`).Scan(&n); err != nil {
			return "", err
		}
		if n <= 1 {
			return "", nil
		}
	}
	return " AND " + placeMatchFor(acct, p, r), nil
}

// placeMatchFor is the place part of an FTS5 query: the account, and the
// rungs of the place a read at rung r sees.
func placeMatchFor(acct memory.AccountID, p memory.Place, r memory.Rung) string {
	tok := func(t string) string { return `place : "` + t + `"` }
	switch r {
	case memory.RungEverywhere:
		return tok(accountToken(acct))
	case memory.RungRepo:
		if k, ok := p.Key(memory.RungRepo); ok {
			pk, _ := p.Key(memory.RungProject)
			return "(" + tok(placeToken(acct, memory.RungRepo, k)) + " OR " + tok(placeToken(acct, memory.RungProject, pk)) + ")"
		}
		fallthrough
	case memory.RungProject:
		k, _ := p.Key(memory.RungProject)
		return tok(placeToken(acct, memory.RungProject, k))
	}
	k, _ := p.Key(memory.RungWorktree)
	return tok(placeToken(acct, memory.RungWorktree, k))
}

// attachContext fills each candidate part's Context (see PartContexts).
func (db *DB) attachContext(ctx context.Context, cs []memory.Match) error {
	texts, err := db.PartContexts(ctx, 0, cs)
	for i := range texts {
		cs[i].Context = texts[i]
	}
	return err
}

// PartContexts returns each part's context, the start of its neighbours:
// the same window the index's context column holds. A part is known by
// its ID, SessionID and PartSeq, as a search gives them.
func (db *DB) PartContexts(ctx context.Context, _ memory.AccountID, parts []memory.Match) ([]string, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	win := contextWindow
	var sb strings.Builder
	args := []any{contextChars}
	sb.WriteString(`SELECT p.session_id, p.seq, substr(p.text, 1, ?) FROM parts p WHERE `)
	for i, c := range parts {
		if i > 0 {
			sb.WriteString(" OR ")
		}
		sb.WriteString(`(p.session_id = ? AND p.seq BETWEEN ? AND ? AND p.id <> ?)`)
		args = append(args, c.SessionID, c.PartSeq-win, c.PartSeq+win, c.ID)
	}
	rows, err := db.read.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read parts' neighbours", err)
	}
	defer rows.Close()
	nb := memory.Neighbours{}
	for rows.Next() {
		var k memory.NeighbourKey
		var t string
		if err := rows.Scan(&k.Session, &k.Seq, &t); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read parts' neighbours", err)
		}
		nb[k] = t
	}
	if err := rows.Err(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read parts' neighbours", err)
	}
	return nb.Contexts(parts, win), nil
}

// filtersHits reports whether a search leaves out a session or a time
// range: rows the index matched that the read must then drop.
func filtersHits(q memory.SearchQuery) bool {
	return q.ExcludeSession != 0 || !q.Since.IsZero() || !q.Until.IsZero()
}

// sessionAndTime narrows a layer's rows to the query's time window and
// leaves out its excluded session.
func sessionAndTime(sb *strings.Builder, args *[]any, q memory.SearchQuery, sessionCol, timeCol string) {
	if q.ExcludeSession != 0 {
		sb.WriteString(` AND ` + sessionCol + ` <> ?`)
		*args = append(*args, q.ExcludeSession)
	}
	if !q.Since.IsZero() {
		sb.WriteString(` AND ` + timeCol + ` >= ?`)
		*args = append(*args, millis(q.Since))
	}
	if !q.Until.IsZero() {
		sb.WriteString(` AND ` + timeCol + ` < ?`)
		*args = append(*args, millis(q.Until))
	}
}

// statementFilter is where a statement (alias s) may be found: tiered
// rows unless the query takes untiered ones, in the query's sight, valid
// within its time window.
func statementFilter(sb *strings.Builder, args *[]any, q memory.SearchQuery) {
	if !q.Untiered {
		sb.WriteString(` AND s.tier <> ''`)
	}
	see := memory.SightOf(q.Place, memory.RungEverywhere)
	if q.Strict {
		see = memory.Sight{Scopes: []memory.Scope{q.Place.ScopeAt(q.Rung)}}
	}
	sightFilter(sb, args, &see)
	if !q.Since.IsZero() {
		sb.WriteString(` AND s.valid_at >= ?`)
		*args = append(*args, millis(q.Since))
	}
	if !q.Until.IsZero() {
		sb.WriteString(` AND s.valid_at < ?`)
		*args = append(*args, millis(q.Until))
	}
}

// episodeFilter is where an episode may be found: an episode belongs to a
// project, so a worktree search reads its project; then the query's
// session and time window.
func episodeFilter(sb *strings.Builder, args *[]any, q memory.SearchQuery) {
	rung := q.Rung
	if !rung.Wider(memory.RungWorktree) {
		rung = memory.RungProject
	}
	placeFilter(sb, args, q.Place, rung, "e.worktree", "e.project", "e.repo")
	sessionAndTime(sb, args, q, "e.session_id", "e.at")
}

// placeFilter restricts a query to what a read at place p up to rung r
// sees. L0 and L2 rows live in sessions, whose place columns are given.
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

// dfWindow and dfCap bound the work of estimating how common a term is:
// counted over the newest dfWindow documents, and never past dfCap
// matches (5%). A term that common is common; its exact count decides
// nothing. A store bigger than the window is sampled over its newest
// dfSample documents at the same 5%: counting is a few microseconds a
// match, and twelve common terms at 1,000 each cost a search 3–5 ms.
const (
	dfWindow = 20000
	dfCap    = 1000
	dfSample = 4000
)

// TermStats estimates, over the newest documents of a layer, how many
// hold each term.
func (db *DB) TermStats(ctx context.Context, _ memory.AccountID, layer memory.Layer, terms []string) (memory.TermStats, error) {
	st := memory.TermStats{DF: map[string]int{}}
	fts, ok := ftsTable[layer]
	if !ok || layer != memory.L0 {
		return st, nil
	}
	var docs int
	if err := db.read.QueryRowContext(ctx, `SELECT docs FROM fts_docs WHERE layer = ?`, string(layer)).Scan(&docs); err != nil {
		return st, memory.Wrap(memory.CodeInternal, "read index size", err)
	}
	window, limit := dfWindow, dfCap
	if docs > dfWindow {
		window, limit = dfSample, dfCap*dfSample/dfWindow
	}
	st.Docs, st.Total, st.Cap = min(docs, window), docs, limit
	if len(terms) == 0 || docs == 0 {
		return st, nil
	}
	var top int64
	if err := db.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM parts`).Scan(&top); err != nil {
		return st, memory.Wrap(memory.CodeInternal, "read index size", err)
	}
	q := `SELECT COUNT(*) FROM (SELECT 1 FROM ` + fts + ` WHERE ` + fts + ` MATCH ? AND rowid > ? LIMIT ?)`
	for _, t := range terms {
		expr := matchExpr([]string{t})
		if expr == "" {
			continue
		}
		k := dfKey{fts: fts, term: t, window: window}
		n, ok := db.dfs.get(k, top, int64(st.Docs/20))
		if !ok {
			if err := db.read.QueryRowContext(ctx, q, "{body context} : "+expr, top-int64(window), limit).Scan(&n); err != nil {
				return st, memory.Wrap(memory.CodeInternal, "read term statistics", err)
			}
			db.dfs.put(k, top, n)
		}
		st.DF[t] = n
		if n == 0 && docs > window {
			older, err := db.heldBefore(ctx, fts, t, expr, top, top-int64(window), int64(st.Docs/20))
			if err != nil {
				return st, err
			}
			if older {
				if st.Older == nil {
					st.Older = map[string]bool{}
				}
				st.Older[t] = true
			}
		}
	}
	return st, nil
}

// heldBefore says whether a term the sampled window lacks is held by an
// older document: one seek into its postings, kept like a count.
func (db *DB) heldBefore(ctx context.Context, fts, term, expr string, top, below, stale int64) (bool, error) {
	k := dfKey{fts: fts, term: term, window: -1}
	n, ok := db.dfs.get(k, top, stale)
	if !ok {
		q := `SELECT COUNT(*) FROM (SELECT 1 FROM ` + fts + ` WHERE ` + fts + ` MATCH ? AND rowid <= ? LIMIT 1)`
		if err := db.read.QueryRowContext(ctx, q, "{body context} : "+expr, below).Scan(&n); err != nil {
			return false, memory.Wrap(memory.CodeInternal, "read term statistics", err)
		}
		db.dfs.put(k, top, n)
	}
	return n > 0, nil
}

// statementsWeights weigh a statement's own words against its class and
// category.
const (
	statementsBodyWeight    = 1.0
	statementsContextWeight = 0.3
)

// searchStatements finds current statements in sight of the query's place:
// every rung of the ladder by default (a read returns the rows whose place
// contains it), or one rung with Strict.
func (db *DB) searchStatements(ctx context.Context, acct memory.AccountID, q memory.SearchQuery) ([]memory.Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	var sb strings.Builder
	args := []any{statementsBodyWeight, statementsContextWeight, derivedMatch(q), int64(acct)}
	sb.WriteString(`SELECT -` + rankFunction + `(statements_fts, 'statements', ?, ?) AS score, ` + prefixed("s.", statementCols) + `
		FROM statements_fts JOIN statements s ON s.id = statements_fts.rowid
		WHERE statements_fts MATCH ? AND s.account_id = ? AND s.expired_at = 0 AND s.invalid_at = 0`)
	statementFilter(&sb, &args, q)
	sb.WriteString(` ORDER BY score DESC, s.id DESC LIMIT ?`)
	args = append(args, limit)
	rows, err := db.read.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search statements", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		var r statementRow
		var score float64
		if err := rows.Scan(append([]any{&score}, r.dest()...)...); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "search statements", err)
		}
		st := r.finish()
		out = append(out, memory.Match{
			Layer: memory.L1, ID: st.ID, BM25: score, Text: statementBody(st), Confidence: st.Confidence,
			Pinned: st.Pinned, Time: st.ValidAt, Statement: &st,
		})
	}
	return out, rows.Err()
}

// prefixed qualifies a column list with a table alias.
func prefixed(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = alias + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

// searchEpisodes finds active episodes of the query's project (an episode
// belongs to its project, so a read never narrows below it), leaving out
// the current session's.
func (db *DB) searchEpisodes(ctx context.Context, acct memory.AccountID, q memory.SearchQuery) ([]memory.Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	ranges, err := db.episodeRanges(ctx, acct, q)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search episodes", err)
	}
	if ranges != nil && len(ranges) == 0 {
		return nil, nil // no episode was ever written at this place
	}
	// Only the rowid ranges of the query's places are matched and ranked
	// (the rank still weighs each phrase by its rows in the whole index).
	var sb strings.Builder
	var args []any
	match := derivedMatch(q)
	sb.WriteString(`WITH hits AS (`)
	arm := func() {
		sb.WriteString(`SELECT rowid & ? AS id, -` + rankFunction + `(episodes_fts, 'episodes', 1.0, 0.3) AS score FROM episodes_fts WHERE episodes_fts MATCH ?`)
		args = append(args, int64(1)<<episodeIDBits-1, match)
	}
	if ranges == nil {
		arm()
	}
	for i, r := range ranges {
		if i > 0 {
			sb.WriteString(` UNION ALL `)
		}
		arm()
		sb.WriteString(` AND rowid >= ? AND rowid <= ?`)
		args = append(args, r[0], r[1])
	}
	sb.WriteString(`)`)
	if ranges != nil && q.Since.IsZero() && q.Until.IsZero() {
		out, ok, err := db.topEpisodes(ctx, acct, q, sb.String(), args, limit)
		if err != nil || ok {
			return out, err
		}
	}
	// The matches are filtered through the episodes_sight index alone;
	// only the best are read whole.
	sb.WriteString(`, best AS (
			SELECT hits.id, hits.score FROM hits JOIN episodes e INDEXED BY episodes_sight ON e.id = hits.id
			WHERE e.account_id = ? AND e.expired_at = 0`)
	args = append(args, int64(acct))
	episodeFilter(&sb, &args, q)
	sb.WriteString(` ORDER BY hits.score DESC, hits.id DESC LIMIT ?)
		SELECT best.score, ` + episodeCols + ` FROM best JOIN episodes e ON e.id = best.id
		JOIN sessions s ON s.id = e.session_id JOIN turns t ON t.id = e.turn_id
		ORDER BY best.score DESC, e.id DESC`)
	args = append(args, limit)
	return scanEpisodeMatches(ctx, db.read, sb.String(), args...)
}

// topEpisodes ranks a place's matches (hits, a WITH clause) and reads
// only the best few whole, filtering them then. Every match of a place's
// rowid range is in its project, every one is active (the index holds
// active episodes only, migration 0021), and few are the current
// session's, so the filter is asked of the best limit + topEpisodesSlack
// rather than of every match: the same rows in the same order, since a
// prefix of the ranked matches holding limit rows that pass holds the
// first limit that pass. ok is false when the prefix holds fewer, and the
// caller filters every match.
func (db *DB) topEpisodes(ctx context.Context, acct memory.AccountID, q memory.SearchQuery, hits string, args []any, limit int) ([]memory.Match, bool, error) {
	window := limit + topEpisodesSlack
	rows, err := db.read.QueryContext(ctx, hits+` SELECT id, score FROM hits ORDER BY score DESC, id DESC LIMIT ?`, append(args, window)...)
	if err != nil {
		return nil, false, memory.Wrap(memory.CodeInternal, "search episodes", err)
	}
	score := map[int64]float64{}
	var ids []any
	for rows.Next() {
		var id int64
		var s float64
		if err := rows.Scan(&id, &s); err != nil {
			rows.Close()
			return nil, false, memory.Wrap(memory.CodeInternal, "search episodes", err)
		}
		score[id] = s
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return nil, false, memory.Wrap(memory.CodeInternal, "search episodes", err)
	}
	if len(ids) == 0 {
		return nil, true, nil
	}
	// The list is padded to the window (with an id already in it), so
	// the query is one text, prepared once. NOT INDEXED keeps the lookups
	// by id: for a long list SQLite would rather walk the project's index.
	n := len(ids)
	for len(ids) < window {
		ids = append(ids, ids[0])
	}
	var sb strings.Builder
	sb.WriteString(`SELECT 0.0, ` + episodeCols + ` FROM episodes e NOT INDEXED JOIN sessions s ON s.id = e.session_id JOIN turns t ON t.id = e.turn_id
		WHERE e.id IN (?` + strings.Repeat(",?", window-1) + `) AND e.account_id = ? AND e.expired_at = 0`)
	fargs := append(ids, int64(acct))
	episodeFilter(&sb, &fargs, q)
	out, err := scanEpisodeMatches(ctx, db.read, sb.String(), fargs...)
	if err != nil {
		return nil, false, err
	}
	if len(out) < limit && n == window {
		return nil, false, nil
	}
	for i := range out {
		out[i].BM25 = score[out[i].ID]
	}
	slices.SortFunc(out, func(a, b memory.Match) int {
		if c := cmp.Compare(b.BM25, a.BM25); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out[:min(len(out), limit)], true, nil
}

// topEpisodesSlack is how many ranked matches beyond the rows asked for
// topEpisodes filters before it falls back to filtering them all: room
// for a few of the current session's episodes.
const topEpisodesSlack = 16

// scanEpisodeMatches reads episodes as matches, each row led by its score.
func scanEpisodeMatches(ctx context.Context, q querier, query string, args ...any) ([]memory.Match, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search episodes", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		var e memory.Episode
		var score float64
		var tools, files, status, reason string
		var at, created, expired, pinned int64
		if err := rows.Scan(&score, &e.ID, &e.SessionID, &e.SessionRef, &e.TurnID, &e.TurnSeq, &e.TurnKey, &e.Place.Worktree, &e.Place.Project,
			&e.Place.Repo, &e.Request, &e.Outcome, &e.Summary, &tools, &files, &status, &e.FirstPart, &e.LastPart, &at, &created,
			&e.Confidence, &pinned, &expired, &reason, &e.UsageCount); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "search episodes", err)
		}
		out = append(out, memory.Match{
			Layer: memory.L2, ID: e.ID, BM25: score, Text: e.Summary, Context: strings.Join(strings.Fields(files+" "+tools), " "),
			Confidence: e.Confidence, Pinned: pinned != 0, Time: fromMillis(at), SessionID: e.SessionID, SessionRef: e.SessionRef,
			TurnID: e.TurnID, TurnKey: e.TurnKey, TurnSeq: e.TurnSeq, PartSeq: e.FirstPart, Worktree: e.Place.Worktree,
		})
	}
	if err := rows.Err(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search episodes", err)
	}
	return out, nil
}

// maxEpisodeRanges bounds the rowid ranges a search of episodes reads
// one by one: each is its own FTS5 cursor, which counts every query term's
// rows in the whole index again for bm25. A read of more places than this
// matches the whole index once and filters.
const maxEpisodeRanges = 4

// episodeRanges are the episodes_fts rowid ranges of the places a search
// of episodes sees, as episodeFilter selects them (an episode belongs to
// its project; a read of a repo sees its project too): one range per
// numbered place. Nil means the whole index: a read of everywhere, or of
// more places than maxEpisodeRanges; empty means no episode at all.
func (db *DB) episodeRanges(ctx context.Context, acct memory.AccountID, q memory.SearchQuery) ([][2]int64, error) {
	q2 := `SELECT id FROM episode_places WHERE account_id = ? AND project = ? ORDER BY id`
	args := []any{int64(acct), q.Place.Project}
	switch {
	case q.Rung == memory.RungEverywhere:
		return nil, nil
	case q.Rung == memory.RungRepo && q.Place.Repo != "":
		q2 = `SELECT id FROM episode_places WHERE account_id = ? AND (repo = ? OR project = ?) ORDER BY id`
		args = []any{int64(acct), q.Place.Repo, q.Place.Project}
	}
	rows, err := db.read.QueryContext(ctx, q2, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := [][2]int64{}
	for rows.Next() {
		var place int64
		if err := rows.Scan(&place); err != nil {
			return nil, err
		}
		if len(out) == maxEpisodeRanges {
			return nil, rows.Close()
		}
		out = append(out, [2]int64{episodeRowid(place, 0), episodeRowid(place+1, 0) - 1})
	}
	return out, rows.Err()
}

// searchProfile matches the account's profile.
func (db *DB) searchProfile(ctx context.Context, acct memory.AccountID, q memory.SearchQuery) ([]memory.Match, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT p.id, -bm25(profiles_fts), p.body, p.built_at FROM profiles_fts
		JOIN profiles p ON p.id = profiles_fts.rowid WHERE profiles_fts MATCH ? AND p.account_id = ? LIMIT 1`,
		matchExpr(q.Terms), int64(acct))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "search profile", err)
	}
	defer rows.Close()
	var out []memory.Match
	for rows.Next() {
		m := memory.Match{Layer: memory.L3, Confidence: 1}
		var built int64
		if err := rows.Scan(&m.ID, &m.BM25, &m.Text, &built); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "search profile", err)
		}
		m.Time = fromMillis(built)
		out = append(out, m)
	}
	return out, rows.Err()
}

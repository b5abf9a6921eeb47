package postgres

import (
	"context"
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
	"github.com/cairn-memory/cairn/internal/text"
)

const statementCols = `id, account_id, kind, subject, predicate, object, class, category, cardinality, tier, writer,
	place_rung, place_key, confidence, pinned, valid_at, invalid_at, created_at, expired_at, reason, replaced_by,
	usage_count, last_used_at`

type statementRow struct {
	s                                                        memory.Statement
	acct, pinned, valid, invalid, created, expired, lastUsed int64
	kind, class, card, tier, writer, rung, reason            string
}

func (r *statementRow) dest() []any {
	s := &r.s
	return []any{&s.ID, &r.acct, &r.kind, &s.Subject, &s.Predicate, &s.Object, &r.class, &s.Category, &r.card, &r.tier, &r.writer,
		&r.rung, &s.Scope.Key, &s.Confidence, &r.pinned, &r.valid, &r.invalid, &r.created, &r.expired, &r.reason, &s.ReplacedBy,
		&s.UsageCount, &r.lastUsed}
}

func (r *statementRow) finish() memory.Statement {
	s := r.s
	s.Account, s.Kind, s.Class, s.Cardinality = memory.AccountID(r.acct), memory.Kind(r.kind), memory.Class(r.class), memory.Cardinality(r.card)
	s.Tier, s.Writer, s.Scope.Rung, s.Reason = memory.Tier(r.tier), memory.Writer(r.writer), memory.Rung(r.rung), memory.Reason(r.reason)
	s.Pinned = r.pinned != 0
	s.ValidAt, s.InvalidAt, s.CreatedAt, s.ExpiredAt, s.LastUsedAt = fromMillis(r.valid), fromMillis(r.invalid), fromMillis(r.created), fromMillis(r.expired), fromMillis(r.lastUsed)
	return s
}

func scanStatements(ctx context.Context, tx *Tx, q string, args ...any) ([]memory.Statement, error) {
	rows, err := tx.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memory.Statement
	for rows.Next() {
		var r statementRow
		if err := rows.Scan(r.dest()...); err != nil {
			return nil, err
		}
		out = append(out, r.finish())
	}
	return out, rows.Err()
}

func slotOf(s memory.Statement) string {
	if s.Kind == memory.KindNote {
		return ""
	}
	return memory.SlotKey(s.Slot())
}

// statementBody is what the index reads of a statement.
func statementBody(s memory.Statement) string {
	return strings.TrimSpace(s.Subject + " " + s.Predicate + " " + s.Object)
}

// ApplyStatements applies proposals in order in one write transaction.
func (db *DB) ApplyStatements(ctx context.Context, acct memory.AccountID, ps []temporal.Proposal) ([]temporal.Applied, error) {
	var out []temporal.Applied
	err := db.update(ctx, acct, func(tx *Tx) error {
		out = out[:0]
		for _, p := range ps {
			row, action, err := applyTx(ctx, tx, p)
			if err != nil {
				return err
			}
			if p.Candidate != 0 {
				if _, err := tx.exec(ctx, `UPDATE candidates SET status = 'promoted', statement_id = ? WHERE id = ? AND account_id = ?`,
					row.ID, p.Candidate, int64(acct)); err != nil {
					return err
				}
			}
			out = append(out, temporal.Applied{Statement: row, Action: action})
		}
		return nil
	})
	if err != nil {
		return nil, wrap("write statements", err)
	}
	return out, nil
}

func applyTx(ctx context.Context, tx *Tx, p temporal.Proposal) (memory.Statement, temporal.Action, error) {
	st := p.Statement
	acct := int64(tx.acct)
	var rows []memory.Statement
	var err error
	switch {
	case st.Kind == memory.KindNote:
		rows, err = similarNotes(ctx, tx, st.Object)
	case st.Cardinality == memory.Many:
		rows, err = scanStatements(ctx, tx, `SELECT `+statementCols+` FROM statements
			WHERE account_id = ? AND slot = ? AND expired_at = 0 AND invalid_at = 0 AND (object = ? OR id IN (
				SELECT id FROM statements WHERE account_id = ? AND slot = ? AND expired_at = 0 AND invalid_at = 0 ORDER BY id DESC LIMIT 32))
			ORDER BY id`, acct, slotOf(st), st.Object, acct, slotOf(st))
	default:
		rows, err = scanStatements(ctx, tx, `SELECT `+statementCols+` FROM statements
			WHERE account_id = ? AND slot = ? AND reason <> 'revised' AND (expired_at = 0 OR invalid_at > ?) ORDER BY id`,
			acct, slotOf(st), millis(st.ValidAt))
	}
	if err != nil {
		return st, 0, err
	}
	var slot []memory.Statement
	for _, r := range rows {
		if p.Sight.Sees(r.Scope) {
			slot = append(slot, r)
		}
	}
	plan := p.Decide(slot)
	if plan.Action == temporal.Restate {
		if err := restate(ctx, tx, plan.Restate, st); err != nil {
			return st, 0, err
		}
		row, err := loadStatement(ctx, tx, plan.Restate)
		return row, plan.Action, err
	}
	row := plan.Row
	row.CreatedAt = tx.Now
	if plan.Action == temporal.InsertLate {
		row.ExpiredAt, row.Reason = tx.Now, memory.ReasonSuperseded
	}
	id, err := insertStatement(ctx, tx, row, 0)
	if err != nil {
		return st, 0, err
	}
	row.ID = id
	for _, c := range plan.Close {
		if _, err := tx.exec(ctx, `UPDATE statements SET invalid_at = ?, expired_at = ?, reason = ?, replaced_by = ?
			WHERE id = ? AND account_id = ? AND expired_at = 0`,
			millis(c.InvalidAt), millis(tx.Now), string(c.Reason), id, c.ID, acct); err != nil {
			return st, 0, err
		}
	}
	for _, rv := range plan.Revise {
		if err := revise(ctx, tx, rv, id); err != nil {
			return st, 0, err
		}
	}
	return row, plan.Action, nil
}

// similarNotes finds current notes sharing words with a new note, best
// first by bm25 (both columns weighing 1, as FTS5's default).
func similarNotes(ctx context.Context, tx *Tx, object string) ([]memory.Statement, error) {
	phrases := queryTerms(text.QueryTerms(object, 12, nil))
	match := anyQuery(phrases, "AB")
	if match == "" {
		return nil, nil
	}
	m, err := layerStats(ctx, tx, memory.L1, "statements", phrases, "AB")
	if err != nil {
		return nil, err
	}
	hits, err := rankRows(ctx, tx, m, phrases, 1, 1, `SELECT s.id, s.fts_len, `+strings.Replace(lexInfo, "%s", "s", 1)+`
		FROM statements s WHERE s.fts @@ ?::tsquery AND s.account_id = ? AND s.kind = 'note' AND s.expired_at = 0`,
		[]any{lexemes(phrases), match, int64(tx.acct)}, nil)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	hits = hits[:min(20, len(hits))]
	ids := hitIDs(hits)
	rows, err := scanStatements(ctx, tx, `SELECT `+statementCols+` FROM statements WHERE account_id = ? AND id = ANY(?)`, int64(tx.acct), ids)
	if err != nil {
		return nil, err
	}
	pos := map[int64]int{}
	for i, id := range ids {
		pos[id] = i
	}
	sort.Slice(rows, func(i, j int) bool { return pos[rows[i].ID] < pos[rows[j].ID] })
	return rows, nil
}

// insertStatement writes a row, its evidence and its index entry.
func insertStatement(ctx context.Context, tx *Tx, s memory.Statement, revises int64) (int64, error) {
	d := newDoc(column{ftsTokens(statementBody(s)), 'A'}, column{ftsTokens(string(s.Class) + " " + s.Category), 'B'})
	var id int64
	err := tx.row(ctx, `INSERT INTO statements (account_id, kind, subject, predicate, object, slot, class, category,
		cardinality, tier, writer, place_rung, place_key, confidence, pinned, valid_at, invalid_at, created_at, expired_at, reason,
		replaced_by, revises, fts, fts_len)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::tsvector, ?) RETURNING id`,
		int64(tx.acct), string(s.Kind), s.Subject, s.Predicate, s.Object, slotOf(s), string(s.Class), s.Category,
		string(s.Cardinality), string(s.Tier), string(s.Writer), string(s.Scope.Rung), s.Scope.Key, s.Confidence, boolInt(s.Pinned),
		millis(s.ValidAt), millis(s.InvalidAt), millis(s.CreatedAt), millis(s.ExpiredAt), string(s.Reason), s.ReplacedBy, revises,
		d.vector, d.size).Scan(&id)
	if err != nil {
		return 0, err
	}
	for _, e := range s.Evidence {
		if err := addEvidence(ctx, tx, id, e); err != nil {
			return 0, err
		}
	}
	return id, nil
}

func addEvidence(ctx context.Context, tx *Tx, id int64, e memory.Evidence) error {
	if e == (memory.Evidence{}) {
		return nil
	}
	_, err := tx.exec(ctx, `INSERT INTO evidence (account_id, statement_id, session_id, turn_id, part_seq, source, quote, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, int64(tx.acct), id, e.SessionID, e.TurnID, e.PartSeq, e.Source, e.Quote, millis(tx.Now))
	return err
}

func restate(ctx context.Context, tx *Tx, id int64, st memory.Statement) error {
	for _, e := range st.Evidence {
		if err := addEvidence(ctx, tx, id, e); err != nil {
			return err
		}
	}
	_, err := tx.exec(ctx, `UPDATE statements SET confidence = LEAST(1.0, confidence + (1.0 - confidence) * 0.25),
		pinned = GREATEST(pinned, ?) WHERE id = ? AND account_id = ?`, boolInt(st.Pinned), id, int64(tx.acct))
	return err
}

// revise re-windows a row cut short by a late arrival: expired as revised
// and out of the index, with a copy holding the shorter window.
func revise(ctx context.Context, tx *Tx, rv temporal.Revision, by int64) error {
	old, err := loadStatement(ctx, tx, rv.ID)
	if err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `UPDATE statements SET expired_at = ?, reason = ?, replaced_by = ?, fts = NULL, fts_len = 0
		WHERE id = ? AND account_id = ?`, millis(tx.Now), string(memory.ReasonRevised), by, rv.ID, int64(tx.acct)); err != nil {
		return err
	}
	if !rv.NewInvalidAt.After(old.ValidAt) {
		return nil
	}
	cp := old
	cp.InvalidAt, cp.CreatedAt, cp.ExpiredAt, cp.Reason, cp.ReplacedBy = rv.NewInvalidAt, tx.Now, tx.Now, memory.ReasonSuperseded, by
	_, err = insertStatement(ctx, tx, cp, rv.ID)
	return err
}

func loadStatement(ctx context.Context, tx *Tx, id int64) (memory.Statement, error) {
	rows, err := scanStatements(ctx, tx, `SELECT `+statementCols+` FROM statements WHERE id = ? AND account_id = ?`, id, int64(tx.acct))
	if err != nil {
		return memory.Statement{}, err
	}
	if len(rows) == 0 {
		return memory.Statement{}, memory.Errorf(memory.CodeNotFound, "no statement %d; `cairn fact query` and `cairn notes` list them", id)
	}
	s := rows[0]
	s.Evidence, err = loadEvidence(ctx, tx, id)
	return s, err
}

func loadEvidence(ctx context.Context, tx *Tx, id int64) ([]memory.Evidence, error) {
	by, err := evidenceOf(ctx, tx, []int64{id})
	return by[id], err
}

// evidenceOf reads the evidence of many statements in one query (a query
// per row cost a standing block most of its time), each row's in the
// order it was added.
func evidenceOf(ctx context.Context, tx *Tx, ids []int64) (map[int64][]memory.Evidence, error) {
	rows, err := tx.query(ctx, `SELECT e.statement_id, e.session_id, COALESCE(s.external_id, ''), e.turn_id, COALESCE(t.seq, 0), COALESCE(t.key, ''),
			e.part_seq, e.source, e.quote
		FROM evidence e LEFT JOIN sessions s ON s.id = e.session_id AND s.account_id = e.account_id
		LEFT JOIN turns t ON t.id = e.turn_id AND t.account_id = e.account_id
		WHERE e.statement_id = ANY(?) AND e.account_id = ? ORDER BY e.id`, ids, int64(tx.acct))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]memory.Evidence{}
	for rows.Next() {
		var id int64
		var e memory.Evidence
		if err := rows.Scan(&id, &e.SessionID, &e.SessionRef, &e.TurnID, &e.TurnSeq, &e.TurnKey, &e.PartSeq, &e.Source, &e.Quote); err != nil {
			return nil, err
		}
		out[id] = append(out[id], e)
	}
	return out, rows.Err()
}

// Statement returns one row with its evidence.
func (db *DB) Statement(ctx context.Context, acct memory.AccountID, id int64) (memory.Statement, error) {
	var s memory.Statement
	err := db.view(ctx, acct, func(tx *Tx) error {
		var err error
		s, err = loadStatement(ctx, tx, id)
		return err
	})
	return s, wrap("read statement", err)
}

// Statements returns the rows a filter selects, oldest first.
func (db *DB) Statements(ctx context.Context, acct memory.AccountID, f memory.StatementFilter) ([]memory.Statement, error) {
	var sb strings.Builder
	args := []any{int64(acct)}
	sb.WriteString(`SELECT ` + statementCols + ` FROM statements WHERE account_id = ?`)
	if len(f.IDs) > 0 {
		sb.WriteString(` AND id = ANY(?)`)
		args = append(args, f.IDs)
	}
	if len(f.Kinds) > 0 {
		ks := make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			ks[i] = string(k)
		}
		sb.WriteString(` AND kind = ANY(?)`)
		args = append(args, ks)
	}
	switch {
	case temporal.AreSessionStatePredicates(f.Predicates):
		sb.WriteString(` AND predicate IN ` + sessionStateIn) // migration 0005's indexes
	case len(f.Predicates) > 0:
		sb.WriteString(` AND predicate = ANY(?)`)
		args = append(args, f.Predicates)
	}
	if len(f.Slots) > 0 {
		keys := make([]string, len(f.Slots))
		for i, s := range f.Slots {
			keys[i] = memory.SlotKey(s)
		}
		sb.WriteString(` AND slot = ANY(?)`)
		args = append(args, keys)
	}
	if f.Current {
		sb.WriteString(` AND expired_at = 0 AND invalid_at = 0`)
	}
	if f.Live {
		sb.WriteString(` AND reason NOT IN ('retracted', 'forgotten', 'held_back', 'reopened', 'revised')`)
	}
	if f.Closed {
		sb.WriteString(` AND invalid_at <> 0`)
	}
	if f.Pinned {
		sb.WriteString(` AND pinned = 1`)
	}
	if f.Rules {
		// Literal, so that SQLite sees the partial index statements_rules
		// (migration 0018) answers it.
		sb.WriteString(` AND kind = 'note' AND tier <> '' AND (pinned = 1 OR (tier = 'asserted' AND class IN ('preference', 'convention')))`)
	}
	if !f.ExpiredSince.IsZero() {
		sb.WriteString(` AND expired_at >= ?`)
		args = append(args, millis(f.ExpiredSince))
	}
	if f.Reason != "" {
		sb.WriteString(` AND reason = ?`)
		args = append(args, string(f.Reason))
	}
	if f.Session != 0 {
		sb.WriteString(` AND id IN (SELECT statement_id FROM evidence WHERE account_id = ? AND session_id = ?)`)
		args = append(args, int64(acct), f.Session)
	}
	sightFilter(&sb, &args, f.Sight, "")
	if f.ByExpiry {
		sb.WriteString(` ORDER BY expired_at DESC, id DESC`)
	} else if f.ByInvalid {
		sb.WriteString(` ORDER BY invalid_at DESC, id DESC`)
	} else if f.Rules {
		sb.WriteString(` ORDER BY pinned DESC, confidence DESC, id`)
	} else {
		sb.WriteString(` ORDER BY id`)
	}
	if f.Limit > 0 {
		sb.WriteString(` LIMIT ?`)
		args = append(args, f.Limit)
	}
	var out []memory.Statement
	err := db.view(ctx, acct, func(tx *Tx) error {
		var err error
		if out, err = scanStatements(ctx, tx, sb.String(), args...); err != nil {
			return err
		}
		if f.Evidence && len(out) > 0 {
			ids := make([]int64, len(out))
			for i := range out {
				ids[i] = out[i].ID
			}
			by, err := evidenceOf(ctx, tx, ids)
			if err != nil {
				return err
			}
			for i := range out {
				out[i].Evidence = by[out[i].ID]
			}
		}
		return nil
	})
	return out, wrap("read statements", err)
}

// sightFilter keeps rows in sight: unplaced ones and those placed at one
// of the given scopes.
func sightFilter(sb *strings.Builder, args *[]any, see *memory.Sight, alias string) {
	if see == nil || see.All {
		return
	}
	sb.WriteString(` AND (` + alias + `place_rung = ''`)
	for _, s := range see.Scopes {
		sb.WriteString(` OR (` + alias + `place_rung = ? AND ` + alias + `place_key = ?)`)
		*args = append(*args, string(s.Rung), s.Key)
	}
	sb.WriteString(`)`)
}

// PredicateCounts counts how often each fact predicate is used by live rows.
func (db *DB) PredicateCounts(ctx context.Context, acct memory.AccountID) (map[string]int, error) {
	out := map[string]int{}
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT predicate, COUNT(*) FROM statements
			WHERE account_id = ? AND kind = 'fact' AND predicate <> '' AND reason NOT IN ('retracted', 'forgotten', 'revised')
			GROUP BY predicate`, int64(acct))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p string
			var n int
			if err := rows.Scan(&p, &n); err != nil {
				return err
			}
			out[p] = n
		}
		return rows.Err()
	})
	return out, wrap("count predicates", err)
}

// searchStatements finds current statements in sight of the query's place.
func searchStatements(ctx context.Context, tx *Tx, q memory.SearchQuery) ([]memory.Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	phrases, match := derivedMatch(q)
	m, err := layerStats(ctx, tx, memory.L1, "statements", phrases, "AB")
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	args := []any{lexemes(phrases), match, int64(tx.acct)}
	sb.WriteString(`SELECT s.id, s.fts_len, ` + strings.Replace(lexInfo, "%s", "s", 1) + `
		FROM statements s WHERE s.fts @@ ?::tsquery AND s.account_id = ? AND s.expired_at = 0 AND s.invalid_at = 0`)
	if !q.Untiered {
		sb.WriteString(` AND s.tier <> ''`)
	}
	see := memory.SightOf(q.Place, memory.RungEverywhere)
	if q.Strict {
		see = memory.Sight{Scopes: []memory.Scope{q.Place.ScopeAt(q.Rung)}}
	}
	sightFilter(&sb, &args, &see, "s.")
	timeWindow(&sb, &args, q, "s.valid_at")
	hits, err := rankRows(ctx, tx, m, phrases, statementsBodyWeight, statementsContextWeight, sb.String(), args, nil)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	hits = hits[:min(limit, len(hits))]
	ids := hitIDs(hits)
	rows, err := scanStatements(ctx, tx, `SELECT `+statementCols+` FROM statements WHERE account_id = ? AND id = ANY(?)`, int64(tx.acct), ids)
	if err != nil {
		return nil, err
	}
	byID := map[int64]memory.Statement{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	var out []memory.Match
	for _, h := range hits {
		st, ok := byID[h.id]
		if !ok {
			continue
		}
		out = append(out, memory.Match{
			Layer: memory.L1, ID: st.ID, BM25: h.score, Text: statementBody(st), Confidence: st.Confidence,
			Pinned: st.Pinned, Time: st.ValidAt, Statement: &st,
		})
	}
	return out, nil
}

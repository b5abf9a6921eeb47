package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
	"github.com/cairn-memory/cairn/internal/text"
)

const statementCols = `id, account_id, kind, subject, predicate, object, class, category, cardinality, tier, writer,
	place_rung, place_key, confidence, pinned, valid_at, invalid_at, created_at, expired_at, reason, replaced_by,
	usage_count, last_used_at`

// statementRow scans a statement and converts its stored shapes.
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

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// queryIDs runs a query whose rows are one integer each.
func queryIDs(ctx context.Context, db querier, q string, args ...any) ([]int64, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// cached runs a transaction's queries through its prepared-statement cache.
type cached struct{ tx *Tx }

func (c cached) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return c.tx.query(ctx, q, args...)
}

func scanStatements(ctx context.Context, q querier, query string, args ...any) ([]memory.Statement, error) {
	rows, err := q.QueryContext(ctx, query, args...)
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

// slotOf is the key one-value slots are kept under.
func slotOf(s memory.Statement) string {
	if s.Kind == memory.KindNote {
		return ""
	}
	return memory.SlotKey(s.Slot())
}

// ApplyStatement is the store's half of the one write point: in one write
// transaction it loads the rows of the statement's slot that the writer
// can see, asks decide what to do, and does it. It returns the row that
// now holds the value (the new row, or the restated one) and the action.
func (db *DB) ApplyStatement(ctx context.Context, acct memory.AccountID, st memory.Statement, see memory.Sight,
	decide func(slot []memory.Statement) temporal.Plan) (memory.Statement, temporal.Action, error) {
	out, err := db.ApplyStatements(ctx, acct, []temporal.Proposal{{Statement: st, Sight: see, Decide: decide}})
	if err != nil {
		return memory.Statement{}, 0, err
	}
	return out[0].Statement, out[0].Action, nil
}

// ApplyStatements applies proposals in order in one write transaction, so
// a maintenance pass promotes all its candidates at once or not at all.
func (db *DB) ApplyStatements(ctx context.Context, acct memory.AccountID, ps []temporal.Proposal) ([]temporal.Applied, error) {
	var out []temporal.Applied
	err := db.Update(ctx, func(tx *Tx) error {
		out = out[:0]
		ix, err := newIndexer(ctx, tx, memory.L1, 2)
		if err != nil {
			return err
		}
		for _, p := range ps {
			row, action, err := applyTx(ctx, tx, ix, acct, p)
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
		return ix.close(ctx)
	})
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "write statements", err)
	}
	return out, nil
}

// SaveCapture writes what capture derived from a session's turns —
// episodes, candidates, and the statements tool rules proposed — in one
// transaction.
func (db *DB) SaveCapture(ctx context.Context, acct memory.AccountID, eps []memory.Episode, cands []memory.CandidateSet, ps []temporal.Proposal) ([]temporal.Applied, error) {
	var out []temporal.Applied
	err := db.Update(ctx, func(tx *Tx) error {
		out = out[:0]
		if len(eps) > 0 {
			ix, err := newIndexer(ctx, tx, memory.L2, 2)
			if err != nil {
				return err
			}
			for _, ep := range eps {
				if _, err := saveEpisodeTx(ctx, tx, ix, acct, ep); err != nil {
					return err
				}
			}
			if err := ix.close(ctx); err != nil {
				return err
			}
		}
		for _, c := range cands {
			if err := addCandidatesTx(ctx, tx, acct, c); err != nil {
				return err
			}
		}
		if len(ps) == 0 {
			return nil
		}
		ix, err := newIndexer(ctx, tx, memory.L1, 2)
		if err != nil {
			return err
		}
		for _, p := range ps {
			row, action, err := applyTx(ctx, tx, ix, acct, p)
			if err != nil {
				return err
			}
			out = append(out, temporal.Applied{Statement: row, Action: action})
		}
		return ix.close(ctx)
	})
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "save capture", err)
	}
	return out, nil
}

// manyValueSlot reads what a write to a many-value slot (events,
// collections) is compared with: a near-copy is the same value or a
// recent one, and such a slot can hold thousands of rows. The exact copy
// is one seek in statements_many_value (the unary + keeps SQLite's
// constant propagation from rewriting the substr term with the value,
// which hides the index: the sqlite3 3.40 shell did); the 32 most recent
// current rows are read backwards through the slot index.
const manyValueSlot = `SELECT ` + statementCols + ` FROM statements WHERE id IN (
	SELECT id FROM statements WHERE account_id = ? AND slot = ? AND cardinality = 'many' AND kind <> 'note'
		AND expired_at = 0 AND invalid_at = 0 AND substr(object, 1, 100) = substr(?, 1, 100) AND +object = ?
	UNION
	SELECT id FROM (SELECT id FROM statements WHERE account_id = ? AND predicate = ? AND slot = ?
		AND expired_at = 0 AND invalid_at = 0 ORDER BY id DESC LIMIT 32)) ORDER BY id`

// applyTx loads what a proposal's decision needs, decides and applies.
func applyTx(ctx context.Context, tx *Tx, ix *indexer, acct memory.AccountID, p temporal.Proposal) (memory.Statement, temporal.Action, error) {
	st := p.Statement
	var rows []memory.Statement
	var err error
	switch {
	case st.Kind == memory.KindNote:
		rows, err = similarNotes(ctx, tx, acct, st.Object)
	case st.Cardinality == memory.Many:
		rows, err = scanStatements(ctx, cached{tx}, manyValueSlot,
			int64(acct), slotOf(st), st.Object, st.Object, int64(acct), st.Predicate, slotOf(st))
	default:
		// The current rows, and the closed windows still open at the new
		// row's valid_at: all a decision needs, since a closed window that
		// ended before it can neither hold nor follow it. The slot is
		// found through its predicate (statements_predicate_slot).
		rows, err = scanStatements(ctx, cached{tx}, `SELECT `+statementCols+` FROM statements
			WHERE account_id = ? AND predicate = ? AND slot = ? AND reason <> 'revised' AND (expired_at = 0 OR invalid_at > ?)`,
			int64(acct), st.Predicate, slotOf(st), millis(st.ValidAt))
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
		if err := restate(ctx, tx, acct, plan.Restate, st); err != nil {
			return st, 0, err
		}
		row, err := loadStatement(ctx, cached{tx}, acct, plan.Restate)
		return row, plan.Action, err
	}
	row := plan.Row
	row.CreatedAt = tx.Now
	if plan.Action == temporal.InsertLate {
		row.ExpiredAt, row.Reason = tx.Now, memory.ReasonSuperseded
	}
	id, err := insertStatement(ctx, tx, ix, acct, row, 0)
	if err != nil {
		return st, 0, err
	}
	row.ID = id
	for _, c := range plan.Close {
		if _, err := tx.exec(ctx, `UPDATE statements SET invalid_at = ?, expired_at = ?, reason = ?, replaced_by = ?
			WHERE id = ? AND account_id = ? AND expired_at = 0`,
			millis(c.InvalidAt), millis(tx.Now), string(c.Reason), id, c.ID, int64(acct)); err != nil {
			return st, 0, err
		}
	}
	for _, rv := range plan.Revise {
		if err := revise(ctx, tx, ix, acct, rv, id); err != nil {
			return st, 0, err
		}
	}
	return row, plan.Action, nil
}

// similarNotes finds current notes sharing words with a new note: the
// candidates for a near-duplicate merge.
func similarNotes(ctx context.Context, tx *Tx, acct memory.AccountID, object string) ([]memory.Statement, error) {
	q := matchExpr(text.QueryTerms(object, 12, nil))
	if q == "" {
		return nil, nil
	}
	return scanStatements(ctx, cached{tx}, `SELECT `+prefixed("s.", statementCols)+` FROM statements_fts
		JOIN statements s ON s.id = statements_fts.rowid
		WHERE statements_fts MATCH ? AND s.account_id = ? AND s.kind = 'note' AND s.expired_at = 0
		ORDER BY bm25(statements_fts) LIMIT 20`, q, int64(acct))
}

// insertStatement writes a row, its evidence and its index entry.
func insertStatement(ctx context.Context, tx *Tx, ix *indexer, acct memory.AccountID, s memory.Statement, revises int64) (int64, error) {
	res, err := tx.exec(ctx, `INSERT INTO statements (account_id, kind, subject, predicate, object, slot, class, category,
		cardinality, tier, writer, place_rung, place_key, confidence, pinned, valid_at, invalid_at, created_at, expired_at, reason,
		replaced_by, revises)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		int64(acct), string(s.Kind), s.Subject, s.Predicate, s.Object, slotOf(s), string(s.Class), s.Category,
		string(s.Cardinality), string(s.Tier), string(s.Writer), string(s.Scope.Rung), s.Scope.Key, s.Confidence, boolInt(s.Pinned),
		millis(s.ValidAt), millis(s.InvalidAt), millis(s.CreatedAt), millis(s.ExpiredAt), string(s.Reason), s.ReplacedBy, revises)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	for _, e := range s.Evidence {
		if err := addEvidence(ctx, tx, acct, id, e); err != nil {
			return 0, err
		}
	}
	return id, ix.add(ctx, id, statementBody(s), string(s.Class)+" "+s.Category)
}

// statementBody is what the index reads of a statement.
func statementBody(s memory.Statement) string {
	return strings.TrimSpace(s.Subject + " " + s.Predicate + " " + s.Object)
}

func addEvidence(ctx context.Context, tx *Tx, acct memory.AccountID, id int64, e memory.Evidence) error {
	if e == (memory.Evidence{}) {
		return nil
	}
	_, err := tx.exec(ctx, `INSERT INTO evidence (account_id, statement_id, session_id, turn_id, part_seq, source, quote, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, int64(acct), id, e.SessionID, e.TurnID, e.PartSeq, e.Source, e.Quote, millis(tx.Now))
	return err
}

// restate reinforces an existing row: its evidence grows and its
// confidence rises towards 1.
func restate(ctx context.Context, tx *Tx, acct memory.AccountID, id int64, st memory.Statement) error {
	for _, e := range st.Evidence {
		if err := addEvidence(ctx, tx, acct, id, e); err != nil {
			return err
		}
	}
	_, err := tx.exec(ctx, `UPDATE statements SET confidence = MIN(1.0, confidence + (1.0 - confidence) * 0.25),
		pinned = MAX(pinned, ?) WHERE id = ? AND account_id = ?`, boolInt(st.Pinned), id, int64(acct))
	return err
}

// revise re-windows a row cut short by a late arrival: the row is expired
// as revised and a copy with the shorter window, and its evidence, takes
// its place. A window cut to nothing leaves no copy.
func revise(ctx context.Context, tx *Tx, ix *indexer, acct memory.AccountID, rv temporal.Revision, by int64) error {
	old, err := loadStatement(ctx, cached{tx}, acct, rv.ID)
	if err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `UPDATE statements SET expired_at = ?, reason = ?, replaced_by = ? WHERE id = ?`,
		millis(tx.Now), string(memory.ReasonRevised), by, rv.ID); err != nil {
		return err
	}
	if err := ix.remove(ctx, rv.ID); err != nil {
		return err
	}
	if !rv.NewInvalidAt.After(old.ValidAt) {
		return nil
	}
	cp := old
	cp.InvalidAt, cp.CreatedAt, cp.ExpiredAt, cp.Reason, cp.ReplacedBy = rv.NewInvalidAt, tx.Now, tx.Now, memory.ReasonSuperseded, by
	_, err = insertStatement(ctx, tx, ix, acct, cp, rv.ID)
	return err
}

func loadStatement(ctx context.Context, q querier, acct memory.AccountID, id int64) (memory.Statement, error) {
	rows, err := scanStatements(ctx, q, `SELECT `+statementCols+` FROM statements WHERE id = ? AND account_id = ?`, id, int64(acct))
	if err != nil {
		return memory.Statement{}, err
	}
	if len(rows) == 0 {
		return memory.Statement{}, memory.Errorf(memory.CodeNotFound, "no statement %d; `cairn fact query` and `cairn notes` list them", id)
	}
	s := rows[0]
	s.Evidence, err = loadEvidence(ctx, q, id)
	return s, err
}

func loadEvidence(ctx context.Context, q querier, id int64) ([]memory.Evidence, error) {
	by, err := evidenceOf(ctx, q, []int64{id})
	return by[id], err
}

// evidenceChunk bounds the ids of one evidence query.
const evidenceChunk = 500

// evidenceOf reads the evidence of many statements in a few queries (a
// query per row cost a standing block most of its time), each row's in
// the order it was added. Sessions and turns are named only within the
// evidence's own account.
func evidenceOf(ctx context.Context, q querier, ids []int64) (map[int64][]memory.Evidence, error) {
	out := map[int64][]memory.Evidence{}
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), evidenceChunk)]
		ids = ids[len(chunk):]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT e.statement_id, e.session_id, COALESCE(s.external_id, ''), e.turn_id, COALESCE(t.seq, 0), COALESCE(t.key, ''),
			e.part_seq, e.source, e.quote
		FROM evidence e LEFT JOIN sessions s ON s.id = e.session_id AND s.account_id = e.account_id
		LEFT JOIN turns t ON t.id = e.turn_id AND t.account_id = e.account_id
		WHERE e.statement_id IN (?`+strings.Repeat(",?", len(chunk)-1)+`) ORDER BY e.id`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var e memory.Evidence
			if err := rows.Scan(&id, &e.SessionID, &e.SessionRef, &e.TurnID, &e.TurnSeq, &e.TurnKey, &e.PartSeq, &e.Source, &e.Quote); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = append(out[id], e)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Statement returns one row with its evidence.
func (db *DB) Statement(ctx context.Context, acct memory.AccountID, id int64) (memory.Statement, error) {
	s, err := loadStatement(ctx, db.read, acct, id)
	if err != nil && memory.ErrorCode(err) == memory.CodeInternal {
		return s, memory.Wrap(memory.CodeInternal, "read statement", err)
	}
	return s, err
}

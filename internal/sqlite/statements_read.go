package sqlite

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// Statements returns the rows a filter selects, oldest first.
func (db *DB) Statements(ctx context.Context, acct memory.AccountID, f memory.StatementFilter) ([]memory.Statement, error) {
	var sb strings.Builder
	args := []any{int64(acct)}
	from := ` FROM statements`
	state := temporal.AreSessionStatePredicates(f.Predicates)
	if state && len(f.IDs) == 0 && len(f.Slots) == 0 {
		// The session-state indexes (migration 0022); named, since the
		// sampled planner statistics rate every index alike and SQLite
		// would rather read every current fact of the account.
		switch {
		case f.Current:
			from = ` FROM statements INDEXED BY statements_state_current`
		case f.Closed && f.ByInvalid:
			from = ` FROM statements INDEXED BY statements_state_closed`
		}
	}
	sb.WriteString(`SELECT ` + statementCols + from + ` WHERE account_id = ?`)
	if len(f.IDs) > 0 {
		sb.WriteString(` AND id IN (?` + strings.Repeat(",?", len(f.IDs)-1) + `)`)
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	if len(f.Kinds) > 0 {
		sb.WriteString(` AND kind IN (?` + strings.Repeat(",?", len(f.Kinds)-1) + `)`)
		for _, k := range f.Kinds {
			args = append(args, string(k))
		}
	}
	switch {
	case state:
		sb.WriteString(` AND predicate IN ` + sessionStateIn)
	case len(f.Predicates) > 0:
		sb.WriteString(` AND predicate IN (?` + strings.Repeat(",?", len(f.Predicates)-1) + `)`)
		for _, p := range f.Predicates {
			args = append(args, p)
		}
	}
	if len(f.Slots) > 0 {
		sb.WriteString(` AND slot IN (?` + strings.Repeat(",?", len(f.Slots)-1) + `)`)
		for _, s := range f.Slots {
			args = append(args, memory.SlotKey(s))
		}
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
	sightFilter(&sb, &args, f.Sight)
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
	out, err := scanStatements(ctx, db.read, sb.String(), args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read statements", err)
	}
	if f.Evidence && len(out) > 0 {
		ids := make([]int64, len(out))
		for i := range out {
			ids[i] = out[i].ID
		}
		by, err := evidenceOf(ctx, db.read, ids)
		if err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read evidence", err)
		}
		for i := range out {
			out[i].Evidence = by[out[i].ID]
		}
	}
	return out, nil
}

// sightFilter keeps rows in sight: unplaced ones and those placed at one
// of the given scopes.
func sightFilter(sb *strings.Builder, args *[]any, see *memory.Sight) {
	if see == nil || see.All {
		return
	}
	sb.WriteString(` AND (place_rung = ''`)
	for _, s := range see.Scopes {
		sb.WriteString(` OR (place_rung = ? AND place_key = ?)`)
		*args = append(*args, string(s.Rung), s.Key)
	}
	sb.WriteString(`)`)
}

// PredicateCounts counts how often each fact predicate is used by live
// rows, for keeping slot names stable.
func (db *DB) PredicateCounts(ctx context.Context, acct memory.AccountID) (map[string]int, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT predicate, COUNT(*) FROM statements
		WHERE account_id = ? AND kind = 'fact' AND predicate <> '' AND reason NOT IN ('retracted', 'forgotten', 'revised')
		GROUP BY predicate`, int64(acct))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "count predicates", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var p string
		var n int
		if err := rows.Scan(&p, &n); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "count predicates", err)
		}
		out[p] = n
	}
	return out, rows.Err()
}

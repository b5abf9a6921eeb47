package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Part returns one raw part with its session and turn.
func (db *DB) Part(ctx context.Context, acct memory.AccountID, id int64) (memory.Match, error) {
	c := memory.Match{Layer: memory.L0, Confidence: 1}
	var at int64
	var role, kind, prov string
	err := db.read.QueryRowContext(ctx, `SELECT p.id, p.text, p.created_at, p.seq, p.role, p.kind, p.tool,
			s.id, s.external_id, s.provider, s.worktree, t.id, t.key, t.seq
		FROM parts p JOIN sessions s ON s.id = p.session_id JOIN turns t ON t.id = p.turn_id
		WHERE p.id = ? AND p.account_id = ?`, id, int64(acct)).Scan(&c.ID, &c.Text, &at, &c.PartSeq, &role, &kind, &c.Tool,
		&c.SessionID, &c.SessionRef, &prov, &c.Worktree, &c.TurnID, &c.TurnKey, &c.TurnSeq)
	if errors.Is(err, sql.ErrNoRows) {
		return c, memory.Errorf(memory.CodeNotFound, "no part p%d", id)
	}
	if err != nil {
		return c, memory.Wrap(memory.CodeInternal, "read part", err)
	}
	c.Time, c.Role, c.Kind, c.Provider = fromMillis(at), memory.Role(role), memory.PartKind(kind), memory.Provider(prov)
	return c, nil
}

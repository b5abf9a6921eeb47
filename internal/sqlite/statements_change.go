package sqlite

import (
	"context"
	"sort"

	"github.com/cairn-memory/cairn/internal/memory"
)

// WithdrawStatement takes a current row back — retracted, forgotten or
// held back — by setting only its expired_at and reason: its world
// window stays as it was, and nothing is deleted.
func (db *DB) WithdrawStatement(ctx context.Context, acct memory.AccountID, id int64, reason memory.Reason) (memory.Statement, error) {
	var out memory.Statement
	err := db.Update(ctx, func(tx *Tx) error {
		s, err := loadStatement(ctx, tx, acct, id)
		if err != nil {
			return err
		}
		if !s.ExpiredAt.IsZero() {
			return memory.Errorf(memory.CodeConflict, "statement %d is not current (%s); `cairn fact reopen %d` brings it back", id, orNone(s.Reason), id)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE statements SET expired_at = ?, reason = ? WHERE id = ?`, millis(tx.Now), string(reason), id); err != nil {
			return err
		}
		out, err = loadStatement(ctx, tx, acct, id)
		return err
	})
	return out, wrapChange("withdraw statement", err)
}

// ReopenStatement makes a closed or withdrawn row current again (a slot
// closed by mistake, a Forget undone). In a one-value slot the rows that
// had replaced it are closed with reason "reopened", so the slot still
// holds one current value.
func (db *DB) ReopenStatement(ctx context.Context, acct memory.AccountID, id int64, see memory.Sight) (memory.Statement, error) {
	var out memory.Statement
	err := db.Update(ctx, func(tx *Tx) error {
		s, err := loadStatement(ctx, tx, acct, id)
		if err != nil {
			return err
		}
		if s.Current() {
			return memory.Errorf(memory.CodeConflict, "statement %d is already current", id)
		}
		if s.Reason == memory.ReasonRevised {
			return memory.Errorf(memory.CodeConflict, "statement %d was re-windowed by a late arrival; reopen statement %d instead", id, s.ReplacedBy)
		}
		ix, err := newIndexer(ctx, tx, memory.L1, 2)
		if err != nil {
			return err
		}
		if s.Kind == memory.KindFact && s.Cardinality == memory.One {
			rows, err := scanStatements(ctx, tx, `SELECT `+statementCols+` FROM statements
				WHERE account_id = ? AND predicate = ? AND slot = ? AND expired_at = 0 AND invalid_at = 0 AND id <> ?`,
				int64(acct), s.Predicate, slotOf(s), id)
			if err != nil {
				return err
			}
			for _, r := range rows {
				if !see.Sees(r.Scope) {
					continue
				}
				if _, err := tx.ExecContext(ctx, `UPDATE statements SET expired_at = ?, reason = ? WHERE id = ?`,
					millis(tx.Now), string(memory.ReasonReopened), r.ID); err != nil {
					return err
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE statements SET invalid_at = 0, expired_at = 0, reason = '', replaced_by = 0 WHERE id = ?`, id); err != nil {
			return err
		}
		if err := ix.close(ctx); err != nil {
			return err
		}
		out, err = loadStatement(ctx, tx, acct, id)
		return err
	})
	return out, wrapChange("reopen statement", err)
}

// PinStatement pins or unpins a row.
func (db *DB) PinStatement(ctx context.Context, acct memory.AccountID, id int64, pinned bool) (memory.Statement, error) {
	var out memory.Statement
	err := db.Update(ctx, func(tx *Tx) error {
		if _, err := loadStatement(ctx, tx, acct, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE statements SET pinned = ? WHERE id = ?`, boolInt(pinned), id); err != nil {
			return err
		}
		var err error
		out, err = loadStatement(ctx, tx, acct, id)
		return err
	})
	return out, wrapChange("pin statement", err)
}

// MarkUsed records that recalled or cited rows were used.
func (db *DB) MarkUsed(ctx context.Context, acct memory.AccountID, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return wrapChange("mark statements used", db.Update(ctx, func(tx *Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE statements SET usage_count = usage_count + 1, last_used_at = ? WHERE id = ? AND account_id = ?`,
				millis(tx.Now), id, int64(acct)); err != nil {
				return err
			}
		}
		return nil
	}))
}

func orNone(r memory.Reason) string {
	if r == "" {
		return "closed"
	}
	return string(r)
}

// wrapChange keeps coded errors (not found, conflict) and wraps the rest.
func wrapChange(op string, err error) error {
	if err == nil {
		return nil
	}
	if c := memory.ErrorCode(err); c != memory.CodeInternal {
		return err
	}
	return memory.Wrap(memory.CodeInternal, op, err)
}

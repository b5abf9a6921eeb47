package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// SaveReceipt stores what a recall sent.
func (db *DB) SaveReceipt(ctx context.Context, acct memory.AccountID, r memory.Receipt) (int64, error) {
	items, err := json.Marshal(r.Items)
	if err != nil {
		return 0, memory.Wrap(memory.CodeInternal, "encode receipt", err)
	}
	var id int64
	err = db.update(ctx, acct, func(tx *Tx) error {
		if err := tx.row(ctx, `INSERT INTO receipts (account_id, provider, session_ref, kind, request, request_key, status, items, text, tokens, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			int64(acct), string(r.Provider), r.SessionRef, r.Kind, r.Request, r.RequestKey, r.Status, string(items), r.Text, r.Tokens, millis(tx.Now)).Scan(&id); err != nil {
			return err
		}
		for _, it := range r.Items {
			if it.Layer != memory.L1 {
				continue
			}
			if _, err := tx.exec(ctx, `INSERT INTO receipt_items (receipt_id, account_id, statement_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
				id, int64(acct), it.ID); err != nil {
				return err
			}
		}
		return nil
	})
	return id, wrap("save receipt", err)
}

// Receipts lists receipts, newest first; a session ref of "" lists all.
func (db *DB) Receipts(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef string, limit int) ([]memory.Receipt, error) {
	q := `SELECT id, provider, session_ref, kind, request, turn_id, status, items, text, tokens, created_at FROM receipts WHERE account_id = ?`
	args := []any{int64(acct)}
	if sessionRef != "" {
		q += ` AND session_ref = ?`
		args = append(args, sessionRef)
		if provider != "" {
			q += ` AND provider = ?`
			args = append(args, string(provider))
		}
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	if limit <= 0 {
		limit = 1 << 30
	}
	args = append(args, limit)
	var out []memory.Receipt
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r memory.Receipt
			var prov, items string
			var at int64
			if err := rows.Scan(&r.ID, &prov, &r.SessionRef, &r.Kind, &r.Request, &r.TurnID, &r.Status, &items, &r.Text, &r.Tokens, &at); err != nil {
				return err
			}
			r.Provider, r.CreatedAt = memory.Provider(prov), fromMillis(at)
			_ = json.Unmarshal([]byte(items), &r.Items)
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, wrap("read receipts", err)
}

// SessionPreset returns a session's stored preset ("" when none).
func (db *DB) SessionPreset(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef string) (string, error) {
	var p string
	err := db.view(ctx, acct, func(tx *Tx) error {
		err := tx.row(ctx, `SELECT preset FROM session_policies WHERE account_id = ? AND provider = ? AND session_ref = ?`,
			int64(acct), string(provider), sessionRef).Scan(&p)
		if noRows(err) {
			return nil
		}
		return err
	})
	return p, wrap("read session preset", err)
}

// SetSessionPreset stores a session's preset.
func (db *DB) SetSessionPreset(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef, preset string) error {
	return wrap("set session preset", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO session_policies (account_id, provider, session_ref, preset, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (account_id, provider, session_ref) DO UPDATE SET preset = excluded.preset, updated_at = excluded.updated_at`,
			int64(acct), string(provider), sessionRef, preset, millis(tx.Now))
		return err
	}))
}

// SetPlacePreset keeps a preset for the next session started in a
// worktree; an empty preset clears it.
func (db *DB) SetPlacePreset(ctx context.Context, acct memory.AccountID, worktree, preset string) error {
	return wrap("set place preset", db.update(ctx, acct, func(tx *Tx) error {
		if preset == "" {
			_, err := tx.exec(ctx, `DELETE FROM place_presets WHERE account_id = ? AND worktree = ?`, int64(acct), worktree)
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO place_presets (account_id, worktree, preset, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, worktree) DO UPDATE SET preset = excluded.preset, created_at = excluded.created_at`,
			int64(acct), worktree, preset, millis(tx.Now))
		return err
	}))
}

// TakePlacePreset returns and clears the preset waiting in a worktree, in
// one transaction: two sessions starting at once do not both take it.
func (db *DB) TakePlacePreset(ctx context.Context, acct memory.AccountID, worktree string) (string, error) {
	var p string
	err := db.update(ctx, acct, func(tx *Tx) error {
		err := tx.row(ctx, `DELETE FROM place_presets WHERE account_id = ? AND worktree = ? RETURNING preset`, int64(acct), worktree).Scan(&p)
		if noRows(err) {
			return nil
		}
		return err
	})
	return p, wrap("take place preset", err)
}

// LinkReceipts ties the receipts of a session's request to its turn.
func (db *DB) LinkReceipts(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef, requestKey string, turnID int64) error {
	if requestKey == "" {
		return nil
	}
	return wrap("link receipts", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE receipts SET turn_id = ? WHERE account_id = ? AND provider = ? AND session_ref = ? AND request_key = ? AND turn_id = 0`,
			turnID, int64(acct), string(provider), sessionRef, requestKey)
		return err
	}))
}

// HoldBackCandidates finds model-written statements that rode at least
// min refused turns since since, and no turn that got a normal answer.
func (db *DB) HoldBackCandidates(ctx context.Context, acct memory.AccountID, since time.Time, min int) ([]int64, error) {
	var out []int64
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT ri.statement_id FROM receipt_items ri
			JOIN receipts r ON r.id = ri.receipt_id AND r.account_id = ri.account_id
			JOIN turns t ON t.id = r.turn_id AND t.account_id = ri.account_id
			JOIN statements s ON s.id = ri.statement_id AND s.account_id = ri.account_id
			WHERE ri.account_id = ? AND s.writer = 'model' AND s.expired_at = 0 AND r.created_at >= ?
			GROUP BY ri.statement_id
			HAVING COUNT(DISTINCT CASE WHEN t.status = 'refused' THEN t.id END) >= ?
			   AND COUNT(DISTINCT CASE WHEN t.status = 'completed' THEN t.id END) = 0
			ORDER BY ri.statement_id`,
			int64(acct), millis(since), min)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
		}
		return rows.Err()
	})
	return out, wrap("find facts to hold back", err)
}

// AddPending keeps a write that waits for its turn to end.
func (db *DB) AddPending(ctx context.Context, acct memory.AccountID, worktree string, write []byte) (int64, error) {
	var id int64
	err := db.update(ctx, acct, func(tx *Tx) error {
		return tx.row(ctx, `INSERT INTO pending_writes (account_id, worktree, write, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			int64(acct), worktree, string(write), millis(tx.Now)).Scan(&id)
	})
	return id, wrap("keep pending write", err)
}

// Pending lists waiting writes of a worktree made in [from, to).
func (db *DB) Pending(ctx context.Context, acct memory.AccountID, worktree string, from, to time.Time) ([]memory.PendingWrite, error) {
	q := `SELECT id, worktree, write, created_at FROM pending_writes WHERE account_id = ? AND status = 'pending'`
	args := []any{int64(acct)}
	if worktree != "" {
		q += ` AND worktree = ?`
		args = append(args, worktree)
	}
	q += ` AND created_at >= ? AND created_at < ? ORDER BY id`
	args = append(args, millis(from), millis(to))
	var out []memory.PendingWrite
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p memory.PendingWrite
			var at int64
			var w string
			if err := rows.Scan(&p.ID, &p.Worktree, &w, &at); err != nil {
				return err
			}
			p.Write, p.CreatedAt = []byte(w), fromMillis(at)
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, wrap("read pending writes", err)
}

// SettlePending marks a pending write applied or dropped.
func (db *DB) SettlePending(ctx context.Context, acct memory.AccountID, id int64, status string, statementID int64) error {
	return wrap("settle pending write", db.update(ctx, acct, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE pending_writes SET status = ?, statement_id = ? WHERE id = ? AND account_id = ?`,
			status, statementID, id, int64(acct))
		return err
	}))
}

// Settings returns the settings kept in the store for an account.
func (db *DB) Settings(ctx context.Context, acct memory.AccountID) (map[string]string, error) {
	out := map[string]string{}
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT key, value FROM settings WHERE account_id = ?`, int64(acct))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k, v string
			if err := rows.Scan(&k, &v); err != nil {
				return err
			}
			out[k] = v
		}
		return rows.Err()
	})
	return out, wrap("read settings", err)
}

// SetSetting stores one setting; an empty value removes it.
func (db *DB) SetSetting(ctx context.Context, acct memory.AccountID, key, value string) error {
	return wrap("write setting", db.update(ctx, acct, func(tx *Tx) error {
		if value == "" {
			_, err := tx.exec(ctx, `DELETE FROM settings WHERE account_id = ? AND key = ?`, int64(acct), key)
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			int64(acct), key, value, millis(tx.Now))
		return err
	}))
}

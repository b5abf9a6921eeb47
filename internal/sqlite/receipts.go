package sqlite

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
	err = db.Update(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `INSERT INTO receipts (account_id, provider, session_ref, kind, request, request_key, status, items, text, tokens, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			int64(acct), string(r.Provider), r.SessionRef, r.Kind, r.Request, r.RequestKey, r.Status, string(items), r.Text, r.Tokens, millis(tx.Now))
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, it := range r.Items {
			if it.Layer != memory.L1 {
				continue
			}
			if _, err := tx.exec(ctx, `INSERT OR IGNORE INTO receipt_items (receipt_id, account_id, statement_id) VALUES (?, ?, ?)`,
				id, int64(acct), it.ID); err != nil {
				return err
			}
		}
		return nil
	})
	return id, wrapChange("save receipt", err)
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
	rows, err := db.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read receipts", err)
	}
	defer rows.Close()
	var out []memory.Receipt
	for rows.Next() {
		var r memory.Receipt
		var prov, items string
		var at int64
		if err := rows.Scan(&r.ID, &prov, &r.SessionRef, &r.Kind, &r.Request, &r.TurnID, &r.Status, &items, &r.Text, &r.Tokens, &at); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read receipts", err)
		}
		r.Provider, r.CreatedAt = memory.Provider(prov), fromMillis(at)
		_ = json.Unmarshal([]byte(items), &r.Items)
		out = append(out, r)
	}
	return out, rows.Err()
}

// SessionPreset returns a session's stored preset ("" when none).
func (db *DB) SessionPreset(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef string) (string, error) {
	var p string
	err := db.read.QueryRowContext(ctx, `SELECT preset FROM session_policies WHERE account_id = ? AND provider = ? AND session_ref = ?`,
		int64(acct), string(provider), sessionRef).Scan(&p)
	if err != nil {
		return "", nil
	}
	return p, nil
}

// SetSessionPreset stores a session's preset.
func (db *DB) SetSessionPreset(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef, preset string) error {
	return wrapChange("set session preset", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO session_policies (account_id, provider, session_ref, preset, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (account_id, provider, session_ref) DO UPDATE SET preset = excluded.preset, updated_at = excluded.updated_at`,
			int64(acct), string(provider), sessionRef, preset, millis(tx.Now))
		return err
	}))
}

// SetPlacePreset keeps a preset for the next session started in a
// worktree; an empty preset clears it.
func (db *DB) SetPlacePreset(ctx context.Context, acct memory.AccountID, worktree, preset string) error {
	return wrapChange("set place preset", db.Update(ctx, func(tx *Tx) error {
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

// TakePlacePreset returns and clears the preset waiting in a worktree.
func (db *DB) TakePlacePreset(ctx context.Context, acct memory.AccountID, worktree string) (string, error) {
	var p string
	if err := db.read.QueryRowContext(ctx, `SELECT preset FROM place_presets WHERE account_id = ? AND worktree = ?`, int64(acct), worktree).Scan(&p); err != nil {
		return "", nil
	}
	return p, db.SetPlacePreset(ctx, acct, worktree, "")
}

// LinkReceipts ties the receipts of a session's request to the turn that
// request became, once the transcript is imported.
func (db *DB) LinkReceipts(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef, requestKey string, turnID int64) error {
	if requestKey == "" {
		return nil
	}
	return wrapChange("link receipts", db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE receipts SET turn_id = ? WHERE account_id = ? AND provider = ? AND session_ref = ? AND request_key = ? AND turn_id = 0`,
			turnID, int64(acct), string(provider), sessionRef, requestKey)
		return err
	}))
}

// HoldBackCandidates finds model-written statements that rode at least
// min refused turns since since, and no turn that got a normal answer.
func (db *DB) HoldBackCandidates(ctx context.Context, acct memory.AccountID, since time.Time, min int) ([]int64, error) {
	ids, err := queryIDs(ctx, db.read, `SELECT ri.statement_id FROM receipt_items ri
		JOIN receipts r ON r.id = ri.receipt_id AND r.account_id = ri.account_id
		JOIN turns t ON t.id = r.turn_id AND t.account_id = ri.account_id
		JOIN statements s ON s.id = ri.statement_id
		WHERE ri.account_id = ? AND s.writer = 'model' AND s.expired_at = 0 AND r.created_at >= ?
		GROUP BY ri.statement_id
		HAVING COUNT(DISTINCT CASE WHEN t.status = 'refused' THEN t.id END) >= ?
		   AND COUNT(DISTINCT CASE WHEN t.status = 'completed' THEN t.id END) = 0`,
		int64(acct), millis(since), min)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "find facts to hold back", err)
	}
	return ids, nil
}

// MarkEpisodesUsed records that cited episodes were used.
func (db *DB) MarkEpisodesUsed(ctx context.Context, acct memory.AccountID, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	return wrapChange("mark episodes used", db.Update(ctx, func(tx *Tx) error {
		for _, id := range ids {
			if _, err := tx.exec(ctx, `UPDATE episodes SET usage_count = usage_count + 1, last_used_at = ? WHERE id = ? AND account_id = ?`,
				millis(tx.Now), id, int64(acct)); err != nil {
				return err
			}
		}
		return nil
	}))
}

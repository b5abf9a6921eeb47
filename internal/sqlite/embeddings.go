package sqlite

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/vector"
)

// embedDue is, per layer, the rows that can have a vector and their text:
// live statements with a tier (an untiered one is never sent to a
// model), live episodes, and every part with text.
var embedDue = map[memory.Layer]struct{ from, text string }{
	memory.L0: {`parts r WHERE r.account_id = ? AND r.text <> ''`, `r.text`},
	memory.L1: {`statements r WHERE r.account_id = ? AND r.expired_at = 0 AND r.invalid_at = 0 AND r.tier <> ''`,
		`trim(r.subject || ' ' || r.predicate || ' ' || r.object)`},
	memory.L2: {`episodes r WHERE r.account_id = ? AND r.expired_at = 0 AND r.summary <> ''`, `r.summary`},
}

// currentVector is the condition "row r has a vector from this model (of
// this dimension, when one is asked for)".
const currentVector = `EXISTS (SELECT 1 FROM embeddings e WHERE e.layer = ? AND e.row_id = r.id AND e.model = ? AND (? = 0 OR e.dim = ?))`

// DueForEmbedding lists up to limit rows of a layer that have no vector
// from model (of dim dimensions when dim > 0), newest first, with the
// first maxChars characters of their text.
func (db *DB) DueForEmbedding(ctx context.Context, acct memory.AccountID, layer memory.Layer, model string, dim, maxChars, limit int) ([]vector.Doc, error) {
	d, ok := embedDue[layer]
	if !ok || limit <= 0 {
		return nil, nil
	}
	q := `SELECT r.id, substr(` + d.text + `, 1, ?) FROM ` + d.from + ` AND NOT ` + currentVector + ` ORDER BY r.id DESC LIMIT ?`
	rows, err := db.read.QueryContext(ctx, q, maxChars, int64(acct), string(layer), model, dim, dim, limit)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "list rows to embed", err)
	}
	defer rows.Close()
	var out []vector.Doc
	for rows.Next() {
		var d vector.Doc
		if err := rows.Scan(&d.ID, &d.Text); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "list rows to embed", err)
		}
		if strings.TrimSpace(d.Text) != "" {
			out = append(out, d)
		}
	}
	return out, rows.Err()
}

// NewestUnembedded reports whether the newest row of some layer has no
// vector from model: the cheap check a hook makes before starting a
// background round. New rows and a model change both show there.
func (db *DB) NewestUnembedded(ctx context.Context, acct memory.AccountID, model string, dim int) (bool, error) {
	for _, l := range []memory.Layer{memory.L0, memory.L1, memory.L2} {
		d := embedDue[l]
		var due int
		q := `SELECT COALESCE((SELECT NOT ` + currentVector + ` FROM ` + d.from + ` ORDER BY r.id DESC LIMIT 1), 0)`
		if err := db.read.QueryRowContext(ctx, q, string(l), model, dim, dim, int64(acct)).Scan(&due); err != nil {
			return false, memory.Wrap(memory.CodeInternal, "check rows to embed", err)
		}
		if due != 0 {
			return true, nil
		}
	}
	return false, nil
}

// SaveEmbeddings stores vectors from model for rows of a layer, replacing
// any earlier vector of those rows (another model's included: that one is
// deleted, which moves the epoch). A row deleted since it was read is
// skipped.
func (db *DB) SaveEmbeddings(ctx context.Context, acct memory.AccountID, layer memory.Layer, model string, ids []int64, vecs [][]float32) error {
	if len(ids) != len(vecs) {
		return memory.Errorf(memory.CodeInternal, "save embeddings: %d rows and %d vectors", len(ids), len(vecs))
	}
	table, ok := map[memory.Layer]string{memory.L0: "parts", memory.L1: "statements", memory.L2: "episodes"}[layer]
	if !ok {
		return memory.Errorf(memory.CodeInvalid, "layer %s has no vectors", layer)
	}
	err := db.Update(ctx, func(tx *Tx) error {
		for i, id := range ids {
			// Another model's vector is deleted, not replaced, so the
			// epoch moves and an index loaded with it drops it.
			if _, err := tx.exec(ctx, `DELETE FROM embeddings WHERE layer = ? AND row_id = ? AND model <> ?`, string(layer), id, model); err != nil {
				return err
			}
			_, err := tx.exec(ctx, `INSERT OR REPLACE INTO embeddings (account_id, layer, row_id, model, dim, vec, created_at)
				SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM `+table+` WHERE id = ? AND account_id = ?)`,
				int64(acct), string(layer), id, model, len(vecs[i]), vector.Encode(vecs[i]), millis(tx.Now), id, int64(acct))
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "save embeddings", err)
	}
	return nil
}

// EmbeddingsSince reads a layer's vectors from model written after seq,
// in write order. A blob that does not decode is skipped: it cannot be
// searched, and the row is embedded again only on a model change.
func (db *DB) EmbeddingsSince(ctx context.Context, acct memory.AccountID, layer memory.Layer, model string, seq int64) ([]vector.Stored, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, row_id, vec FROM embeddings
		WHERE account_id = ? AND layer = ? AND model = ? AND id > ? ORDER BY id`, int64(acct), string(layer), model, seq)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "load embeddings", err)
	}
	defer rows.Close()
	var out []vector.Stored
	for rows.Next() {
		var s vector.Stored
		var blob []byte
		if err := rows.Scan(&s.Seq, &s.ID, &blob); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "load embeddings", err)
		}
		if s.Vec, err = vector.Decode(blob); err != nil {
			continue
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// EmbeddingEpoch counts vector deletions; when it moves, an index loaded
// in memory must be read again from the start.
func (db *DB) EmbeddingEpoch(ctx context.Context) (int64, error) {
	var n int64
	if err := db.read.QueryRowContext(ctx, `SELECT deletions FROM embedding_epoch WHERE id = 1`).Scan(&n); err != nil {
		return 0, memory.Wrap(memory.CodeInternal, "read embedding epoch", err)
	}
	return n, nil
}

// EmbeddingCounts counts, per layer, the vectors from model and the rows
// that could have one: what `cairn doctor` and the eval show.
func (db *DB) EmbeddingCounts(ctx context.Context, acct memory.AccountID, model string) (map[memory.Layer][2]int, error) {
	out := map[memory.Layer][2]int{}
	for l, d := range embedDue {
		var have, all int
		q := `SELECT COALESCE(SUM(` + currentVector + `), 0), COUNT(*) FROM ` + d.from
		if err := db.read.QueryRowContext(ctx, q, string(l), model, 0, 0, int64(acct)).Scan(&have, &all); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "count embeddings", err)
		}
		out[l] = [2]int{have, all}
	}
	return out, nil
}

package sqlite

import (
	"context"
	"database/sql"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// contextChars is how much of each neighbouring part a part's context
// column holds: enough for the question a reply answers, not the whole of
// a long tool output.
const contextChars = 400

// ftsTable names each layer's index. A layer that gains an index adds a
// line here and a migration; the indexing and search code is shared.
var ftsTable = map[memory.Layer]string{
	memory.L0: "parts_fts",
}

// indexer writes one layer's FTS rows inside a write transaction and keeps
// the layer's document count in step.
type indexer struct {
	tx    *Tx
	layer memory.Layer
	ins   *sql.Stmt
	del   *sql.Stmt
	delta int
}

func newIndexer(ctx context.Context, tx *Tx, layer memory.Layer, cols int) (*indexer, error) {
	fts := ftsTable[layer]
	q := `INSERT INTO ` + fts + ` (rowid, body) VALUES (?, ?)`
	if cols == 2 {
		q = `INSERT INTO ` + fts + ` (rowid, body, context) VALUES (?, ?, ?)`
	}
	ins, err := tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	del, err := tx.PrepareContext(ctx, `DELETE FROM `+fts+` WHERE rowid = ?`)
	if err != nil {
		ins.Close()
		return nil, err
	}
	return &indexer{tx: tx, layer: layer, ins: ins, del: del}, nil
}

// add indexes a row; fields are raw text, tokenized here.
func (ix *indexer) add(ctx context.Context, id int64, fields ...string) error {
	args := make([]any, 0, len(fields)+1)
	args = append(args, id)
	for _, f := range fields {
		args = append(args, text.IndexText(f))
	}
	if _, err := ix.ins.ExecContext(ctx, args...); err != nil {
		return err
	}
	ix.delta++
	return nil
}

// remove drops a row's terms.
func (ix *indexer) remove(ctx context.Context, id int64) error {
	res, err := ix.del.ExecContext(ctx, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		ix.delta -= int(n)
	}
	return nil
}

// close writes the document count change and releases the statements.
func (ix *indexer) close(ctx context.Context) error {
	defer ix.ins.Close()
	defer ix.del.Close()
	if ix.delta == 0 {
		return nil
	}
	_, err := ix.tx.ExecContext(ctx, `UPDATE fts_docs SET docs = MAX(docs + ?, 0) WHERE layer = ?`, ix.delta, string(ix.layer))
	return err
}

// tail returns at most n characters from the end of s, head from its start.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// neighbours is the context column of a part: the end of the part before
// it and the start of the part after it in the same session.
func neighbours(prev, next string) string {
	return tail(prev, contextChars) + "\n" + head(next, contextChars)
}

// storedPart is a part already in the store, next to the ones being
// written.
type storedPart struct {
	id   int64
	text string
}

// adjacentPart finds the stored part just before (dir < 0) or after a seq
// in a session, skipping the given ids (parts being rewritten).
func adjacentPart(ctx context.Context, tx *Tx, sessionID int64, seq int, before bool, skip map[int64]bool) (storedPart, bool, error) {
	q := `SELECT id, text FROM parts WHERE session_id = ? AND seq < ? ORDER BY seq DESC, id DESC LIMIT 8`
	if !before {
		q = `SELECT id, text FROM parts WHERE session_id = ? AND seq > ? ORDER BY seq, id LIMIT 8`
	}
	rows, err := tx.QueryContext(ctx, q, sessionID, seq)
	if err != nil {
		return storedPart{}, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var p storedPart
		if err := rows.Scan(&p.id, &p.text); err != nil {
			return storedPart{}, false, err
		}
		if !skip[p.id] {
			return p, true, nil
		}
	}
	return storedPart{}, false, rows.Err()
}

// neighbourText reads the text of the stored parts on either side of one.
func neighbourText(ctx context.Context, tx *Tx, sessionID int64, seq int, self int64) (string, string, error) {
	skip := map[int64]bool{self: true}
	p, _, err := adjacentPart(ctx, tx, sessionID, seq, true, skip)
	if err != nil {
		return "", "", err
	}
	n, _, err := adjacentPart(ctx, tx, sessionID, seq, false, skip)
	return p.text, n.text, err
}

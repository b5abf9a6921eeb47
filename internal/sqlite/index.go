package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// A part's context column holds the parts around it in its session: up
// to contextWindow on each side, contextChars of each. A reply is found by
// the question it answers and a question by its answer; on LoCoMo this
// window took turn recall@10 from 64 to 75 (BENCHMARKS.md). Wider windows
// and separate near/far columns measured worse.
const (
	contextWindow = 2
	contextChars  = 600
)

// ftsTable names each layer's index. A layer that gains an index adds a
// line here and a migration; the indexing and search code is shared.
var ftsTable = map[memory.Layer]string{
	memory.L0: "parts_fts",
	memory.L1: "statements_fts",
	memory.L2: "episodes_fts",
	memory.L3: "profiles_fts",
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
	switch cols {
	case 2:
		q = `INSERT INTO ` + fts + ` (rowid, body, context) VALUES (?, ?, ?)`
	case 3:
		q = `INSERT INTO ` + fts + ` (rowid, body, context, place) VALUES (?, ?, ?, ?)`
	}
	ins, err := tx.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	del, err := tx.stmt(ctx, `DELETE FROM `+fts+` WHERE rowid = ?`)
	if err != nil {
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
	if _, err := ix.ins.ExecContext(stmtCtx(ctx), args...); err != nil {
		return err
	}
	ix.delta++
	return nil
}

// addTokens indexes a part whose body and context (near) are tokenized
// already (text.IndexText), with its place tokens, which are opaque.
func (ix *indexer) addTokens(ctx context.Context, id int64, body, near, place string) error {
	if _, err := ix.ins.ExecContext(stmtCtx(ctx), id, body, near, place); err != nil {
		return err
	}
	ix.delta++
	return nil
}

// remove drops a row's terms.
func (ix *indexer) remove(ctx context.Context, id int64) error {
	res, err := ix.del.ExecContext(stmtCtx(ctx), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		ix.delta -= int(n)
	}
	return nil
}

// close writes the document count change. Only the raw layer's count is
// read (query terms are weighed by it), so only it is kept.
func (ix *indexer) close(ctx context.Context) error {
	if ix.delta == 0 || ix.layer != memory.L0 {
		return nil
	}
	_, err := ix.tx.exec(ctx, `UPDATE fts_docs SET docs = MAX(docs + ?, 0) WHERE layer = ?`, ix.delta, string(ix.layer))
	return err
}

// neighbour is the start and end of a part, enough to be another part's
// context.
type neighbour struct {
	id         int64
	seq        int
	kind       string
	head, tail string
}

// contextOf builds the context column of list[i]: the end of each part
// before it and the start of each part after it, nearest first.
func contextOf(list []neighbour, i int) string {
	win, chars := contextWindow, contextChars
	if k := memory.PartKind(list[i].kind); k == memory.KindToolCall || k == memory.KindToolResult {
		// A tool part is found by its own words; its neighbours (the call
		// for a result, the result for a call) say little more, and tool
		// parts are many: a narrow context keeps the index small.
		win, chars = 1, toolContextChars
	}
	var b strings.Builder
	for d := 1; d <= win; d++ {
		if i-d >= 0 {
			b.WriteString(tail(list[i-d].tail, chars))
			b.WriteByte('\n')
		}
		if i+d < len(list) {
			b.WriteString(head(list[i+d].head, chars))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// toolContextChars is the context a tool part takes from each neighbour.
const toolContextChars = 160

// head and tail cut s to at most n bytes on a rune boundary.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

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

// indexedBodyChars bounds how much of one part the index reads: the start
// and the end of a long tool output (a file read, a build log) say what it
// is and how it ended; its middle costs index time and size and rarely
// decides a search.
const indexedBodyChars = 16 << 10

func indexedBody(s string) string {
	if len(s) <= indexedBodyChars {
		return s
	}
	head, tail := s[:indexedBodyChars*3/4], s[len(s)-indexedBodyChars/4:]
	return head + "\n" + tail
}

// placeToken names one rung of a place for the index: an opaque token
// (a prefix and a hash of the account and the key) that a query ANDs into
// its match.
func placeToken(acct memory.AccountID, r memory.Rung, key string) string {
	prefix := map[memory.Rung]string{memory.RungWorktree: "wt", memory.RungProject: "pj", memory.RungRepo: "rp"}[r]
	h := sha256.Sum256([]byte(strconv.FormatInt(int64(acct), 10) + "\x00" + string(r) + "\x00" + key))
	return prefix + hex.EncodeToString(h[:8])
}

// accountToken names an account in the index.
func accountToken(acct memory.AccountID) string { return "ac" + strconv.FormatInt(int64(acct), 10) }

// placeTokens is a session's place column: its account, worktree,
// project and repo.
func placeTokens(acct memory.AccountID, p memory.Place) string {
	toks := []string{accountToken(acct)}
	for _, r := range []memory.Rung{memory.RungWorktree, memory.RungProject, memory.RungRepo} {
		if k, ok := p.Key(r); ok {
			toks = append(toks, placeToken(acct, r, k))
		}
	}
	return strings.Join(toks, " ")
}

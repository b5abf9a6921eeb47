package postgres

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// ftsTokens are the tokens the SQLite store's index holds for s: the text
// package's tokens, read back the way FTS5's unicode61 tokenizer (with
// tokenchars '_-./') reads them, splitting at any other character that is
// not a letter, a number or private use. For the tokens the text package
// makes this changes nothing; it keeps the two stores' features equal if
// it ever does.
func ftsTokens(s string) []string {
	var out []string
	for _, t := range text.Tokens(s) {
		if clean(t) {
			out = append(out, t)
			continue
		}
		out = append(out, strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !tokenRune(r) })...)
	}
	return out
}

func clean(t string) bool {
	for _, r := range t {
		if !tokenRune(r) || unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

func tokenRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '/' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// maxPositions is how many occurrences of one lexeme a tsvector keeps:
// a term's frequency in a row is counted up to it (FTS5 has no cap).
const maxPositions = 256

// doc is one row's index entry: the tsvector literal and its size in
// tokens, every column counted, as FTS5 counts a row's size for bm25.
type doc struct {
	vector string
	size   int64
}

// column is one indexed column: its tokens and the tsvector weight that
// marks them.
type column struct {
	tokens []string
	weight byte
}

// newDoc builds a row's tsvector from its columns: each occurrence of a
// token is a position with its column's weight, so a term's frequency in
// each column can be read back from the positions.
func newDoc(cols ...column) doc {
	type entry struct {
		pos []string
	}
	byTok := map[string]*entry{}
	var order []string
	pos := 0
	var size int64
	for _, c := range cols {
		size += int64(len(c.tokens))
		for _, t := range c.tokens {
			pos++
			e, ok := byTok[t]
			if !ok {
				e = &entry{}
				byTok[t] = e
				order = append(order, t)
			}
			if len(e.pos) < maxPositions {
				p := min(pos, 16383)
				if p == 16383 {
					// Positions past tsvector's last one would merge; spread the
					// overflow below it so each occurrence still counts.
					p = 16383 - len(e.pos)
				}
				e.pos = append(e.pos, strconv.Itoa(p)+string(c.weight))
			}
		}
	}
	var b strings.Builder
	for i, t := range order {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteLexeme(t))
		b.WriteByte(':')
		b.WriteString(strings.Join(byTok[t].pos, ","))
	}
	return doc{vector: b.String(), size: size}
}

// quoteLexeme quotes a lexeme for tsvector and tsquery input: any text is
// safe inside, user text never reaches the parser unquoted.
func quoteLexeme(t string) string {
	t = strings.ReplaceAll(t, `\`, `\\`)
	return "'" + strings.ReplaceAll(t, "'", "''") + "'"
}

// queryTerms are the phrases of a search, as the SQLite store builds its
// MATCH: each term read back into FTS5 tokens; a term of several tokens
// is a phrase, which this store matches as all of its tokens.
func queryTerms(terms []string) [][]string {
	var out [][]string
	for _, t := range terms {
		t = strings.ReplaceAll(t, "\x00", "")
		if strings.TrimSpace(t) == "" {
			continue
		}
		toks := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !tokenRune(r) })
		out = append(out, toks)
	}
	return out
}

// termQuery is the tsquery of one phrase restricted to weights; "" for a
// phrase with no tokens (which matches nothing).
func termQuery(phrase []string, weights string) string {
	if len(phrase) == 0 {
		return ""
	}
	parts := make([]string, len(phrase))
	for i, t := range phrase {
		parts[i] = quoteLexeme(t) + ":" + weights
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, " & ") + ")"
}

// anyQuery ORs the phrases' queries; "" when none can match.
func anyQuery(phrases [][]string, weights string) string { return joinQuery(phrases, weights, " | ") }

// allQuery ANDs them: every phrase required.
func allQuery(phrases [][]string, weights string) string { return joinQuery(phrases, weights, " & ") }

func joinQuery(phrases [][]string, weights, op string) string {
	var qs []string
	for _, p := range phrases {
		if q := termQuery(p, weights); q != "" {
			qs = append(qs, q)
		}
	}
	return strings.Join(qs, op)
}

// bm25 is FTS5's: k1 1.2, b 0.75, IDF floored at 1e-6, a phrase's
// frequency the weighted sum of its occurrences in each column, a row's
// size every column's tokens. Summed in phrase order, as FTS5 does, so the
// two stores agree to the last bits on the same features.
type bm25 struct {
	idf   []float64
	avgdl float64
}

func newBM25(rows, tokens int64, hits []int64) bm25 {
	m := bm25{idf: make([]float64, len(hits))}
	n := float64(rows)
	if rows > 0 {
		m.avgdl = float64(tokens) / n
	}
	for i, h := range hits {
		idf := math.Log((n - float64(h) + 0.5) / (float64(h) + 0.5))
		if idf <= 0 {
			idf = 1e-6
		}
		m.idf[i] = idf
	}
	return m
}

// score takes, per phrase, the weighted frequency and the row's size.
func (m bm25) score(freq []float64, size int64) float64 {
	const k1, b = 1.2, 0.75
	var s float64
	for i, f := range freq {
		s += m.idf[i] * ((f * (k1 + 1.0)) / (f + k1*(1-b+b*float64(size)/m.avgdl)))
	}
	return s
}

// freqs counts each phrase's occurrences in a row from its lexemes'
// weights (A: first column, B: second), weighted by column. A phrase of
// several tokens counts as its rarest token.
func freqs(phrases [][]string, lex map[string][]byte, wA, wB float64) []float64 {
	out := make([]float64, len(phrases))
	for i, p := range phrases {
		best := -1.0
		for _, t := range p {
			var f float64
			for _, w := range lex[t] {
				switch w {
				case 'A':
					f += wA
				case 'B':
					f += wB
				}
			}
			if best < 0 || f < best {
				best = f
			}
		}
		if best > 0 {
			out[i] = best
		}
	}
	return out
}

// placeToken names one rung of a place in the index of parts: an opaque
// token of the account and the key, as the SQLite store's.
func placeToken(acct memory.AccountID, r memory.Rung, key string) string {
	prefix := map[memory.Rung]string{memory.RungWorktree: "wt", memory.RungProject: "pj", memory.RungRepo: "rp"}[r]
	h := sha256.Sum256([]byte(strconv.FormatInt(int64(acct), 10) + "\x00" + string(r) + "\x00" + key))
	return prefix + hex.EncodeToString(h[:8])
}

func accountToken(acct memory.AccountID) string { return "ac" + strconv.FormatInt(int64(acct), 10) }

// placeTokens are a session's place column: its account, worktree,
// project and repo.
func placeTokens(acct memory.AccountID, p memory.Place) []string {
	toks := []string{accountToken(acct)}
	for _, r := range []memory.Rung{memory.RungWorktree, memory.RungProject, memory.RungRepo} {
		if k, ok := p.Key(r); ok {
			toks = append(toks, placeToken(acct, r, k))
		}
	}
	return toks
}

// placeQuery is the place part of a search of parts: the account and the
// rungs a read at rung r sees, as D-weighted lexemes.
func placeQuery(acct memory.AccountID, p memory.Place, r memory.Rung) string {
	tok := func(t string) string { return quoteLexeme(t) + ":D" }
	switch r {
	case memory.RungEverywhere:
		return tok(accountToken(acct))
	case memory.RungRepo:
		if k, ok := p.Key(memory.RungRepo); ok {
			pk, _ := p.Key(memory.RungProject)
			return "(" + tok(placeToken(acct, memory.RungRepo, k)) + " | " + tok(placeToken(acct, memory.RungProject, pk)) + ")"
		}
		fallthrough
	case memory.RungProject:
		k, _ := p.Key(memory.RungProject)
		return tok(placeToken(acct, memory.RungProject, k))
	}
	k, _ := p.Key(memory.RungWorktree)
	return tok(placeToken(acct, memory.RungWorktree, k))
}

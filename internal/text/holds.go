package text

import (
	"bytes"
	"unicode/utf8"
)

// TermSet answers which of a query's terms are tokens of a text, as
// membership in Tokens would, without tokenizing the whole text: ranking
// asks it of every candidate, and tokenizing them was a quarter of a
// search.
//
// It rests on two facts about the tokenizer, both checked by
// FuzzTermSetHolds: the tokens of a text are the union of the tokens of
// its pieces between ASCII separators (the scanner keeps no state across
// one), and a token of a piece of ASCII letters, digits and joiners is,
// but for its last letter (a stem may change it), a substring of the piece
// lowercased. So such a piece is tokenized only when it holds a term's
// probe; a piece with another script or an apostrophe (which may be
// elided) is always tokenized.
type TermSet struct {
	terms  []string
	probes [][]byte
	view   []byte // scratch for Holds
	tk     tokenizer
	found  uint64 // what mark's tokenizer has found so far
	// exact is set when a term falls outside what probes can find (not
	// plain ASCII, too short, or too many terms): Holds tokenizes all.
	exact bool
}

// viewByte is what Holds puts in its view for each byte of a text: a
// space for a separator, a letter lowercased, a digit or joiner as it is,
// and 0 for a byte of another script or an apostrophe, whose piece is
// tokenized instead.
var viewByte = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf || c == '\'':
			t[c] = 0
		case asciiKind[c] == 0:
			t[c] = ' '
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + ('a' - 'A')
		default:
			t[c] = byte(c)
		}
	}
	return t
}()

// maxSetTerms is how many terms a set tracks, one bit each.
const maxSetTerms = 64

// NewTermSet prepares terms (tokens, as QueryTerms gives them).
func NewTermSet(terms []string) *TermSet {
	ts := &TermSet{terms: terms, probes: make([][]byte, len(terms))}
	if len(terms) > maxSetTerms {
		ts.exact = true
	}
	for i, t := range terms {
		p := probeOf(t)
		if p == "" {
			ts.exact = true
		}
		ts.probes[i] = []byte(p)
	}
	return ts
}

// probeOf is what a piece must contain to hold t: t without its last
// letter, or its first letter for the stems whose earlier letters change
// ("dying" → "die"). Empty when t is not plain lowercase ASCII.
func probeOf(t string) string {
	if len(t) < 2 {
		return ""
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' {
			return ""
		}
	}
	switch t {
	case "die", "lie", "tie":
		return t[:1]
	}
	return t[:len(t)-1]
}

// All is the mask with every term's bit set.
func (ts *TermSet) All() uint64 {
	if len(ts.terms) >= maxSetTerms {
		return ^uint64(0)
	}
	return 1<<len(ts.terms) - 1
}

// Holds returns a mask with bit i set when terms[i] is one of Tokens(s).
// A TermSet is not for concurrent use: Holds reuses a buffer.
func (ts *TermSet) Holds(s string) uint64 { return ts.HoldsOf(s, ts.All()) }

// HoldsOf is Holds for the terms in want: the result's bits in want are
// Holds(s)'s, others may be set or not. It stops once all of want are
// found, and looks for no other term.
func (ts *TermSet) HoldsOf(s string, want uint64) uint64 {
	want &= ts.All()
	if len(ts.terms) == 0 || s == "" || want == 0 {
		return 0
	}
	if ts.exact {
		return ts.mark(0, s)
	}
	// view is s with plain ASCII pieces lowercased and everything else a
	// space, so a probe's offset in it is the piece's offset in s. One
	// pass maps each byte by a table; a piece holding another script or an
	// apostrophe (a byte the table maps to 0) is then blanked and marked.
	view := append(ts.view[:0], s...)
	defer func() { ts.view = view[:0] }()
	special := false
	for i, c := range view {
		v := viewByte[c]
		view[i] = v
		special = special || v == 0
	}
	var found uint64
	for i := 0; special && i < len(view); i++ {
		if view[i] != 0 {
			continue
		}
		a, b := pieceAround(view, i)
		for j := a; j < b; j++ {
			view[j] = ' '
		}
		if found = ts.mark(found, s[a:b]); found&want == want {
			return found
		}
		i = b
	}
	for i, p := range ts.probes {
		for from := 0; want&(1<<i) != 0 && found&(1<<i) == 0; {
			at := bytes.Index(view[from:], p)
			if at < 0 {
				break
			}
			at += from
			// No token starts between two lowercase letters (a cut falls at
			// a joiner, a slash, a capital or a digit), and a token holding
			// the term starts with its probe: this match cannot be one.
			if at > 0 && isLower(s[at-1]) && isLower(s[at]) {
				from = at + 1
				continue
			}
			a, b := pieceAround(view, at)
			if found = ts.mark(found, s[a:b]); found&want == want {
				return found
			}
			from = b
		}
	}
	return found
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// pieceAround is the piece of view holding offset i: the bytes between
// the spaces around it.
func pieceAround(view []byte, i int) (a, b int) {
	a = bytes.LastIndexByte(view[:i], ' ') + 1
	if b = bytes.IndexByte(view[i:], ' '); b < 0 {
		return a, len(view)
	}
	return a, b + i
}

// mark adds to found the terms among the tokens of s. Its tokenizer is
// kept, so marking allocates nothing once its buffers have grown.
func (ts *TermSet) mark(found uint64, s string) uint64 {
	if ts.tk.visit == nil {
		ts.tk.visit = func(tok []byte) {
			for i, t := range ts.terms {
				if i < maxSetTerms && string(tok) == t {
					ts.found |= 1 << i
				}
			}
		}
	}
	ts.found = found
	ts.tk.scan(s, &ts.tk)
	return ts.found
}

package text

import (
	"strings"
	"unicode/utf8"
)

// maxTokenLen bounds a token in bytes. Longer words are blobs (base64,
// minified code, hashes of hashes) that nobody types into a search box.
const maxTokenLen = 80

// Tokens returns the search tokens of s in order, duplicates kept so that
// full-text search can count term frequency. Index and query use the same
// normalization; see the package doc for the rules.
func Tokens(s string) []string {
	t := tokenizer{}
	t.out.Grow(outCap(s))
	t.scan(s, &t)
	return t.split()
}

// IndexText returns the tokens of s joined by single spaces: the text to
// store in the full-text column. It equals strings.Join(Tokens(s), " ").
func IndexText(s string) string {
	t := tokenizer{}
	t.out.Grow(outCap(s))
	t.scan(s, &t)
	return t.out.String()
}

// QueryTokens returns the tokens of a search request in order: Tokens with
// stop words dropped (and, in CJK text, the bigrams that touch them).
// Duplicates are kept; QueryTerms removes them.
func QueryTokens(s string) []string {
	t := tokenizer{query: true}
	t.out.Grow(outCap(s))
	t.scan(s, &t)
	return t.split()
}

// outCap guesses the size of the tokens of s, so the builder seldom grows:
// code and prose come out about a quarter longer (parts of code words),
// CJK text about 2.3 times (every character in two bigrams, plus spaces).
func outCap(s string) int {
	wide := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			wide++
		}
	}
	narrow := len(s) - wide
	return narrow + narrow/4 + wide*7/3 + 16
}

// tokenizer writes tokens, space-separated, into one builder; Tokens cuts
// the built string into substrings, so a call allocates a handful of times
// however many tokens it finds.
type tokenizer struct {
	scanner
	query bool
	out   strings.Builder
	stem  []byte // scratch for one stem
	n     int    // tokens written
	marks []byte // per-rune CJK flags, query only
	// visit, when set, is handed each token instead of the builder (the
	// token's bytes are reused after it returns).
	visit func(tok []byte)
}

func (t *tokenizer) split() []string {
	if t.n == 0 {
		return nil
	}
	all := t.out.String()
	toks := make([]string, t.n)
	start, j := 0, 0
	for i := 0; i < len(all); i++ {
		if all[i] == ' ' {
			toks[j] = all[start:i]
			j++
			start = i + 1
		}
	}
	toks[j] = all[start:]
	return toks
}

func (t *tokenizer) emit(tok []byte) {
	if len(tok) == 0 || len(tok) > maxTokenLen {
		return
	}
	if t.visit != nil {
		t.visit(tok)
		return
	}
	if t.n > 0 {
		t.out.WriteByte(' ')
	}
	t.out.Write(tok)
	t.n++
}

// word emits a word whole and, when it is code-shaped, in parts.
// t.flags describes the whole word, so for its pieces a flag that is not
// set is a promise and one that is set only a maybe.
func (t *tokenizer) word(low, kinds []byte) {
	if t.flags&fJoin == 0 || !hasJoiner(kinds) {
		t.segment(low, kinds)
		return
	}
	if isVersion(low) {
		t.version(low)
		return
	}
	t.emit(low)
	if !hasSlash(kinds) {
		t.parts(low, kinds)
		return
	}
	// A path: each component, then the component's own parts.
	forEachPiece(low, kinds, isSlash, func(a, b int) {
		c, ck := low[a:b], kinds[a:b]
		switch {
		case !hasJoiner(ck):
			t.segment(c, ck)
		case isVersion(c):
			t.version(c)
		default:
			t.emit(c)
			t.parts(c, ck)
		}
	})
}

// parts emits the pieces of a slash-free word between '.', '-' and '_'.
func (t *tokenizer) parts(low, kinds []byte) {
	forEachPiece(low, kinds, isJoiner, func(a, b int) {
		t.segment(low[a:b], kinds[a:b])
	})
}

// version emits "v1.2.3" whole and, when it starts with v, without it.
func (t *tokenizer) version(low []byte) {
	t.emit(low)
	if low[0] == 'v' {
		t.emit(low[1:])
	}
}

// segment emits a joiner-free piece: a camel-case identifier whole and in
// parts, anything else as one atom.
func (t *tokenizer) segment(low, kinds []byte) {
	if t.flags&fUpper == 0 {
		t.atom(low, kinds)
		return
	}
	var cuts [maxCamelParts + 1]int
	n := camelCuts(kinds, cuts[:])
	if n == 0 {
		t.atom(low, kinds)
		return
	}
	t.emit(low)
	prev := 0
	for _, c := range cuts[:n] {
		t.atom(low[prev:c], kinds[prev:c])
		prev = c
	}
	t.atom(low[prev:], kinds[prev:])
}

// atom emits one word with no joiners and no camel humps: stemmed when it
// is a plain ASCII word, dropped in queries when it is a stop word.
func (t *tokenizer) atom(low, kinds []byte) {
	if len(low) > maxTokenLen {
		return
	}
	if t.flags&fUpper != 0 && isCapsPlural(low, kinds) {
		low = low[:len(low)-1] // "APIs" → "api", like "apis" → "api"
	}
	if t.query && isStopBytes(low) {
		return
	}
	if t.flags&(fDigit|fNonASCII) != 0 && !isStemmable(low) ||
		len(low) < minStemLen || len(low) > maxStemLen {
		t.emit(low)
		return
	}
	t.stem = appendStem(t.stem[:0], low)
	t.emit(t.stem)
}

// forEachPiece calls f with the bounds of every non-empty piece of low
// between bytes whose kind satisfies cut, each trimmed of joiners.
func forEachPiece(low, kinds []byte, cut func(byte) bool, f func(a, b int)) {
	start := 0
	for i := 0; i <= len(low); i++ {
		if i < len(low) && !cut(kinds[i]) {
			continue
		}
		a, b := start, i
		for a < b && isJoiner(kinds[a]) {
			a++
		}
		for b > a && isJoiner(kinds[b-1]) {
			b--
		}
		if a < b {
			f(a, b)
		}
		start = i + 1
	}
}

func isSlash(kind byte) bool { return kind == kSlash }

func hasJoiner(kinds []byte) bool {
	for _, k := range kinds {
		if k == kJoin || k == kSlash {
			return true
		}
	}
	return false
}

func hasSlash(kinds []byte) bool {
	for _, k := range kinds {
		if k == kSlash {
			return true
		}
	}
	return false
}

// isVersion reports whether w looks like a version or a dotted number:
// an optional v, then digits and dots with at least one dot, then an
// optional pre-release after '-' ("v2.0.0-rc.1").
func isVersion(w []byte) bool {
	i := 0
	if i < len(w) && w[i] == 'v' {
		i++
	}
	dots, digits := 0, false
	for ; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' && digits && w[i-1] != '.':
			dots++
		case c == '-' && dots > 0 && w[i-1] != '.':
			return i+1 < len(w)
		default:
			return false
		}
	}
	return dots > 0 && digits
}

// isCapsPlural reports whether a word was two or more capitals and a
// lowercase s, as in "APIs", "PRs", "URLs".
func isCapsPlural(low, kinds []byte) bool {
	n := len(kinds)
	if n < 3 || low[n-1] != 's' || kinds[n-1] != kLower {
		return false
	}
	for _, k := range kinds[:n-1] {
		if k != kUpper {
			return false
		}
	}
	return true
}

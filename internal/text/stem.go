package text

// A light English stemmer in the manner of Porter's second algorithm, kept
// to the inflectional steps (1a plurals, 1b -ed/-ing, 1c -y, 5 final -e and
// -ll). It conflates "deploy", "deploys", "deployed" and "deploying", and
// "use", "uses", "used", "using", but leaves derivations alone:
// "deployment" stays a word of its own. Stems are search keys, not words:
// "caches" and "caching" both become "cach".

// Only plain ASCII words of three letters or more are stemmed, and a
// three-letter word only has its final y turned into i ("try", "tries" →
// "tri"): most of them are acronyms ("aws", "ios", "ops") that stripping an
// s would ruin.
const (
	minStemLen = 3
	maxStemLen = 40
)

// stemException returns the stem of a word the rules get wrong, or that
// must stay whole. A switch, not a map: it is asked for every word. A stem
// here that differs from its word before the last letter ("dying" → "die")
// must be listed in probeOf too, or TermSet would miss it.
func stemException(w []byte) (string, bool) {
	switch string(w) {
	case "skis":
		return "ski", true
	case "skies":
		return "sky", true
	case "dying":
		return "die", true
	case "lying":
		return "lie", true
	case "tying":
		return "tie", true
	case "goes":
		return "go", true
	case "news", "atlas", "cosmos", "bias", "alias", "canvas", "chaos",
		"kudos", "macos", "redis", "axis", "this", "always", "series",
		"species", "inning", "outing", "canning", "herring", "earring",
		"proceed", "exceed", "succeed":
		return string(w), true
	}
	return "", false
}

// Stem returns the stem of a lowercase ASCII word. Anything else (shorter
// than three letters, longer than forty, uppercase, digits, other scripts)
// comes back unchanged. A stem is a search key, not a word: stemming it
// again may shorten it further ("releases" → "releas" → "relea"), so
// stem text once, through Tokens.
func Stem(word string) string {
	if !isStemmable([]byte(word)) {
		return word
	}
	return string(appendStem(nil, []byte(word)))
}

func isStemmable(w []byte) bool {
	if len(w) < minStemLen || len(w) > maxStemLen {
		return false
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// appendStem appends the stem of the stemmable word w to dst. The stem is
// never longer than the word, so the work is done in place at dst's end.
func appendStem(dst, w []byte) []byte {
	if c := w[len(w)-1]; c == 's' || c == 'g' || c == 'd' { // all exceptions end so
		if s, ok := stemException(w); ok {
			return append(dst, s...)
		}
	}
	start := len(dst)
	dst = append(dst, w...)
	n := stemInPlace(dst[start:])
	return dst[:start+n]
}

// stemInPlace rewrites b as its stem and returns the stem's length.
// Consonant y is marked as 'Y' while working and restored at the end.
func stemInPlace(b []byte) int {
	marked := false
	for i, c := range b {
		if c == 'y' && (i == 0 || isVowel(b[i-1])) {
			b[i] = 'Y'
			marked = true
		}
	}
	n := len(b)
	if n == minStemLen {
		n = step1c(b, n)
	} else {
		r1 := region(b, 0)
		switch {
		case hasPrefix(b, "gener"), hasPrefix(b, "arsen"):
			r1 = 5
		case hasPrefix(b, "commun"):
			r1 = 6
		}
		r2 := region(b, r1)
		n = step1a(b)
		n = step1b(b, n, r1)
		n = step1c(b, n)
		n = step5(b, n, r1, r2)
	}
	for i := 0; marked && i < n; i++ {
		if b[i] == 'Y' {
			b[i] = 'y'
		}
	}
	return n
}

func step1a(b []byte) int {
	n := len(b)
	if c := b[n-1]; c != 's' && c != 'd' {
		return n
	}
	switch {
	case hasSuffix(b, n, "sses"):
		return n - 2
	case hasSuffix(b, n, "ied"), hasSuffix(b, n, "ies"):
		if n > 4 {
			return n - 2 // "cries" → "cri"
		}
		return n - 1 // "ties" → "tie"
	case hasSuffix(b, n, "us"), hasSuffix(b, n, "ss"):
		return n
	case b[n-1] == 's':
		// Drop the s when a vowel comes before the letter before it:
		// "gaps" → "gap", "apis" → "api", but "gas" and "plus" stay.
		for _, c := range b[:n-2] {
			if isVowel(c) {
				return n - 1
			}
		}
	}
	return n
}

func step1b(b []byte, n, r1 int) int {
	if c := b[n-1]; c != 'd' && c != 'g' && c != 'y' {
		return n
	}
	for _, suf := range [...]string{"eedly", "eed"} {
		if hasSuffix(b, n, suf) {
			if n-len(suf) >= r1 {
				return n - len(suf) + 2 // "agreed" → "agree"
			}
			return n
		}
	}
	cut := 0
	for _, suf := range [...]string{"ingly", "edly", "ing", "ed"} {
		if hasSuffix(b, n, suf) {
			cut = len(suf)
			break
		}
	}
	if cut == 0 || !hasVowel(b[:n-cut]) {
		return n
	}
	n -= cut
	switch {
	case hasSuffix(b, n, "at"), hasSuffix(b, n, "bl"), hasSuffix(b, n, "iz"):
		b[n] = 'e'
		return n + 1
	case isDouble(b, n):
		return n - 1
	case isShortWord(b, n, r1):
		b[n] = 'e'
		return n + 1
	}
	return n
}

// step1c turns a final y after a consonant into i ("study", "studies",
// "studied" → "studi"), unless that consonant is the first letter ("by").
func step1c(b []byte, n int) int {
	if n > 2 && (b[n-1] == 'y' || b[n-1] == 'Y') && !isVowel(b[n-2]) {
		b[n-1] = 'i'
	}
	return n
}

func step5(b []byte, n, r1, r2 int) int {
	switch b[n-1] {
	case 'e':
		if n-1 >= r2 || n-1 >= r1 && !endsShortSyllable(b, n-1) {
			return n - 1
		}
	case 'l':
		if n-1 >= r2 && n > 1 && b[n-2] == 'l' {
			return n - 1
		}
	}
	return n
}

// region returns where the region after the first non-vowel following a
// vowel begins, searching from start: R1 from 0, R2 from R1.
func region(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		if !isVowel(b[i]) && isVowel(b[i-1]) {
			return i + 1
		}
	}
	return len(b)
}

// endsShortSyllable reports whether b[:n] ends in a short syllable: a
// consonant, a vowel and a consonant other than w, x or Y ("hop"), or a
// word of a vowel and a consonant ("us").
func endsShortSyllable(b []byte, n int) bool {
	if n == 2 {
		return isVowel(b[0]) && !isVowel(b[1])
	}
	if n < 3 {
		return false
	}
	c := b[n-1]
	return !isVowel(b[n-3]) && isVowel(b[n-2]) && !isVowel(c) &&
		c != 'w' && c != 'x' && c != 'Y'
}

func isShortWord(b []byte, n, r1 int) bool {
	return r1 >= n && endsShortSyllable(b, n)
}

func isDouble(b []byte, n int) bool {
	if n < 2 || b[n-1] != b[n-2] {
		return false
	}
	switch b[n-1] {
	case 'b', 'd', 'f', 'g', 'm', 'n', 'p', 'r', 't':
		return true
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

func hasVowel(b []byte) bool {
	for _, c := range b {
		if isVowel(c) {
			return true
		}
	}
	return false
}

func hasSuffix(b []byte, n int, suf string) bool {
	if n < len(suf) {
		return false
	}
	b = b[n-len(suf) : n]
	for i := range len(suf) {
		if b[i] != suf[i] {
			return false
		}
	}
	return true
}

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && b[0] == p[0] && string(b[:len(p)]) == p
}

package text

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Byte kinds recorded beside each byte of a lowercased word, so the code
// splitter can see the original case and the joiners after lowercasing.
const (
	kLower byte = iota + 1 // lowercase or caseless letter
	kUpper                 // was uppercase or titlecase before lowercasing
	kDigit
	kJoin  // '.', '-' or '_'
	kSlash // '/'
	kCont  // continuation byte of a multi-byte rune
)

// Word flags: what kinds of bytes a word holds, gathered while scanning so
// that the tokenizer can skip the splitting and checks a word cannot need.
const (
	fUpper    byte = 1 << iota // an uppercase or titlecase letter
	fDigit                     // a digit
	fJoin                      // a joiner or slash
	fNonASCII                  // a rune outside ASCII
)

// kApos marks the apostrophe in asciiKind; 0 there marks a separator.
const kApos byte = 0xFF

// asciiKind gives the kind each ASCII byte takes in a word. It has 256
// entries so any byte indexes it; bytes from 0x80 on are 0 and end the
// ASCII fast path.
var asciiKind = func() (t [256]byte) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = kLower
		t[c-'a'+'A'] = kUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = kDigit
	}
	t['.'], t['-'], t['_'] = kJoin, kJoin, kJoin
	t['/'] = kSlash
	t['\''] = kApos
	return t
}()

// sink receives what the scanner finds: words (lowercased, with a kind per
// byte, joiners trimmed from both ends) and runs of CJK characters (the
// run's UTF-8 and the byte offset where each of its characters starts).
type sink interface {
	word(low, kinds []byte)
	cjk(run []byte, starts []int)
}

// scanner splits text into words and CJK runs. Its buffers are reused from
// one word to the next, so a scan allocates only while they grow.
type scanner struct {
	low    []byte
	kinds  []byte
	run    []byte
	starts []int
	// letter is true when the last rune added to the word was a letter; an
	// apostrophe is elided only between two letters.
	letter bool
	flags  byte // of the current word
}

// scan feeds s to k. Invalid UTF-8 decodes to U+FFFD, a separator.
func (sc *scanner) scan(s string, k sink) {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
				sc.ascii(byte(r-0xFEE0), s, i, k)
			} else {
				sc.other(r, s, i, k)
			}
			continue
		}
		switch asciiKind[c] {
		case 0:
			if len(sc.low) != 0 || len(sc.run) != 0 {
				sc.flush(k)
			}
			for i++; i < len(s) && s[i] < utf8.RuneSelf && asciiKind[s[i]] == 0; i++ {
			}
			continue
		case kApos:
			i++
			sc.apostrophe(s, i, k)
			continue
		}
		// The fast path: a span of ASCII word bytes, copied at once and
		// lowercased in place.
		sc.endRun(k)
		j := i + 1
		for j < len(s) {
			if kd := asciiKind[s[j]]; kd == 0 || kd == kApos {
				break
			}
			j++
		}
		n := len(sc.low)
		sc.low = append(sc.low, s[i:j]...)
		sc.kinds = slices.Grow(sc.kinds, j-i)[:len(sc.low)]
		low, kinds := sc.low[n:], sc.kinds[n:]
		for p, b := range low {
			kd := asciiKind[b]
			kinds[p] = kd
			switch kd {
			case kUpper:
				low[p] = b + ('a' - 'A')
				sc.flags |= fUpper
			case kDigit:
				sc.flags |= fDigit
			case kJoin, kSlash:
				sc.flags |= fJoin
			}
		}
		last := kinds[len(kinds)-1]
		sc.letter = last == kLower || last == kUpper
		i = j
	}
	sc.flush(k)
}

// ascii handles one ASCII character that arrived as a fullwidth form;
// next is the offset just past it.
func (sc *scanner) ascii(c byte, s string, next int, k sink) {
	switch kd := asciiKind[c]; kd {
	case 0:
		sc.flush(k)
	case kApos:
		sc.apostrophe(s, next, k)
	default:
		sc.endRun(k)
		switch kd {
		case kUpper:
			c += 'a' - 'A'
			sc.flags |= fUpper
		case kDigit:
			sc.flags |= fDigit
		case kJoin, kSlash:
			sc.flags |= fJoin
		}
		sc.low = append(sc.low, c)
		sc.kinds = append(sc.kinds, kd)
		sc.letter = kd == kLower || kd == kUpper
	}
}

// other handles a rune outside ASCII; next is the offset just past it.
func (sc *scanner) other(r rune, s string, next int, k sink) {
	switch {
	case r == '\u2019': // right single quotation mark, the typographic apostrophe
		sc.apostrophe(s, next, k)
	case r >= 0x19B0 && r <= 0x19C9, r == 0x1CF2, r == 0x1CF3:
		// New Tai Lue vowel signs and two Vedic signs: letters in Go's
		// Unicode tables, marks in the older ones FTS5 uses. Dropped as
		// marks, or FTS5 would split the token there.
	case isCJKLetter(r):
		sc.endWord(k)
		sc.starts = append(sc.starts, len(sc.run))
		sc.run = utf8.AppendRune(sc.run, r)
	case unicode.IsLetter(r):
		sc.endRun(k)
		kind := kLower
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			kind = kUpper
		}
		sc.appendRune(fold(r), kind)
		sc.letter = true
	case unicode.IsDigit(r):
		sc.endRun(k)
		sc.appendRune(r, kDigit)
		sc.letter = false
	case unicode.Is(unicode.M, r):
		// A combining mark belongs to the letter before it. FTS5 would split
		// a token on it, so it is dropped and the word goes on.
	default:
		sc.flush(k)
	}
}

func (sc *scanner) appendRune(r rune, kind byte) {
	sc.flags |= fNonASCII
	switch kind {
	case kUpper:
		sc.flags |= fUpper
	case kDigit:
		sc.flags |= fDigit
	}
	n := len(sc.low)
	sc.low = utf8.AppendRune(sc.low, r)
	sc.kinds = append(sc.kinds, kind)
	for j := n + 1; j < len(sc.low); j++ {
		sc.kinds = append(sc.kinds, kCont)
	}
}

// apostrophe elides an apostrophe between two letters ("don't" → "dont")
// and treats any other as a separator.
func (sc *scanner) apostrophe(s string, next int, k sink) {
	if sc.letter && next < len(s) {
		r := rune(s[next])
		if r >= utf8.RuneSelf {
			r, _ = utf8.DecodeRuneInString(s[next:])
		}
		if r < utf8.RuneSelf {
			if kd := asciiKind[r]; kd == kLower || kd == kUpper {
				return
			}
		} else if unicode.IsLetter(r) && !isCJK(r) {
			return
		}
	}
	sc.flush(k)
}

func (sc *scanner) flush(k sink) {
	sc.endWord(k)
	sc.endRun(k)
}

// endWord hands the current word to k, joiners trimmed, and resets it.
func (sc *scanner) endWord(k sink) {
	sc.letter = false
	if len(sc.low) == 0 {
		return
	}
	a, b := 0, len(sc.low)
	for a < b && isJoiner(sc.kinds[a]) {
		a++
	}
	for b > a && isJoiner(sc.kinds[b-1]) {
		b--
	}
	if a < b {
		k.word(sc.low[a:b], sc.kinds[a:b])
	}
	sc.low, sc.kinds, sc.flags = sc.low[:0], sc.kinds[:0], 0
}

func (sc *scanner) endRun(k sink) {
	if len(sc.run) == 0 {
		return
	}
	k.cjk(sc.run, sc.starts)
	sc.run, sc.starts = sc.run[:0], sc.starts[:0]
}

func isJoiner(kind byte) bool { return kind == kJoin || kind == kSlash }

// isCJKLetter reports whether r is a CJK letter, deciding the common
// blocks without a Unicode table search.
func isCJKLetter(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, // CJK unified ideographs
		r >= 0x3041 && r <= 0x3096,                             // Hiragana
		r >= 0x30A1 && r <= 0x30FA, r >= 0x30FC && r <= 0x30FF, // Katakana
		r >= 0xAC00 && r <= 0xD7A3: // Hangul syllables
		return true
	}
	return isCJK(r) && unicode.IsLetter(r)
}

// isCJK reports whether the letter r is Han, Hiragana, Katakana or Hangul
// (Bopomofo rides along: it sits in the same blocks and is Chinese too).
// Only letters are asked, so symbol blocks inside the ranges do no harm.
func isCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r <= 0x11FF: // Hangul Jamo
		return true
	case r < 0x2E80:
		return false
	case r <= 0x9FFF: // kana, Bopomofo, Hangul compatibility Jamo, CJK ideographs and extension A
		return true
	case r >= 0xA960 && r <= 0xA97F: // Hangul Jamo extended-A
		return true
	case r >= 0xAC00 && r <= 0xD7FF: // Hangul syllables, Jamo extended-B
		return true
	case r >= 0xF900 && r <= 0xFAFF: // CJK compatibility ideographs
		return true
	case r >= 0xFF66 && r <= 0xFFDC: // halfwidth Katakana and Hangul
		return true
	case r >= 0x1AFF0 && r <= 0x1B16F: // kana supplement and extensions
		return true
	case r >= 0x20000 && r <= 0x3FFFF: // CJK extensions B and later
		return true
	}
	return false
}

// fold maps a letter to the form FTS5's unicode61 tokenizer stores: the
// lowercase of its uppercase, so that "ς" and "ſ" become "σ" and "s"
// as they do inside SQLite, and a token reads back exactly as written.
func fold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

package jsonscan

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Lines are read with this small JSON reader rather than encoding/json,
// which checks every line in full, then scans it again to decode it, and
// copies each field before the importer has even looked at it. Here a line
// is checked once; the members the importer asks for are then found by
// skipping over the others, and only the strings it keeps are decoded. It
// accepts exactly what encoding/json accepts and decodes strings the way
// encoding/json does (invalid UTF-8 and lone surrogates become U+FFFD), so
// what is imported does not change.

// maxNesting is encoding/json's limit on nested arrays and objects.
const maxNesting = 10000

// Valid reports whether data is one JSON value, optionally surrounded
// by whitespace.
func Valid(data []byte) bool {
	end, ok := ScanValue(data, SkipSpace(data, 0), 0)
	return ok && SkipSpace(data, end) == len(data)
}

func SkipSpace(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// ScanValue checks the value that starts at d[i], inside depth containers,
// and returns where it ends.
func ScanValue(d []byte, i, depth int) (int, bool) {
	if i >= len(d) {
		return i, false
	}
	switch c := d[i]; c {
	case '"':
		return scanString(d, i)
	case '{':
		return scanObject(d, i, depth+1)
	case '[':
		return scanArray(d, i, depth+1)
	case 't':
		return scanLiteral(d, i, "true")
	case 'f':
		return scanLiteral(d, i, "false")
	case 'n':
		return scanLiteral(d, i, "null")
	default:
		if c == '-' || isDigit(c) {
			return scanNumber(d, i)
		}
		return i, false
	}
}

func scanObject(d []byte, i, depth int) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i = SkipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	var ok bool
	for {
		if i >= len(d) || d[i] != '"' {
			return i, false
		}
		if i, ok = scanString(d, i); !ok {
			return i, false
		}
		i = SkipSpace(d, i)
		if i >= len(d) || d[i] != ':' {
			return i, false
		}
		if i, ok = ScanValue(d, SkipSpace(d, i+1), depth); !ok {
			return i, false
		}
		i = SkipSpace(d, i)
		if i >= len(d) {
			return i, false
		}
		switch d[i] {
		case ',':
			i = SkipSpace(d, i+1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func scanArray(d []byte, i, depth int) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i = SkipSpace(d, i+1)
	if i < len(d) && d[i] == ']' {
		return i + 1, true
	}
	var ok bool
	for {
		if i, ok = ScanValue(d, i, depth); !ok {
			return i, false
		}
		i = SkipSpace(d, i)
		if i >= len(d) {
			return i, false
		}
		switch d[i] {
		case ',':
			i = SkipSpace(d, i+1)
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func scanLiteral(d []byte, i int, lit string) (int, bool) {
	if !bytes.HasPrefix(d[i:], []byte(lit)) {
		return i, false
	}
	return i + len(lit), true
}

func scanNumber(d []byte, i int) (int, bool) {
	if d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return i, false
	case d[i] == '0':
		i++
	case isDigit(d[i]):
		i = skipDigits(d, i+1)
	default:
		return i, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return i, false
		}
		i = skipDigits(d, i+1)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return i, false
		}
		i = skipDigits(d, i+1)
	}
	return i, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func skipDigits(d []byte, i int) int {
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i
}

func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Masks for testing eight string bytes at a time.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// plainWord reports whether none of the eight bytes in w ends a string,
// starts an escape or is a control character.
func plainWord(w uint64) bool {
	q := w ^ (lowBits * '"')
	b := w ^ (lowBits * '\\')
	return ((w-lowBits*0x20)&^w|(q-lowBits)&^q|(b-lowBits)&^b)&highBits == 0
}

// scanString checks the string that starts at d[i] and returns where it
// ends. Bytes of any value above 0x1F are accepted, as encoding/json does.
func scanString(d []byte, i int) (int, bool) {
	i++
	for {
		for i+8 <= len(d) && plainWord(binary.LittleEndian.Uint64(d[i:])) {
			i += 8
		}
		if i >= len(d) {
			return i, false
		}
		switch c := d[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(d) {
				return i, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) || !isHex(d[i+5]) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
}

// The functions below walk data already known to be valid JSON. They stay
// in bounds whatever they are given, but only valid input gives a
// meaningful answer.

// ValueEnd returns where the value that starts at d[i] ends.
func ValueEnd(d []byte, i int) int {
	if i >= len(d) {
		return len(d)
	}
	switch d[i] {
	case '"':
		return stringEnd(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			switch d[i] {
			case '"':
				i = stringEnd(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(d)
	}
	for i < len(d) {
		switch d[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return len(d)
}

// stringEnd returns the index just past the string that starts at d[i]: the
// first quote not escaped by an odd run of backslashes.
func stringEnd(d []byte, i int) int {
	start := i + 1
	i = start
	for {
		j := bytes.IndexByte(d[i:], '"')
		if j < 0 {
			return len(d)
		}
		i += j
		k := i
		for k > start && d[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i + 1
		}
		i++
	}
}

// Members walks the Members of an object.
type Members struct {
	d []byte
	i int
}

// MembersOf starts walking obj, which must begin with '{'.
func MembersOf(obj []byte) Members {
	return Members{d: obj, i: 1}
}

// next returns the next member: its key as written (quotes included) and
// its value.
func (m *Members) Next() (key, val []byte, ok bool) {
	d := m.d
	i := SkipSpace(d, m.i)
	if i < len(d) && d[i] == ',' {
		i = SkipSpace(d, i+1)
	}
	if i >= len(d) || d[i] != '"' {
		return nil, nil, false
	}
	end := stringEnd(d, i)
	if end-i < 2 {
		return nil, nil, false
	}
	key = d[i:end]
	i = SkipSpace(d, end)
	if i >= len(d) || d[i] != ':' {
		return nil, nil, false
	}
	i = SkipSpace(d, i+1)
	end = ValueEnd(d, i)
	if end == i {
		return nil, nil, false
	}
	m.i = end
	return key, d[i:end], true
}

// Elements walks the items of an array.
type Elements struct {
	d []byte
	i int
}

// ElementsOf starts walking arr, which must begin with '['.
func ElementsOf(arr []byte) Elements {
	return Elements{d: arr, i: 1}
}

// next returns the next item.
func (e *Elements) Next() ([]byte, bool) {
	d := e.d
	i := SkipSpace(d, e.i)
	if i < len(d) && d[i] == ',' {
		i = SkipSpace(d, i+1)
	}
	if i >= len(d) || d[i] == ']' {
		return nil, false
	}
	end := ValueEnd(d, i)
	if end == i {
		return nil, false
	}
	e.i = end
	return d[i:end], true
}

// Unquote decodes a JSON string, quotes included, as encoding/json does.
func Unquote(s []byte) string {
	if len(s) < 2 {
		return ""
	}
	s = s[1 : len(s)-1]
	i := plainRun(s, 0)
	if i == len(s) || bytes.IndexByte(s[i:], '\\') < 0 && utf8.Valid(s[i:]) {
		return string(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	b.Write(s[:i])
	for {
		j := plainRun(s, i)
		b.Write(s[i:j])
		i = j
		if i >= len(s) {
			return b.String()
		}
		if c := s[i]; c != '\\' {
			// Non-ASCII text: kept when it is valid UTF-8.
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteRune(utf8.RuneError)
			} else {
				b.Write(s[i : i+size])
			}
			i += size
			continue
		}
		if i+1 >= len(s) {
			return b.String() // not valid JSON: cannot happen here
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(s[i-2:])
			if r < 0 {
				return b.String() // not valid JSON: cannot happen here
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// A valid pair is one rune; anything else is U+FFFD and
				// the next escape is read on its own.
				if pair := utf16.DecodeRune(r, hex4(s[i:])); pair != utf8.RuneError {
					r = pair
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte(e)
		}
	}
}

// plainRun returns the index of the first backslash or non-ASCII byte in
// s at or after i, or len(s).
func plainRun(s []byte, i int) int {
	for i+8 <= len(s) {
		w := binary.LittleEndian.Uint64(s[i:])
		bs := w ^ (lowBits * '\\')
		if ((bs-lowBits)&^bs|w)&highBits != 0 {
			break
		}
		i += 8
	}
	for i < len(s) && s[i] != '\\' && s[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// hex4 reads the escape \uXXXX at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case isDigit(c):
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

package corpus

import (
	"strconv"
	"unicode/utf8"
)

// enc appends one JSON value with fields in the order they are written,
// which encoding/json cannot promise for maps and which keeps output
// byte-identical across runs. Like the clients it imitates, it leaves <, >
// and & unescaped.
type enc struct {
	b     []byte
	first []bool // per open container: nothing written in it yet
}

func (e *enc) reset() {
	e.b = e.b[:0]
	e.first = e.first[:0]
}

// sep writes the comma before a container's next member.
func (e *enc) sep() {
	n := len(e.first)
	if n == 0 {
		return
	}
	if !e.first[n-1] {
		e.b = append(e.b, ',')
	}
	e.first[n-1] = false
}

func (e *enc) key(k string) {
	e.sep()
	e.b = appendQuoted(e.b, k)
	e.b = append(e.b, ':')
}

// open starts an object as the next array element (or the top value).
func (e *enc) open() {
	e.sep()
	e.b = append(e.b, '{')
	e.first = append(e.first, true)
}

func (e *enc) close() {
	e.b = append(e.b, '}')
	e.first = e.first[:len(e.first)-1]
}

func (e *enc) closeArr() {
	e.b = append(e.b, ']')
	e.first = e.first[:len(e.first)-1]
}

// obj starts an object-valued field.
func (e *enc) obj(k string) {
	e.key(k)
	e.b = append(e.b, '{')
	e.first = append(e.first, true)
}

// arr starts an array-valued field.
func (e *enc) arr(k string) {
	e.key(k)
	e.b = append(e.b, '[')
	e.first = append(e.first, true)
}

func (e *enc) str(k, v string) {
	e.key(k)
	e.b = appendQuoted(e.b, v)
}

// strElem appends a string array element.
func (e *enc) strElem(v string) {
	e.sep()
	e.b = appendQuoted(e.b, v)
}

func (e *enc) num(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *enc) float(k string, v float64) {
	e.key(k)
	e.b = strconv.AppendFloat(e.b, v, 'f', -1, 64)
}

func (e *enc) boolean(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
}

func (e *enc) null(k string) {
	e.key(k)
	e.b = append(e.b, "null"...)
}

// raw writes a value that is already JSON.
func (e *enc) raw(k string, v []byte) {
	e.key(k)
	e.b = append(e.b, v...)
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as it would in any real client's output.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, `\ufffd`...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

package redact

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// RedactJSON redacts every string value of a JSON document and returns it
// with the number of replacements, using the Default redactor.
func RedactJSON(raw []byte) ([]byte, int) { return Default().RedactJSON(raw) }

// RedactJSON redacts every string value of a JSON document. Values are
// decoded before they are scanned, so escapes hide nothing, and a value
// whose member key names a secret ({"password": "…"}) is judged by the
// assignment rule as a quoted value. Keys, numbers and layout are kept
// byte for byte; only changed strings are re-encoded. A document that is
// not valid JSON is redacted as plain text. When nothing changes, raw
// itself is returned.
func (r *Redactor) RedactJSON(raw []byte) ([]byte, int) {
	out, n, ok := r.redactJSON(string(raw))
	if !ok {
		text, k := r.Redact(string(raw))
		if k == 0 {
			return raw, 0
		}
		// A redacted span can swallow what made the text invalid; then the
		// result is a document, and a second look must not change it.
		if out, n, ok = r.redactJSON(text); ok && n > 0 {
			return out, k + n
		}
		return []byte(text), k
	}
	if n == 0 {
		return raw, 0
	}
	return out, n
}

// redactJSON walks src as JSON; ok is false when src is not a document,
// and out is nil when nothing changed.
func (r *Redactor) redactJSON(src string) (out []byte, n int, ok bool) {
	w := jsonWalker{r: r, src: src}
	i, ok := w.value(0, "", 0)
	if !ok || w.ws(i) != len(src) {
		return nil, 0, false
	}
	if w.out == nil {
		return nil, 0, true
	}
	return append(w.out, src[w.last:]...), w.count, true
}

// maxDepth matches encoding/json's nesting limit.
const maxDepth = 10000

// jsonWalker validates a document and redacts its string values in one
// pass. out stays nil until a value changes; last is how far src has been
// copied to it.
type jsonWalker struct {
	r     *Redactor
	src   string
	out   []byte
	last  int
	count int
}

func (w *jsonWalker) ws(i int) int {
	for i < len(w.src) {
		switch w.src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value walks the value at or after i; key is its member name ("" in an
// array or at the top). It returns the index after the value.
func (w *jsonWalker) value(i int, key string, depth int) (int, bool) {
	i = w.ws(i)
	if i >= len(w.src) {
		return i, false
	}
	switch c := w.src[i]; c {
	case '{', '[':
		if depth >= maxDepth {
			return i, false
		}
		if c == '{' {
			return w.object(i+1, depth+1)
		}
		return w.array(i+1, depth+1)
	case '"':
		end, ok := w.str(i)
		if ok {
			w.visit(i, end, key)
		}
		return end + 1, ok
	case 't':
		return w.literal(i, "true")
	case 'f':
		return w.literal(i, "false")
	case 'n':
		return w.literal(i, "null")
	default:
		return w.number(i)
	}
}

func (w *jsonWalker) object(i, depth int) (int, bool) {
	i = w.ws(i)
	if i < len(w.src) && w.src[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(w.src) || w.src[i] != '"' {
			return i, false
		}
		end, ok := w.str(i)
		if !ok {
			return i, false
		}
		key := decodeJSONString(w.src[i : end+1])
		i = w.ws(end + 1)
		if i >= len(w.src) || w.src[i] != ':' {
			return i, false
		}
		if i, ok = w.value(i+1, key, depth); !ok {
			return i, false
		}
		i = w.ws(i)
		if i >= len(w.src) {
			return i, false
		}
		switch w.src[i] {
		case ',':
			i = w.ws(i + 1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func (w *jsonWalker) array(i, depth int) (int, bool) {
	i = w.ws(i)
	if i < len(w.src) && w.src[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = w.value(i, "", depth); !ok {
			return i, false
		}
		i = w.ws(i)
		if i >= len(w.src) {
			return i, false
		}
		switch w.src[i] {
		case ',':
			i++
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// str validates the string opening at src[i] and returns the index of its
// closing quote.
func (w *jsonWalker) str(i int) (int, bool) {
	s := w.src
	for k := i + 1; k < len(s); k++ {
		switch c := s[k]; {
		case c == '"':
			return k, true
		case c < 0x20:
			return k, false
		case c == '\\':
			if k+1 >= len(s) {
				return k, false
			}
			switch s[k+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				k++
			case 'u':
				if k+6 > len(s) || csHexAny.span(s, k+2, 4) != 4 {
					return k, false
				}
				k += 5
			default:
				return k, false
			}
		}
	}
	return len(s), false
}

func (w *jsonWalker) literal(i int, lit string) (int, bool) {
	return i + len(lit), strings.HasPrefix(w.src[i:], lit)
}

// number checks -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?.
func (w *jsonWalker) number(i int) (int, bool) {
	s := w.src
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i += csDigits.span(s, i, len(s))
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		n := csDigits.span(s, i+1, len(s))
		if n == 0 {
			return i, false
		}
		i += 1 + n
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := csDigits.span(s, i, len(s))
		if n == 0 {
			return i, false
		}
		i += n
	}
	return i, true
}

// visit redacts the string value src[i:end+1].
func (w *jsonWalker) visit(i, end int, key string) {
	text := decodeJSONString(w.src[i : end+1])
	nv, n := w.r.redactValue(key, text)
	if n == 0 {
		return
	}
	if w.out == nil {
		w.out = make([]byte, 0, len(w.src)+64)
	}
	w.out = append(w.out, w.src[w.last:i]...)
	w.out = appendJSONString(w.out, nv)
	w.last = end + 1
	w.count += n
}

// redactValue redacts one decoded string value whose member key is key
// ("" in an array or at the top).
func (r *Redactor) redactValue(key, v string) (string, int) {
	out, n := r.Redact(v)
	if key == "" || out == "" {
		return out, n
	}
	// Judged after the scan, so that a second pass sees what the first left.
	if kind, class, _, ok := keyKind(key); ok && plausible(out, class, true, envKey(key)) {
		return Marker(kind), 1
	}
	return out, n
}

// decodeJSONString decodes a quoted JSON string that the walker accepted;
// most have no escapes and are returned as a substring.
func decodeJSONString(q string) string {
	body := q[1 : len(q)-1]
	i := strings.IndexByte(body, '\\')
	if i < 0 {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	b.WriteString(body[:i])
	for i < len(body) {
		c := body[i]
		if c != '\\' {
			j := strings.IndexByte(body[i:], '\\')
			if j < 0 {
				j = len(body) - i
			}
			b.WriteString(body[i : i+j])
			i += j
			continue
		}
		e := body[i+1]
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
			r := hex4(body[i:])
			i += 4
			if utf16.IsSurrogate(r) && i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
				if r2 := utf16.DecodeRune(r, hex4(body[i+2:])); r2 != utf8.RuneError {
					r = r2
					i += 6
				}
			}
			b.WriteRune(r) // a lone surrogate becomes U+FFFD
		default: // " \ /
			b.WriteByte(e)
		}
	}
	return b.String()
}

func hex4(s string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// appendJSONString encodes v as a JSON string, escaping only what JSON
// requires (and U+2028/U+2029, which break JavaScript), and writing invalid
// UTF-8 as U+FFFD.
func appendJSONString(b []byte, v string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, v[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

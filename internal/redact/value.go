package redact

import "strings"

// maxValue bounds the length of an assignment value.
const maxValue = 1024

var csIdent = newCharset("A-Za-z_")

// valueClass says how a value is judged: as a password (any literal will
// do) or as a token (it must look machine-made).
type valueClass uint8

const (
	classPassword valueClass = iota
	classToken
)

// value returns the span of the value starting at j and whether it was
// quoted. An empty span means none.
func value(s string, j int) (vs, ve int, quoted bool) {
	n := len(s)
	if j >= n {
		return j, j, false
	}
	switch q := s[j]; q {
	case '"', '\'', '`':
		for k := j + 1; k < n && k-j <= maxValue; k++ {
			switch s[k] {
			case q:
				return j + 1, k, true
			case '\n', '\r':
				return j, j, false
			case '\\':
				k++
			}
		}
		return j, j, false
	case '\\':
		if j+1 < n && s[j+1] == '"' { // \"value\" in JSON-escaped text
			if k := strings.Index(s[j+2:min(n, j+2+maxValue)], `\"`); k > 0 {
				return j + 2, j + 2 + k, true
			}
		}
		return j, j, false
	}
	k := j
	for k < n && k-j < maxValue {
		if c := s[k]; valueStop[c] {
			// & and ; end a value only before another key=, as in a query
			// string or a connection string; otherwise they are part of it.
			if (c != '&' && c != ';') || nextParam(s, k+1) {
				break
			}
		}
		k++
	}
	for k > j && (s[k-1] == '.' || s[k-1] == ',' || s[k-1] == ':') {
		k--
	}
	return j, k, false
}

// nextParam reports whether s[i:] starts with a key and '='.
func nextParam(s string, i int) bool {
	n := csWordDot.span(s, i, 64)
	return n == 0 || (i+n < len(s) && s[i+n] == '=')
}

// valueStop ends a bare value.
var valueStop = func() *charset {
	cs := newCharset("\"'`,;&)]}<>|\\")
	for c := 0; c <= ' '; c++ {
		cs[c] = true
	}
	for c := 0x7f; c < 0x100; c++ {
		cs[c] = true
	}
	return cs
}()

// plausible applies the value rule described in assign.go.
func plausible(v string, class valueClass, quoted, env bool) bool {
	if len(v) < 4 || len(v) > maxValue || placeholder(v) || strings.Contains(v, "://") {
		return false // URLs are the URL rule's business
	}
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] == 0x7f {
			return false
		}
	}
	sh := shapeOf(v)
	if !quoted {
		if codeExpr(v) {
			return false
		}
		if !env && csIdent.span(v, 0, len(v)) == len(v) {
			return false // a bare identifier
		}
	}
	if class == classPassword {
		return env || sh.digit > 0 || sh.symbol > 0
	}
	return len(v) >= 8 && tokenShape(v)
}

// tokenShape reports whether v looks machine-made rather than a word.
func tokenShape(v string) bool {
	sh := shapeOf(v)
	if sh.letters() > 0 && sh.digit > 0 && sh.distinct >= 6 {
		return true
	}
	return sh.upper > 0 && sh.lower > 0 && len(v) >= 16 && sh.distinct >= 8
}

// codeExpr reports whether a bare value is an expression rather than a
// literal.
func codeExpr(v string) bool {
	switch v[0] {
	case '!', '*', '&', '@':
		return true
	}
	if strings.ContainsAny(v, "([") {
		return true
	}
	if !strings.Contains(v, ".") {
		return false
	}
	for _, seg := range strings.Split(v, ".") {
		if seg == "" || isDigit(seg[0]) || csAlnumU.span(seg, 0, len(seg)) != len(seg) {
			return false
		}
	}
	return true
}

// placeholder reports values that stand for a secret without being one.
func placeholder(v string) bool {
	switch v[0] {
	case '$', '<', '{', '[', '%':
		return true
	}
	if strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "$(") || maskLike(v) {
		return true
	}
	var buf [48]byte
	w := buf[:0]
	for i := 0; i < len(v) && len(w) < cap(w); i++ {
		c := lower(v[i])
		if ('a' <= c && c <= 'z') || isDigit(c) {
			w = append(w, c)
		}
	}
	word := string(w)
	if stockWords[word] {
		return true
	}
	for _, x := range []string{"placeholder", "changeme", "changeit", "redacted", "example", "replace", "dummy", "sample"} {
		if strings.Contains(word, x) {
			return true
		}
	}
	if strings.HasPrefix(word, "your") || strings.HasSuffix(word, "here") {
		return true
	}
	if strings.HasPrefix(word, "my") {
		for _, x := range []string{"pass", "secret", "token", "key"} {
			if strings.Contains(word, x) {
				return true
			}
		}
	}
	return false
}

var stockWords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "secret": true, "token": true,
	"apikey": true, "key": true, "value": true, "test": true, "testing": true, "demo": true,
	"foo": true, "bar": true, "foobar": true, "null": true, "nil": true, "none": true,
	"undefined": true, "true": true, "false": true, "yes": true, "no": true, "empty": true,
	"required": true, "optional": true, "string": true, "str": true, "text": true,
	"hidden": true, "masked": true, "default": true, "secretstr": true, "bytes": true,
}

// maskLike reports masks such as ****, xxxx, •••• and truncations (ab...yz).
func maskLike(v string) bool {
	for _, m := range []string{"***", "xxxx", "XXXX", "...", "…", "•"} {
		if strings.Contains(v, m) {
			return true
		}
	}
	return strings.Trim(v, "xX*-_.") == ""
}

package redact

import (
	"encoding/base64"
	"strings"
)

// maxAuthority bounds the userinfo and host part of a URL.
const maxAuthority = 512

// urlPassword handles scheme://user:password@host, the shape of database,
// broker and cache connection strings and of git remotes with a token. Only
// the password is replaced, so the host and user stay useful. i is just
// after the "://".
func (sc *scanner) urlPassword(i int) {
	s := sc.s
	at := -1
	lim := min(len(s), i+maxAuthority)
	k := i
loop:
	for ; k < lim; k++ {
		switch s[k] {
		case '@':
			at = k
		case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '\\':
			break loop
		}
	}
	if at < 0 {
		return
	}
	colon := userColon(s[i:at])
	if colon < 0 {
		return
	}
	pw := s[i+colon+1 : at]
	if pw == "" || urlPlaceholder(pw) {
		return
	}
	sc.add("url-password", i+colon+1, at, prioContext)
}

// userColon finds the colon that splits user from password, stepping over
// the colon inside a marker left by an earlier pass.
func userColon(u string) int {
	for k := 0; k < len(u); k++ {
		switch {
		case u[k] == ':':
			return k
		case strings.HasPrefix(u[k:], "[REDACTED:"):
			j := strings.IndexByte(u[k:], ']')
			if j < 0 {
				return -1
			}
			k += j
		}
	}
	return -1
}

// urlPlaceholder keeps documentation URLs such as
// postgres://user:password@localhost and templated ones such as
// redis://:${REDIS_PASSWORD}@cache readable.
func urlPlaceholder(pw string) bool {
	switch pw[0] {
	case '$', '<', '{', '[', '*':
		return true
	}
	if maskLike(pw) {
		return true
	}
	switch strings.ToLower(pw) {
	case "password", "passwd", "pass", "pwd", "secret", "pw", "token":
		return true
	}
	return false
}

// authHeader handles "Bearer <token>" and "Basic <base64 user:password>",
// the two Authorization schemes that carry a credential inline. s[a:e] is
// the scheme word and s[e] a space.
func (sc *scanner) authHeader(a, e int) {
	s := sc.s
	word := s[a:e]
	bearer := equalFold(word, "bearer")
	if !bearer && !equalFold(word, "basic") {
		return
	}
	j := e
	for j < len(s) && j-e < 4 && s[j] == ' ' {
		j++
	}
	n := csBearer.span(s, j, 4096)
	v := s[j : j+n]
	if bearer {
		for len(v) > 0 && v[len(v)-1] == '.' {
			v = v[:len(v)-1]
		}
		if len(v) < 12 || placeholder(v) || !tokenShape(v) {
			return
		}
		sc.add("bearer-token", j, j+len(v), prioContext)
		return
	}
	if basicCredential(v) {
		sc.add("basic-auth", j, j+len(v), prioContext)
	}
}

// basicCredential reports whether v is base64 of a printable "user:pass".
func basicCredential(v string) bool {
	if len(v) < 8 || csBase64.span(v, 0, len(v)) != len(v) {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(v)
		if err != nil {
			return false
		}
	}
	if len(raw) < 3 || strings.IndexByte(string(raw), ':') < 0 {
		return false
	}
	for _, c := range raw {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

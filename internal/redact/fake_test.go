package redact

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// Test values are written as templates so that no file in this package
// holds a credential-shaped literal (which would trip secret scanners such
// as GitHub push protection):
//
//	{{ghp_|an:36}}   the prefix "ghp_" and 36 random alphanumerics
//	{{|hx:40}}       40 random lower-case hex digits
//	{{BEGIN RSA}}    -----BEGIN RSA PRIVATE KEY----- (and {{END RSA}})
//
// The bytes come from a generator seeded by the text itself, so every run
// sees the same values.
//
// Expected secrets are marked «kind|secret»; marks are removed before the
// text is scanned and their spans are what a rule must cover.

var fakeCharsets = map[string]string{
	"an":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"hx":  "0123456789abcdef",
	"HX":  "0123456789ABCDEF",
	"b32": "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
	"w":   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
	"b64": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"d":   "0123456789",
	"l":   "abcdefghijklmnopqrstuvwxyz",
	"u":   "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"L":   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"ld":  "abcdefghijklmnopqrstuvwxyz0123456789",
	"ud":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	"bc":  "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
}

// expand replaces the templates in s; other {{…}} text is kept.
func expand(t testing.TB, s string) string {
	t.Helper()
	h := fnv.New64a()
	h.Write([]byte(s))
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			t.Fatalf("unclosed template in %q", s)
		}
		b.WriteString(s[:i])
		b.WriteString(fake(t, rng, s[i+2:i+j]))
		s = s[i+j+2:]
	}
}

func fake(t testing.TB, rng *rand.Rand, spec string) string {
	t.Helper()
	if label, ok := strings.CutPrefix(spec, "BEGIN"); ok {
		return pemArmor("BEGIN", label)
	}
	if label, ok := strings.CutPrefix(spec, "END"); ok {
		return pemArmor("END", label)
	}
	prefix, gen, ok := strings.Cut(spec, "|")
	cs, n, ok2 := strings.Cut(gen, ":")
	chars := fakeCharsets[cs]
	count, err := strconv.Atoi(n)
	if !ok || !ok2 || chars == "" || err != nil {
		return "{{" + spec + "}}" // not ours: {{ secrets.X }} and the like
	}
	b := []byte(prefix)
	for range count {
		b = append(b, chars[rng.IntN(len(chars))])
	}
	return string(b)
}

func pemArmor(word, label string) string {
	label = strings.TrimSpace(label)
	if label != "" {
		label += " "
	}
	return fmt.Sprintf("-----%s %sPRIVATE KEY-----", word, label)
}

// mark is one expected secret.
type mark struct {
	kind       string
	start, end int
}

// parseMarks removes «kind|secret» marks from s and returns the text and
// the marks.
func parseMarks(t testing.TB, s string) (string, []mark) {
	t.Helper()
	var b strings.Builder
	var ms []mark
	for {
		i := strings.Index(s, "«")
		if i < 0 {
			b.WriteString(s)
			return b.String(), ms
		}
		j := strings.Index(s[i:], "»")
		bar := strings.Index(s[i:], "|")
		if j < 0 || bar < 0 || bar > j {
			t.Fatalf("bad mark in %q", s)
		}
		b.WriteString(s[:i])
		kind := s[i+len("«") : i+bar]
		secret := s[i+bar+1 : i+j]
		ms = append(ms, mark{kind, b.Len(), b.Len() + len(secret)})
		b.WriteString(secret)
		s = s[i+j+len("»"):]
	}
}

// covers reports whether a finding of any kind covers m, and the kind of
// the first one that does.
func covers(fs []Finding, m mark) (string, bool) {
	for _, f := range fs {
		if f.Start <= m.start && f.End >= m.end {
			return f.Kind, true
		}
	}
	return "", false
}

func overlapsAny(f Finding, ms []mark) bool {
	for _, m := range ms {
		if f.Start < m.end && m.start < f.End {
			return true
		}
	}
	return false
}

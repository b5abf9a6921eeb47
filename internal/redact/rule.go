package redact

import "strings"

// Priorities decide the kind of overlapping findings: the more specific
// rule names the secret.
const (
	prioAssignment int8 = iota // key = value with a generic key
	prioProvider               // key = value with a provider-named key
	prioContext                // URL password, Authorization header
	prioToken                  // a self-describing token shape
)

// rule is one token shape. The scanner offers it every run of word bytes
// that starts with one of first, is at least minRun long and, when after is
// set, is followed by that byte. match reports the secret's span, or end < 0.
type rule struct {
	kind   string
	first  string
	after  byte
	minRun int
	match  func(s string, a, e int) (start, end int)
}

// prefixRule is the common shape: a literal prefix, then a body of bytes
// from one class with bounded length, not touching another word byte.
type prefixRule struct {
	prefix   string
	body     *charset
	min, max int
	// check, when set, vets the body (after the prefix).
	check func(body string) bool
}

// rule turns p into a rule. A prefix holding a non-word byte (ya29., SG.)
// is dispatched on the run before that byte and the byte itself.
func (p prefixRule) rule(kind string) *rule {
	r := &rule{kind: kind, first: p.prefix[:1]}
	w := csWord.span(p.prefix, 0, len(p.prefix))
	switch {
	case w < len(p.prefix):
		r.after = p.prefix[w]
		r.minRun = w
	case p.body.subsetOf(csWord):
		r.minRun = len(p.prefix) + p.min
	default:
		r.minRun = len(p.prefix)
	}
	r.match = p.match
	return r
}

func (p prefixRule) match(s string, a, _ int) (int, int) {
	if !strings.HasPrefix(s[a:], p.prefix) {
		return 0, -1
	}
	j := a + len(p.prefix)
	k := j + p.body.span(s, j, p.max+1)
	if p.body['.'] {
		for k > j && s[k-1] == '.' { // a sentence's full stop
			k--
		}
	}
	if n := k - j; n < p.min || n > p.max {
		return 0, -1
	}
	if k < len(s) && isWord(s[k]) {
		return 0, -1
	}
	body := s[j:k]
	if len(body) >= 16 && shapeOf(body).distinct < 3 { // xxxx…, 0000…
		return 0, -1
	}
	if p.check != nil && !p.check(body) {
		return 0, -1
	}
	return a, k
}

// Checks shared by several prefix rules.
func mixedCase(b string) bool {
	sh := shapeOf(b)
	return sh.upper > 0 && sh.lower > 0
}

func hasDigit(b string) bool { return shapeOf(b).digit > 0 }

func lettersAndDigits(b string) bool {
	sh := shapeOf(b)
	return sh.letters() > 0 && sh.digit > 0
}

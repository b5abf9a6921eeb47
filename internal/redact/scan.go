package redact

// scanner walks one text once. It splits the text into maximal runs of
// word bytes ([A-Za-z0-9_-]) and offers each run to the rules that could
// start there; a byte outside every run costs one table lookup.
type scanner struct {
	r    *Redactor
	s    string
	hits []hit
	// valueEnd is the end of the last assignment value redacted.
	valueEnd int
	// markers are the [REDACTED:…] markers already in the text.
	markers []seg
}

// add records a hit.
func (sc *scanner) add(kind string, start, end int, prio int8) {
	sc.hits = append(sc.hits, hit{start: start, end: end, kind: kind, prio: prio})
}

// run scans the whole text.
func (sc *scanner) run() {
	s := sc.s
	n := len(s)
	for i := 0; i < n; {
		if !csWord[s[i]] {
			i++
			continue
		}
		a := i
		for i < n && csWord[s[i]] {
			i++
		}
		if end := sc.atRun(a, i); end > i {
			i = end
		}
	}
}

// escapeTail reports how many bytes at s[a:] finish an escape sequence
// whose backslash is s[a-1]: JSON-escaped text puts "\n" right before a
// token, and the n must not count as part of it.
func escapeTail(s string, a int) int {
	if a == 0 || s[a-1] != '\\' {
		return 0
	}
	switch s[a] {
	case 'n', 'r', 't', 'b', 'f':
		return 1
	case 'u':
		if a+5 <= len(s) && csHexAny.span(s, a+1, 4) == 4 {
			return 5
		}
	}
	return 0
}

// atRun offers the run s[a:e] to the rules. It returns the end of a token
// it took, so the scan resumes after it, or 0.
func (sc *scanner) atRun(a, e int) int {
	s := sc.s
	if end := markerAt(s, a, e); end > 0 {
		sc.markers = append(sc.markers, seg{a - 1, end})
		return end // a marker is opaque: its kind is not a key
	}
	if t := escapeTail(s, a); t > 0 {
		a += t
		if a >= e {
			return 0
		}
	}
	if end := sc.tryRules(&sc.r.byFirst, a, e); end > 0 {
		return end
	}
	if e == len(s) {
		return 0
	}
	c := s[e]
	if tbl := sc.r.byAfter[c]; tbl != nil {
		if end := sc.tryRules(tbl, a, e); end > 0 {
			return end
		}
	}
	switch c {
	case ':':
		if e+2 < len(s) && s[e+1] == '/' && s[e+2] == '/' {
			sc.urlPassword(e + 3)
			return 0
		}
	case ' ', '\t':
		if n := e - a; c == ' ' && (n == 5 || n == 6) {
			sc.authHeader(a, e)
		}
		// Most words are followed by a blank and another word: only an
		// operator after the blanks, or a key that takes a value after a
		// space, makes an assignment.
		k := skipBlanks(s, e, 8)
		if k < len(s) && s[k] != '=' && s[k] != ':' && !spaceKey(s[a:e]) {
			return 0
		}
	case '>':
		if a > 0 && s[a-1] == '<' {
			sc.element(a, e)
		}
		return 0
	case '=', '"', '\'', '\\', ']':
	default:
		return 0 // no operator can follow
	}
	if a >= sc.valueEnd {
		sc.assignment(a, e)
	}
	return 0
}

// tryRules offers the run s[a:e] to one dispatch table and records the
// first rule that matches.
func (sc *scanner) tryRules(d *dispatch, a, e int) int {
	n, c := e-a, sc.s[a]
	if n < d.minRun[c] {
		return 0
	}
	for _, rl := range d.rules[c] {
		if rl.minRun > n {
			continue
		}
		if start, end := rl.match(sc.s, a, e); end > 0 {
			sc.add(rl.kind, start, end, prioToken)
			return end
		}
	}
	return 0
}

package recall

import (
	"bytes"
	"path"
	"sort"
	"strconv"
	"strings"
)

// The tag an answer ends with when it used memory. It is cairn's own, so
// that it never collides with Codex's <oai-mem-citation>, which is left
// alone.
const (
	CiteOpen  = "<cairn-cite>"
	CiteClose = "</cairn-cite>"
)

const (
	citeName = "cairn-cite"
	oaiName  = "oai-mem-citation"
	// citeMaxPasses bounds the stripping passes. A real answer needs one
	// (and one more to see that nothing is left); only a text built to
	// defeat the stripper needs more, and then it is defused instead.
	citeMaxPasses = 8
)

// Citation is what an answer says it used from memory, in the order the
// answer names it, each item once.
type Citation struct {
	Refs  []Ref
	Vault []VaultRef
}

// Ref names one row the way the block labels it: a kind letter and an id.
type Ref struct {
	Kind byte // 'n' note, 'f' fact, 'e' episode, 'p' raw part, 'l' profile
	ID   int64
}

// String is the label the block shows: "n12", "f3".
func (r Ref) String() string {
	return string(rune(r.Kind)) + strconv.FormatInt(r.ID, 10)
}

// VaultRef names a file of the memory folder, and its lines when given
// (From and To are 0 for the whole file).
type VaultRef struct {
	Path     string
	From, To int
}

// String is the form a citation writes: "v:path#L10-L20".
func (v VaultRef) String() string {
	s := "v:" + v.Path
	switch {
	case v.From == 0:
	case v.From == v.To:
		s += "#L" + strconv.Itoa(v.From)
	default:
		s += "#L" + strconv.Itoa(v.From) + "-L" + strconv.Itoa(v.To)
	}
	return s
}

// ParseRef reads one label: "n12", "N12", "#12" (a note), "f3", "e4",
// "p123", "l1". The id must be positive and fit an int64.
func ParseRef(tok string) (Ref, bool) {
	if tok == "" {
		return Ref{}, false
	}
	kind := byte('n')
	if tok[0] == '#' {
		tok = tok[1:]
	} else {
		switch c := tok[0] | 0x20; c {
		case 'n', 'f', 'e', 'p', 'l':
			kind = c
			tok = strings.TrimPrefix(tok[1:], "#")
		default:
			return Ref{}, false
		}
	}
	id, ok := citeNumber(tok, 63)
	if !ok {
		return Ref{}, false
	}
	return Ref{Kind: kind, ID: id}, true
}

// ParseCitations finds cairn's citation tags in an answer, collects the
// refs they hold and returns the answer without them.
//
// A tag inside fenced or inline code, or inside a Codex <oai-mem-citation>
// block, is text, not a citation, and stays. Tags match case-insensitively
// and may carry attributes. An opening tag with no closing tag is a
// citation cut off with the answer when nothing but refs follows it on its
// paragraph; otherwise only the stray tag goes. Lines a tag stood on alone
// are removed with it, and the answer keeps no trailing blank lines.
func ParseCitations(text string) (clean string, c Citation) {
	var col citeCollector
	s := text
	for pass := 0; ; pass++ {
		if pass == citeMaxPasses {
			// Removing a tag can join its neighbours into a new one or
			// move a code span's edge; that chain is finite, but a
			// crafted one could make the passes quadratic.
			s = citeDefuse(s)
			break
		}
		out, changed := col.strip(s)
		if !changed {
			break
		}
		s = out
	}
	return s, col.cit
}

// citeCollector gathers refs once each, in order of first appearance.
type citeCollector struct {
	cit   Citation
	refs  map[Ref]bool
	vault map[VaultRef]bool
}

func (c *citeCollector) add(body string) {
	for _, tok := range strings.FieldsFunc(body, citeSeparator) {
		tok = strings.TrimRight(tok, ".:!?")
		if v, ok := parseVaultRef(tok); ok {
			if c.vault == nil {
				c.vault = map[VaultRef]bool{}
			}
			if !c.vault[v] {
				c.vault[v] = true
				c.cit.Vault = append(c.cit.Vault, v)
			}
			continue
		}
		if r, ok := ParseRef(tok); ok {
			if c.refs == nil {
				c.refs = map[Ref]bool{}
			}
			if !c.refs[r] {
				c.refs[r] = true
				c.cit.Refs = append(c.cit.Refs, r)
			}
		}
	}
}

func citeSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', ',', ';', '|', '<', '>', '(', ')',
		'[', ']', '{', '}', '"', '\'', '`', '*', '、', '，', '；', '\u00a0', '\u3000':
		return true
	}
	return false
}

// parseVaultRef reads "v:path", "v:path#L10" or "v:path#L10-L20". The path
// stays inside the memory folder: no absolute path, no "..".
func parseVaultRef(tok string) (VaultRef, bool) {
	if len(tok) < 3 || tok[0]|0x20 != 'v' || tok[1] != ':' {
		return VaultRef{}, false
	}
	p, anchor := tok[2:], ""
	if i := strings.LastIndexByte(p, '#'); i >= 0 {
		p, anchor = p[:i], p[i+1:]
	}
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, '\\') {
		return VaultRef{}, false
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return VaultRef{}, false
	}
	v := VaultRef{Path: p}
	// A heading anchor or a malformed range still names the file.
	if from, to, ok := citeLines(anchor); ok {
		v.From, v.To = from, to
	}
	return v, true
}

// citeLines reads "L10" or "L10-L20" (also "L10-20"); lines are positive,
// in either order.
func citeLines(a string) (int, int, bool) {
	if len(a) < 2 || a[0]|0x20 != 'l' {
		return 0, 0, false
	}
	a = a[1:]
	lo, hi, dash := a, "", strings.IndexByte(a, '-')
	if dash >= 0 {
		lo, hi = a[:dash], a[dash+1:]
		if hi != "" && hi[0]|0x20 == 'l' {
			hi = hi[1:]
		}
	}
	from, ok := citeNumber(lo, 31)
	if !ok {
		return 0, 0, false
	}
	to := from
	if dash >= 0 {
		if to, ok = citeNumber(hi, 31); !ok {
			return 0, 0, false
		}
	}
	if to < from {
		from, to = to, from
	}
	return int(from), int(to), true
}

// citeNumber reads a positive decimal of ASCII digits only (no sign) that
// fits in bits bits.
func citeNumber(s string, bits int) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, bits+1)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// citeTag is one opening or closing tag found in the text.
type citeTag struct {
	at, end     int // the tag is s[at:end]
	closing     bool
	selfClosing bool
}

// strip removes, once, every citation tag outside code, collecting the
// refs of each citation. It reports whether it removed anything.
func (c *citeCollector) strip(s string) (string, bool) {
	if citeFind(s, 0) < 0 {
		return s, false
	}
	prot := citeProtected(s)
	w := citeWriter{s: s, out: make([]byte, 0, len(s)), curBlank: true, prevBlank: true, nl: -1}
	found := false
	for pos := 0; ; {
		t, ok := citeNext(s, pos, prot)
		if !ok {
			break
		}
		found = true
		end := t.end
		if !t.closing && !t.selfClosing {
			n, ok := citeNext(s, t.end, prot)
			switch {
			case ok && n.closing:
				c.add(s[t.end:n.at])
				end = n.end
			case !ok && citeCutOff(s[t.end:]):
				c.add(s[t.end:])
				end = len(s)
			}
			// Otherwise another opening tag follows before any closing
			// one, or prose follows: the stray tag goes alone.
		}
		pos = w.cut(t.at, end)
	}
	if !found {
		return s, false
	}
	w.copyTo(len(s))
	clean := strings.TrimRight(string(w.out), " \t\r\n")
	if clean != "" {
		switch {
		case strings.HasSuffix(s, "\r\n"):
			clean += "\r\n"
		case strings.HasSuffix(s, "\n"):
			clean += "\n"
		}
	}
	return clean, true
}

// citeWriter copies the text around the tags it cuts, knowing at every
// point whether its current and previous lines are blank, so that tidying
// never scans back over long lines.
type citeWriter struct {
	s         string
	out       []byte
	last      int  // s[last:] is not copied yet
	ls        int  // out[ls:] is the current line
	curBlank  bool // out[ls:] is blank
	prevBlank bool // the line before out[ls:] is blank, or there is none
	nl        int  // a newline of s, or len(s), with none in s[last:nl]
}

// copyTo copies s[last:to] to out.
func (w *citeWriter) copyTo(to int) {
	chunk := w.s[w.last:to]
	if i := strings.LastIndexByte(chunk, '\n'); i < 0 {
		w.curBlank = w.curBlank && citeBlank(chunk)
	} else {
		if j := strings.LastIndexByte(chunk[:i], '\n'); j < 0 {
			w.prevBlank = w.curBlank && citeBlank(chunk[:i])
		} else {
			w.prevBlank = citeBlank(chunk[j+1 : i])
		}
		w.ls = len(w.out) + i + 1
		w.curBlank = citeBlank(chunk[i+1:])
	}
	w.out = append(w.out, chunk...)
	w.last = to
}

// lineEnd returns the index of the newline ending the line of s that
// holds i (i >= last), or len(s).
func (w *citeWriter) lineEnd(i int) int {
	if w.nl < i {
		w.nl = citeLineEnd(w.s, i)
	}
	return w.nl
}

// cut drops s[at:end], tidying the whitespace the tag leaves, and returns
// where copying resumes.
func (w *citeWriter) cut(at, end int) int {
	w.copyTo(at)
	s := w.s
	if w.curBlank && citeBlank(s[end:w.lineEnd(end)]) {
		// The tag stood on lines of its own: drop them whole, and a blank
		// line after them if one is already before them.
		w.out = w.out[:w.ls]
		end = w.lineEnd(end)
		if end < len(s) {
			end++
		}
		if w.prevBlank && end < len(s) {
			if e := w.lineEnd(end); e < len(s) && citeBlank(s[end:e]) {
				end = e + 1
			}
		}
		w.last = end
		return end
	}
	if e := w.lineEnd(end); citeBlank(s[end:e]) {
		if e > end && s[e-1] == '\r' {
			e--
		}
		end = e // no trailing spaces where the tag ended a line
	}
	if end >= len(s) || citeTight(s[end]) {
		w.out = bytes.TrimRight(w.out, " \t")
	}
	if len(w.out) == w.ls {
		for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
			end++
		}
	}
	w.last = end
	return end
}

// citeTight reports a byte that needs no space before it.
func citeTight(b byte) bool {
	return strings.IndexByte(" \t\r\n.,;:!?)]}", b) >= 0
}

// citeBlank reports whether s holds only horizontal white space; it stops
// at the first other byte.
func citeBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

func citeLineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// citeCutOff reports whether what follows an unclosed opening tag is a
// citation the answer was cut off in: one paragraph holding refs, or a
// single word (a ref being written, a half-written closing tag).
func citeCutOff(rest string) bool {
	r := strings.TrimRight(rest, " \t\r\n\f\v")
	if citeHasBlankLine(r) {
		return false
	}
	t := strings.TrimSpace(r)
	if !strings.ContainsAny(t, " \t\r\n\f\v") {
		return true
	}
	var probe citeCollector
	probe.add(t)
	return len(probe.cit.Refs)+len(probe.cit.Vault) > 0
}

func citeHasBlankLine(s string) bool {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return false
		}
		s = s[i+1:]
		if citeBlank(s[:citeLineEnd(s, 0)]) && strings.IndexByte(s, '\n') >= 0 {
			return true
		}
	}
}

// citeNext finds the next tag at or after from that is not in a protected
// span.
func citeNext(s string, from int, prot []citeSpan) (citeTag, bool) {
	for {
		at := citeFind(s, from)
		if at < 0 {
			return citeTag{}, false
		}
		if end, in := citeInside(prot, at); in {
			from = end
			continue
		}
		return citeParseTag(s, at), true
	}
}

// citeFind returns the index of the next opening or closing citation tag
// at or after from, or -1.
func citeFind(s string, from int) int {
	for from < len(s) {
		i := strings.IndexByte(s[from:], '<')
		if i < 0 {
			return -1
		}
		at := from + i
		if _, ok := citeNameEnd(s, at); ok {
			return at
		}
		from = at + 1
	}
	return -1
}

// citeNameEnd reports whether s[at:] is "<cairn-cite" or "</cairn-cite"
// followed by the end of a tag name, and where the name ends.
func citeNameEnd(s string, at int) (int, bool) {
	p := at + 1
	closing := p < len(s) && s[p] == '/'
	if closing {
		p++
	}
	if rest := len(s) - p; rest < len(citeName) {
		// An answer cut off inside the tag's name ("<cairn-ci") still
		// ends in our tag.
		if rest >= len("cairn-") && citeFold(s[p:], citeName[:rest]) {
			return len(s), true
		}
		return 0, false
	}
	if !citeFold(s[p:p+len(citeName)], citeName) {
		return 0, false
	}
	p += len(citeName)
	if p == len(s) {
		return p, true
	}
	switch s[p] {
	case '>', ' ', '\t', '\n', '\r', '\f':
		return p, true
	case '/':
		return p, !closing
	}
	return 0, false
}

// citeParseTag reads the tag at at, which citeFind found.
func citeParseTag(s string, at int) citeTag {
	p, _ := citeNameEnd(s, at)
	t := citeTag{at: at, end: p, closing: s[at+1] == '/'}
	if t.closing {
		q := p
		for q < len(s) && strings.IndexByte(" \t\r\n\f", s[q]) >= 0 {
			q++
		}
		if q < len(s) && s[q] == '>' {
			t.end = q + 1
		}
		return t
	}
	// Attributes run to the first '>' on the line. An opening tag without
	// one ("<cairn-cite n1 f2</cairn-cite>") ends at its name, so what
	// follows is read as its body.
	for q := p; q < len(s); q++ {
		switch s[q] {
		case '>':
			t.end = q + 1
			t.selfClosing = s[q-1] == '/'
			return t
		case '<', '\n':
			return t
		}
	}
	return t
}

// citeFold compares ASCII case-insensitively; want is lowercase.
func citeFold(s, want string) bool {
	for i := 0; i < len(want); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != want[i] {
			return false
		}
	}
	return true
}

// citeDefuse removes the '<' (and '/') in front of every "cairn-cite", and
// a tag cut off at the end, so that no tag is left, inside code or not.
// Dropping the whole run of '<' and '/' leaves a byte before the name that
// cannot start a new tag.
func citeDefuse(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+len(citeName) <= len(s); i++ {
		if (s[i] != 'c' && s[i] != 'C') || !citeFold(s[i:i+len(citeName)], citeName) {
			continue
		}
		j := i
		for j > last && (s[j-1] == '<' || s[j-1] == '/') {
			j--
		}
		if j < i && strings.Contains(s[j:i], "<") {
			b.WriteString(s[last:j])
			last = i
		}
	}
	b.WriteString(s[last:])
	out := b.String()
	// A name cut off by the end of the text is a tag too.
	for {
		i := strings.LastIndexByte(out, '<')
		if i < 0 {
			return out
		}
		if end, ok := citeNameEnd(out, i); !ok || end != len(out) {
			return out
		}
		out = out[:i]
	}
}

// citeSpan is a protected byte range [from, to).
type citeSpan struct{ from, to int }

// citeInside reports whether i lies in a protected span, and its end.
func citeInside(prot []citeSpan, i int) (int, bool) {
	k := sort.Search(len(prot), func(k int) bool { return prot[k].to > i })
	if k < len(prot) && prot[k].from <= i {
		return prot[k].to, true
	}
	return 0, false
}

// citeProtected returns, sorted and merged, the spans where a tag is text:
// fenced code blocks, inline code and <oai-mem-citation> blocks.
func citeProtected(s string) []citeSpan {
	var spans []citeSpan
	var fenceChar byte
	fenceLen, fenceFrom, para := 0, 0, 0
	for ls := 0; ls < len(s); {
		le := citeLineEnd(s, ls)
		next := le + 1
		line := s[ls:le]
		switch {
		case fenceLen > 0:
			if ch, n := citeFenceRun(citeFenceIndent(line)); ch == fenceChar && n >= fenceLen &&
				citeBlank(citeFenceIndent(line)[n:]) {
				spans = append(spans, citeSpan{fenceFrom, min(next, len(s))})
				fenceLen, para = 0, next
			}
		case citeBlank(line):
			spans = citeInlineCode(s, para, ls, spans)
			para = next
		default:
			if ch, n := citeFenceOpen(line); n > 0 {
				spans = citeInlineCode(s, para, ls, spans)
				fenceChar, fenceLen, fenceFrom = ch, n, ls
			}
		}
		ls = next
	}
	if fenceLen > 0 {
		spans = append(spans, citeSpan{fenceFrom, len(s)})
	} else if para < len(s) {
		spans = citeInlineCode(s, para, len(s), spans)
	}
	spans = append(spans, citeOAIBlocks(s)...)
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp.from <= merged[n-1].to {
			merged[n-1].to = max(merged[n-1].to, sp.to)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// citeFenceIndent drops indentation and block-quote markers.
func citeFenceIndent(line string) string {
	for {
		t := strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(t, ">") {
			return t
		}
		line = t[1:]
	}
}

// citeListMarker drops a list item's marker ("- ", "* ", "+ ", "1. ").
func citeListMarker(t string) string {
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	switch {
	case i == 0 && len(t) > 1 && strings.IndexByte("-*+", t[0]) >= 0 && t[1] == ' ':
		return strings.TrimLeft(t[2:], " \t")
	case i > 0 && len(t) > i+1 && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ':
		return strings.TrimLeft(t[i+2:], " \t")
	}
	return t
}

// citeFenceRun returns the fence character and the length of the run of
// it that begins t, if that is a fence (three or more).
func citeFenceRun(t string) (byte, int) {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return 0, 0
	}
	return t[0], n
}

// citeFenceOpen returns the fence a line opens (character and length), or
// a length of 0. A backtick fence's info string holds no backtick (else it
// is inline code).
func citeFenceOpen(line string) (byte, int) {
	t := citeFenceIndent(citeListMarker(citeFenceIndent(line)))
	ch, n := citeFenceRun(t)
	if n == 0 || (ch == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return 0, 0
	}
	return ch, n
}

// citeInlineCode adds the code spans of one paragraph s[from:to]: a run of
// backticks up to the next run of the same length.
func citeInlineCode(s string, from, to int, spans []citeSpan) []citeSpan {
	type run struct{ at, n int }
	var runs []run
	for i := from; i < to; {
		j := strings.IndexByte(s[i:to], '`')
		if j < 0 {
			break
		}
		k := i + j
		e := k
		for e < to && s[e] == '`' {
			e++
		}
		runs = append(runs, run{k, e - k})
		i = e
	}
	if len(runs) < 2 {
		return spans
	}
	next := make([]int, len(runs))
	seen := map[int]int{}
	for i := len(runs) - 1; i >= 0; i-- {
		next[i] = -1
		if j, ok := seen[runs[i].n]; ok {
			next[i] = j
		}
		seen[runs[i].n] = i
	}
	for i := 0; i < len(runs); {
		j := next[i]
		if j < 0 {
			i++
			continue
		}
		spans = append(spans, citeSpan{runs[i].at, runs[j].at + runs[j].n})
		i = j + 1
	}
	return spans
}

// citeOAIBlocks returns Codex's citation blocks, to the end of the text
// when one is not closed.
func citeOAIBlocks(s string) []citeSpan {
	var spans []citeSpan
	for from := 0; from < len(s); {
		at := citeFindFold(s, from, "<"+oaiName)
		if at < 0 {
			break
		}
		end := citeFindFold(s, at, "</"+oaiName+">")
		if end < 0 {
			spans = append(spans, citeSpan{at, len(s)})
			break
		}
		end += len(oaiName) + 3
		spans = append(spans, citeSpan{at, end})
		from = end
	}
	return spans
}

// citeFindFold finds the lowercase pattern pat, which starts with '<',
// ASCII case-insensitively.
func citeFindFold(s string, from int, pat string) int {
	for from < len(s) {
		i := strings.IndexByte(s[from:], '<')
		if i < 0 {
			return -1
		}
		at := from + i
		if len(s)-at >= len(pat) && citeFold(s[at:at+len(pat)], pat) {
			return at
		}
		from = at + 1
	}
	return -1
}

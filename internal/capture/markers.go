package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Marker strengths, recorded as the draft's confidence: an explicit
// current-state sentence is surer than a team habit read off "we use".
const (
	markConfFact       = 0.8
	markConfExplicit   = 0.75 // decisions, stated preferences
	markConfRule       = 0.7  // always, never, don't, must
	markConfConvention = 0.65 // "we use", "our X start with"
)

// markMaxSentence bounds what can be a note: a longer sentence is prose,
// a paste or a blob, and the marker inside it is likely incidental.
const markMaxSentence = 480

// Markers proposes durable statements found in the user's own words. The
// caller passes the text of the user's request and nothing else; Markers
// still drops what the user did not write as prose: cairn's own memory
// block, fenced and indented code, block quotes, tables and tag blocks a
// client adds (<system-reminder>…). Inline code and quoted strings stay in
// the captured words but never trigger a marker.
//
// Each sentence yields at most one draft. A current-state sentence ("I'm on
// PAY-1432", "our deploy target is now Render") becomes a one-value fact,
// so a later change supersedes it. A constraint, preference, decision or
// convention becomes a many-value note whose object is the user's sentence,
// unchanged but for collapsed whitespace. Questions, hypotheticals,
// reported speech, negated markers and one-off requests yield nothing:
// precision comes before recall.
//
// Markers is deterministic and safe on any input.
func Markers(text string) []memory.Draft {
	var out []memory.Draft
	seen := map[string]bool{}
	for _, s := range markSplit(text) {
		d, ok := s.draft()
		if !ok {
			continue
		}
		key := string(d.Kind) + "\x1f" + d.Subject + "\x1f" + d.Predicate + "\x1f" + d.Object
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}

// markSentence is one sentence of the user's prose. src is their words
// with whitespace collapsed; low is what the rules read: ASCII lowercased,
// typographic apostrophes folded, inline code replaced by "`x`" and quoted
// strings by `"q"`. off maps every byte of low to its byte in src (one
// entry more than low, for the end), so a value found in low is read back
// from src with the user's spelling.
type markSentence struct {
	src string
	low string
	off []int
	zh  bool
}

// draft classifies the sentence in its dominant language, and a mixed
// sentence ("API 的 base url 现在是 https://…") in the other one too.
func (s *markSentence) draft() (memory.Draft, bool) {
	if s.zh {
		return s.zhDraft()
	}
	if d, ok := s.enDraft(); ok {
		return d, true
	}
	if strings.ContainsFunc(s.src, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
		return s.zhDraft()
	}
	return memory.Draft{}, false
}

// span returns the user's words behind low[i:j], trimmed.
func (s *markSentence) span(i, j int) string {
	return strings.TrimSpace(s.src[s.off[i]:s.off[j]])
}

// note builds a many-value note whose object is the whole sentence.
func (s *markSentence) note(class memory.Class, conf float64) (memory.Draft, bool) {
	obj := s.src
	return memory.Draft{
		Kind:        memory.KindNote,
		Object:      obj,
		Class:       class,
		Category:    markCategory(obj),
		Cardinality: memory.Many,
		Confidence:  conf,
		Evidence:    memory.Evidence{Quote: obj},
	}, true
}

// fact builds a one-value fact.
func (s *markSentence) fact(subject, predicate, object string, class memory.Class) (memory.Draft, bool) {
	return memory.Draft{
		Kind:        memory.KindFact,
		Subject:     subject,
		Predicate:   predicate,
		Object:      object,
		Class:       class,
		Category:    markCategory(s.src),
		Cardinality: memory.One,
		Confidence:  markConfFact,
		Evidence:    memory.Evidence{Quote: s.src},
	}, true
}

// markSplit turns text into sentences of prose.
func markSplit(text string) []*markSentence {
	var out []*markSentence
	for _, seg := range markSegments(text) {
		norm := markCollapse(seg)
		low, off := markLower(norm)
		for _, sp := range markBreaks(low) {
			src := strings.TrimSpace(norm[off[sp[0]]:off[sp[1]]])
			if src == "" || len(src) > markMaxSentence || !utf8.ValidString(src) {
				continue
			}
			l, o := markLower(src)
			out = append(out, &markSentence{src: src, low: l, off: o, zh: markMostlyHan(src)})
		}
	}
	return out
}

// markSegments returns the runs of prose lines in text: paragraphs and
// list items, with soft-wrapped lines joined. Everything the user did not
// write as prose is left out.
func markSegments(text string) []string {
	// A memory block becomes a paragraph break, so that no sentence is
	// glued together across it.
	s := strings.ReplaceAll(text, "<cairn-memory", "\n\n<cairn-memory")
	s = strings.ReplaceAll(s, memory.MarkerClose, memory.MarkerClose+"\n\n")
	s = strings.ReplaceAll(memory.StripMarked(s), "\r", "\n")

	var segs []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, strings.Join(cur, "\n"))
			cur = cur[:0]
		}
	}
	var fence string // the fence that opened the current code block
	var tag string   // the tag block being skipped
	prevBlank, prevCode := true, false
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			flush()
			continue
		case tag != "":
			if strings.Contains(line, "</"+tag+">") {
				tag = ""
			}
			flush()
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			prevBlank, prevCode = true, false
			continue
		}
		code := strings.HasPrefix(line, "\t") || indent >= 4
		switch {
		case indent <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			n := len(trimmed) - len(strings.TrimLeft(trimmed, trimmed[:1]))
			fence = trimmed[:n]
			flush()
		case markTagOpen(trimmed) != "":
			name := markTagOpen(trimmed)
			if !strings.Contains(trimmed, "</"+name+">") {
				tag = name
			}
			flush()
		case code && (prevBlank || prevCode):
			flush()
			prevBlank, prevCode = false, true
			continue
		case indent <= 3 && (strings.HasPrefix(trimmed, ">") || strings.HasPrefix(trimmed, "|")):
			flush()
		default:
			body, item := markItem(strings.TrimSpace(line))
			if item || !markSoftWrap(cur, body) {
				flush()
			}
			if body != "" {
				cur = append(cur, body)
			}
		}
		prevBlank, prevCode = false, false
	}
	flush()
	return segs
}

// markTagOpen returns the name of a client tag that opens line
// ("<system-reminder>", "<command-message>"): lowercase with a hyphen or an
// underscore, unlike HTML the user might write about.
func markTagOpen(line string) string {
	if !strings.HasPrefix(line, "<") {
		return ""
	}
	end := strings.IndexAny(line, "> ")
	if end < 2 {
		return ""
	}
	name := line[1:end]
	joined := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9' && i > 0:
		case (c == '-' || c == '_') && i > 0:
			joined = true
		default:
			return ""
		}
	}
	if !joined {
		return ""
	}
	return name
}

// markItem strips a list bullet, number, checkbox or heading mark and
// reports whether the line started a new item.
func markItem(line string) (string, bool) {
	item := false
	for {
		rest, ok := markItemOnce(line)
		if !ok {
			return line, item
		}
		line, item = rest, true
	}
}

func markItemOnce(line string) (string, bool) {
	for _, p := range []string{"- [ ] ", "- [x] ", "- [X] ", "* [ ] ", "* [x] ", "- ", "* ", "+ ", "• ", "· "} {
		if strings.HasPrefix(line, p) {
			return strings.TrimSpace(line[len(p):]), true
		}
	}
	if h := strings.TrimLeft(line, "#"); len(h) < len(line) && len(line)-len(h) <= 6 && strings.HasPrefix(h, " ") {
		return strings.TrimSpace(h), true
	}
	d := 0
	for d < len(line) && d < 3 && line[d] >= '0' && line[d] <= '9' {
		d++
	}
	if d > 0 && d+1 < len(line) && (line[d] == '.' || line[d] == ')') && line[d+1] == ' ' {
		return strings.TrimSpace(line[d+1:]), true
	}
	if d > 0 && strings.HasPrefix(line[d:], "、") {
		return strings.TrimSpace(line[d+len("、"):]), true
	}
	return line, false
}

// markSoftWrap reports whether line continues the previous line of the
// segment: a lowercase word or comma ends one, a lowercase word starts
// the other.
func markSoftWrap(cur []string, line string) bool {
	if len(cur) == 0 {
		return true
	}
	prev := cur[len(cur)-1]
	if prev == "" || line == "" {
		return false
	}
	last, first := prev[len(prev)-1], line[0]
	return (last >= 'a' && last <= 'z' || last == ',') && first >= 'a' && first <= 'z'
}

// markCollapse turns every run of whitespace into one space. Invalid
// UTF-8 is kept as it is, so that markSplit can drop its sentence rather
// than store words the user did not write.
func markCollapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = true
			i += w
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(s[i : i+w])
		i += w
	}
	return b.String()
}

// markLower builds the rule view of src and its offset map (see
// markSentence).
func markLower(src string) (string, []int) {
	var b strings.Builder
	b.Grow(len(src))
	off := make([]int, 0, len(src)+1)
	put := func(s string, at int) {
		b.WriteString(s)
		for range len(s) {
			off = append(off, at)
		}
	}
	for i := 0; i < len(src); {
		r, w := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '`':
			if end := markCodeEnd(src, i); end > 0 {
				put("`x`", i)
				i = end
				continue
			}
			n := len(src[i:]) - len(strings.TrimLeft(src[i:], "`"))
			put(src[i:i+n], i)
			i += n
			continue
		case r == '"' || r == '“' || r == '「' || r == '『':
			if end := markQuoteEnd(src, i, r); end > 0 {
				put(`"q"`, i)
				i = end
				continue
			}
			put(`"`, i)
		case r == '’' || r == '‘' || r == 'ʼ':
			put("'", i)
		case r >= 'A' && r <= 'Z':
			put(string(r+'a'-'A'), i)
		case r == utf8.RuneError && w == 1:
			put("\uFFFD"[:1], i) // keep the byte count; never matches a rule
		default:
			put(src[i:i+w], i)
		}
		i += w
	}
	off = append(off, len(src))
	return b.String(), off
}

// markCodeEnd returns the end of the inline code span that opens at i, or
// 0 when the backticks are not closed by a run of the same length.
func markCodeEnd(s string, i int) int {
	n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
	ticks := s[i : i+n]
	for j := i + n; j < len(s); {
		k := strings.Index(s[j:], ticks)
		if k < 0 {
			return 0
		}
		k += j
		m := len(s[k:]) - len(strings.TrimLeft(s[k:], "`"))
		if m == n {
			return k + n
		}
		j = k + m
	}
	return 0
}

// markQuoteEnd returns the end of a quoted string that opens at i, or 0.
// Only short quotes close: an unmatched mark stays literal.
func markQuoteEnd(s string, i int, open rune) int {
	var closer string
	switch open {
	case '"':
		closer = `"`
	case '“':
		closer = "”"
	case '「':
		closer = "」"
	default:
		closer = "』"
	}
	start := i + utf8.RuneLen(open)
	rest := s[start:]
	if len(rest) > 200 {
		rest = rest[:200]
	}
	k := strings.Index(rest, closer)
	if k <= 0 {
		return 0
	}
	return start + k + len(closer)
}

// markAbbrev lists words whose full stop does not end a sentence.
var markAbbrev = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"incl": true, "esp": true, "mr": true, "mrs": true, "ms": true, "dr": true, "eg": true, "ie": true,
}

// markBreaks splits low into sentence spans.
func markBreaks(low string) [][2]int {
	var out [][2]int
	start := 0
	emit := func(end int) {
		if strings.TrimSpace(low[start:end]) != "" {
			out = append(out, [2]int{start, end})
		}
		start = end
	}
	for i := 0; i < len(low); {
		r, w := utf8.DecodeRuneInString(low[i:])
		switch r {
		case '。', '！', '？', '!', '?', '.':
			j := i + w
			for j < len(low) {
				c, cw := utf8.DecodeRuneInString(low[j:])
				if !strings.ContainsRune(".!?。！？)]'\"”」』）", c) {
					break
				}
				j += cw
			}
			if r == '.' || r == '!' || r == '?' {
				if j < len(low) && low[j] != ' ' {
					i = j
					continue
				}
				if r == '.' && markAbbrev[markWordBefore(low, i)] {
					i = j
					continue
				}
			}
			emit(j)
			i = j
			continue
		}
		i += w
	}
	emit(len(low))
	return out
}

// markWordBefore returns the letters and dots just before low[i].
func markWordBefore(low string, i int) string {
	j := i
	for j > 0 && (low[j-1] >= 'a' && low[j-1] <= 'z' || low[j-1] == '.') {
		j--
	}
	return low[j:i]
}

// markMostlyHan reports whether Chinese rules should read s: it holds at
// least as many Han characters as ASCII words.
func markMostlyHan(s string) bool {
	han, words := 0, 0
	inWord := false
	for _, r := range s {
		isLetter := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		if isLetter && !inWord {
			words++
		}
		inWord = isLetter
		if unicode.Is(unicode.Han, r) {
			han++
		}
	}
	return han > 0 && han >= words
}

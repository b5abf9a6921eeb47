package capture

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// DefaultEpisodeChars bounds an episode's summary when the caller gives no
// bound.
const DefaultEpisodeChars = 600

// Caps on an episode's lists: a turn that ran a hundred tools is still
// summarized in a few lines.
const (
	maxEpisodeTools = 20
	maxEpisodeFiles = 20
)

// episodeArrow joins request and outcome in a summary.
const episodeArrow = " → "

// EpisodeDraft is an L2 episode before it is stored: a bounded summary of
// one completed turn, what it asked and what came of it, with the tools it
// used, the files it changed and the span of parts it rests on.
type EpisodeDraft struct {
	Request string `json:"request"`
	Outcome string `json:"outcome,omitempty"`
	// Summary is Request and Outcome joined by " → ", at most the bound
	// given to Episode, in characters.
	Summary   string            `json:"summary"`
	Tools     []string          `json:"tools,omitempty"`
	Files     []string          `json:"files,omitempty"`
	Status    memory.TurnStatus `json:"status"`
	FirstPart int               `json:"first_part"`
	LastPart  int               `json:"last_part"`
	Time      time.Time         `json:"time"`
}

// Episode summarizes a completed turn deterministically: the first
// sentences of the request and of the outcome, cut on sentence or word
// boundaries so that Summary holds at most maxChars characters
// (DefaultEpisodeChars when maxChars ≤ 0); the distinct tools called, in
// order of first use; and the files changed by successful calls. cairn's
// own marker spans are stripped again, whatever the importer did. ok is
// false for a turn that did not complete or holds no text from the user.
func Episode(s memory.Session, t memory.Turn, maxChars int) (EpisodeDraft, bool) {
	if t.Status != memory.TurnCompleted {
		return EpisodeDraft{}, false
	}
	req := flatten(memory.StripMarked(t.Request))
	if req == "" {
		return EpisodeDraft{}, false
	}
	if maxChars <= 0 {
		maxChars = DefaultEpisodeChars
	}
	out := flatten(memory.StripMarked(t.Outcome))
	e := EpisodeDraft{Status: t.Status, Time: firstTime(t.EndedAt, t.StartedAt)}
	if out == "" {
		e.Request = clip(req, maxChars)
		e.Summary = e.Request
	} else {
		// The request may take half; the outcome takes what is left.
		arrow := utf8.RuneCountInString(episodeArrow)
		e.Request = clip(req, max((maxChars-arrow)/2, 1))
		e.Outcome = clip(out, max(maxChars-arrow-utf8.RuneCountInString(e.Request), 0))
		e.Summary = e.Request
		if e.Outcome != "" {
			e.Summary += episodeArrow + e.Outcome
		}
	}
	e.Tools, e.Files = toolsAndFiles(s, t)
	if n := len(t.Parts); n > 0 {
		e.FirstPart, e.LastPart = t.Parts[0].Seq, t.Parts[0].Seq
		for _, p := range t.Parts {
			e.FirstPart, e.LastPart = min(e.FirstPart, p.Seq), max(e.LastPart, p.Seq)
		}
		if e.Time.IsZero() {
			e.Time = t.Parts[n-1].Time
		}
	}
	return e, true
}

// toolsAndFiles lists the distinct tools a turn called and the files its
// successful calls changed, each in order of first appearance and capped.
func toolsAndFiles(s memory.Session, t memory.Turn) (tools, files []string) {
	seen := map[string]bool{}
	for _, p := range t.Parts {
		if p.Kind == memory.KindToolCall && p.Tool != "" && !seen[p.Tool] && len(tools) < maxEpisodeTools {
			seen[p.Tool] = true
			tools = append(tools, p.Tool)
		}
	}
	root := rootOf(s)
	seen = map[string]bool{}
	for _, c := range pairCalls(t) {
		if !c.succeeded() {
			continue
		}
		for _, f := range editedFiles(c.part, root) {
			if !seen[f.path] && len(files) < maxEpisodeFiles {
				seen[f.path] = true
				files = append(files, f.path)
			}
		}
	}
	return tools, files
}

// flatten turns Markdown-ish text into one line of prose: code blocks and
// table rules are dropped, heading and list marks and emphasis removed,
// and lines joined so that each keeps a stop (a heading ends in ":", a list
// item or loose line in ";").
func flatten(s string) string {
	var b strings.Builder
	fence := false
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fence = !fence
			continue
		}
		if fence || line == "" || isTableRule(line) {
			continue
		}
		heading := strings.HasPrefix(line, "#")
		line = strings.TrimLeft(line, "# ")
		line = trimListMark(line)
		if strings.HasPrefix(line, "|") {
			line = tableRow(line)
		}
		line = strings.NewReplacer("**", "", "__", "", "`", "").Replace(line)
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
		if !endsSentence(line) {
			if heading {
				b.WriteByte(':')
			} else {
				b.WriteByte(';')
			}
		}
	}
	return strings.TrimRight(b.String(), ";:")
}

// tableRow joins a Markdown table row's cells with commas.
func tableRow(l string) string {
	var cells []string
	for c := range strings.SplitSeq(strings.Trim(l, "| "), "|") {
		if c = strings.TrimSpace(c); c != "" {
			cells = append(cells, c)
		}
	}
	return strings.Join(cells, ", ")
}

// isTableRule reports whether a line is a Markdown table's rule or a
// horizontal rule.
func isTableRule(l string) bool {
	return strings.Trim(l, "|-:= *_") == "" && len(l) >= 3
}

// trimListMark drops "- ", "* ", "• " or "12. " from the start of a line.
func trimListMark(l string) string {
	for _, m := range []string{"- ", "* ", "• ", "+ "} {
		if s, ok := strings.CutPrefix(l, m); ok {
			return strings.TrimSpace(s)
		}
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' ' {
		return strings.TrimSpace(l[i+2:])
	}
	return l
}

// endsSentence reports whether s ends in sentence or clause punctuation.
func endsSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?:;。！？：；…", r)
}

// clip bounds s to n characters (runes). It cuts after the last sentence
// end in the second half of the room, else at the last word boundary (a
// space, or next to a CJK character) with "…" to show the cut, else
// mid-word with "…"; never inside a rune.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return strings.Repeat("…", max(n, 0))
	}
	all := []rune(s)
	for i := n - 1; i >= n/2; i-- {
		if strings.ContainsRune(".!?。！？", all[i]) && (unicode.IsSpace(all[i+1]) || isCJKRune(all[i])) {
			return strings.TrimSpace(string(all[:i+1])) // whole sentences need no mark
		}
	}
	rs := all[:n-1] // room for "…"
	cut := -1
	for i := len(rs); i > 0; i-- { // a boundary between all[i-1] and all[i]
		if unicode.IsSpace(all[i]) || isCJKRune(all[i]) || isCJKRune(all[i-1]) {
			cut = i
			break
		}
	}
	if cut <= 0 {
		cut = len(rs)
	}
	return strings.TrimRight(string(rs[:cut]), " ,;:") + "…"
}

// isCJKRune reports whether r is a Han, Kana or Hangul character or CJK
// punctuation, between which a text may be cut.
func isCJKRune(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

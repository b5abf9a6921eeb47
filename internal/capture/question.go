package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// maxQuestionRunes bounds what can be a recall question: a longer message
// carries content of its own, whatever it also asks.
const maxQuestionRunes = 280

// IsRecallQuestion reports whether text asks memory for something instead
// of telling it something: "what is my name", "where did I leave off",
// "what did we decide about X?", "你还记得…吗", "nerede kalmıştım". Such
// a turn must never be learned from: its answer comes from memory, and a
// fact drawn from it would be memory echoing itself.
//
// The rule: every sentence of the message is either a recall question or
// filler (a greeting, a thanks), and at least one is a recall question. A
// recall question is an interrogative (or a "remind me …", "tell me …",
// "do you remember …" request) about the user's own identity, preferences,
// earlier decisions, history or current work. It is recognized by fixed
// patterns in English, Chinese, Turkish and Japanese (questionpatterns.go),
// and in English also by a general rule: a question that refers to the
// speaker, carries a history or memory word ("yesterday", "so far",
// "talked about") and names no artifact to inspect instead ("this
// function", "the logs").
//
// A recall question carries no new value: a clause that states something
// ("it's prod-db-1", "my name is Ana"), a request for work ("add it to the
// README") or "remind me to …" makes the message ordinary content. Turkish
// is matched with its letters folded to ASCII (ı→i, ş→s, ğ→g, ü→u, ö→o,
// ç→c), so text typed without them matches too.
func IsRecallQuestion(text string) bool {
	s := strings.TrimSpace(memory.StripMarked(text))
	if s == "" || utf8.RuneCountInString(s) > maxQuestionRunes {
		return false
	}
	recall := false
	for _, sent := range sentences(fold(s)) {
		switch classify(sent) {
		case sentRecall:
			recall = true
		case sentContent:
			return false
		}
	}
	return recall
}

type sentKind int

const (
	sentFiller sentKind = iota
	sentRecall
	sentContent
)

// sentence is one sentence of folded text and whether it ended in a
// question mark.
type sentence struct {
	text     string
	question bool
}

// classify decides what one sentence is.
func classify(s sentence) sentKind {
	if isFiller(s.text) {
		return sentFiller
	}
	if recallSentence(s) {
		return sentRecall
	}
	return sentContent
}

// recallSentence reports whether s holds a recall question and nothing
// else. A Latin-script sentence is first matched whole, so that a pattern
// may span "and" ("what did you and I decide"); whatever follows the match
// must not state anything or ask for work. Failing that, and always for
// Chinese and Japanese, the sentence is read clause by clause: at least one
// recall clause, the others filler or a plain continuation ("about the
// cache", "and yesterday").
func recallSentence(s sentence) bool {
	cjk := hasCJK(s.text)
	if !cjk {
		t := stripLead(s.text)
		if end, ok := recallLatinAt(t, s.question); ok {
			return !restStates(t[end:], s.question)
		}
		if generalRecallEN(t, s.question) {
			return !restStates(t, s.question)
		}
	}
	found := false
	for _, c := range clauses(s.text) {
		c = stripLead(c)
		switch {
		case c == "" || isFiller(c):
		case cjk && recallCJK(c, s.question), !cjk && recallLatin(c, s.question):
			found = true
		case cjk && statesCJK(c), !cjk && statesLatin(c):
			return false
		}
	}
	return found
}

// restStates reports whether any clause of rest, the words after a recall
// match, states a value or asks for work. Unless rest starts a new clause,
// its first clause finishes the question itself ("remind me what | we
// decided") and is not checked.
func restStates(rest string, question bool) bool {
	cs := clauses(rest)
	if len(cs) > 0 && !startsClause(rest) {
		cs = cs[1:]
	}
	for _, c := range cs {
		c = stripLead(c)
		if c == "" || isFiller(c) || recallLatin(c, question) {
			continue
		}
		if statesLatin(c) {
			return true
		}
	}
	return false
}

// sentences splits folded text at sentence ends: ? ! ; a line break, or a
// full stop followed by a space or the end (so "file.go" stays whole).
func sentences(s string) []sentence {
	var out []sentence
	start := 0
	emit := func(end int, q bool) {
		t := strings.TrimSpace(s[start:end])
		if t != "" {
			out = append(out, sentence{text: t, question: q})
		} else if q && len(out) > 0 {
			out[len(out)-1].question = true
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '?':
			emit(i, true)
			start = i + 1
		case '!', ';', '\n':
			emit(i, false)
			start = i + 1
		case '.':
			if i+1 == len(s) || s[i+1] == ' ' {
				emit(i, false)
				start = i + 1
			}
		}
	}
	emit(len(s), false)
	return out
}

// clauseSeps split a sentence into clauses.
var clauseSeps = []string{",", " and ", " but ", " then ", " also ", " btw ", " - ", " ve ", " ama ", " bir de "}

// clauses splits a sentence at commas and conjunctions.
func clauses(s string) []string {
	parts := []string{s}
	for _, sep := range clauseSeps {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// startsClause reports whether s begins with a clause separator.
func startsClause(s string) bool {
	for _, sep := range clauseSeps {
		if strings.HasPrefix(s, sep) || strings.HasPrefix(s, strings.TrimLeft(sep, " ")) {
			return true
		}
	}
	return false
}

// stripLead drops the greetings and fillers a question often starts with
// ("hey, so", "quick question:", "嗯").
func stripLead(s string) string {
	for {
		s = strings.TrimLeft(s, " ,:-—")
		cut := false
		for _, w := range leadWords {
			if strings.HasPrefix(s, w) {
				rest := s[len(w):]
				if rest == "" || hasCJK(w) || rest[0] == ' ' || rest[0] == ',' || rest[0] == ':' {
					s, cut = rest, true
					break
				}
			}
		}
		if !cut {
			return strings.TrimSpace(s)
		}
	}
}

// isFiller reports whether a sentence or clause is only greeting,
// politeness or hesitation.
func isFiller(s string) bool {
	s = strings.Trim(stripLead(s), " ,:.!~-—")
	if s == "" {
		return true
	}
	if fillerPhrases[s] {
		return true
	}
	for _, w := range strings.Fields(s) {
		if !fillerWords[strings.Trim(w, ",.:!")] {
			return false
		}
	}
	return true
}

// fold lowercases s, folds Turkish letters and typographic punctuation to
// ASCII, turns fullwidth punctuation into its ASCII form and collapses
// spaces. Patterns are written against its output.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		r = foldRune(r)
		switch {
		case r < 0:
			continue
		case r == '\n':
			b.WriteByte('\n')
			space = false
			continue
		case unicode.IsSpace(r):
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// foldRune maps one rune; -1 drops it.
func foldRune(r rune) rune {
	switch r {
	case 'İ', 'I', 'ı':
		return 'i'
	case 'Ş', 'ş':
		return 's'
	case 'Ğ', 'ğ':
		return 'g'
	case 'Ü', 'ü', 'û', 'Û':
		return 'u'
	case 'Ö', 'ö':
		return 'o'
	case 'Ç', 'ç':
		return 'c'
	case 'â', 'Â':
		return 'a'
	case 'î', 'Î':
		return 'i'
	case '’', '‘', '`', '´':
		return '\''
	case '？':
		return '?'
	case '！':
		return '!'
	case '，', '、':
		return ','
	case '。', '．':
		// Chinese and Japanese put no space after a full stop.
		return '\n'
	case '；':
		return ';'
	case '：':
		return ':'
	case '\r':
		return '\n'
	}
	if unicode.Is(unicode.Mn, r) {
		return -1
	}
	return unicode.ToLower(r)
}

// hasCJK reports whether s holds Han, Hiragana or Katakana.
func hasCJK(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			return true
		}
	}
	return false
}

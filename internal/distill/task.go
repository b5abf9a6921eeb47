package distill

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// greetings open a request that is not yet the task.
var greetings = map[string]bool{
	"hi": true, "hello": true, "hey": true, "thanks": true, "thank": true, "ok": true, "okay": true,
	"yes": true, "no": true, "sure": true, "yo": true, "morning": true, "你好": true, "谢谢": true,
}

// taskOf is the first substantive request of the session, short: a
// greeting or a one-word reply is not the task.
func taskOf(tr *trace) string {
	first := ""
	for _, t := range tr.turns {
		req := oneLine(memory.StripMarked(t.Request))
		if req == "" {
			continue
		}
		if first == "" {
			first = req
		}
		if substantive(req) {
			return firstSentence(req, maxTask)
		}
	}
	if first != "" {
		return firstSentence(first, maxTask)
	}
	return clip(oneLine(tr.s.Title), maxTask)
}

// substantive reports whether a request asks for something: three words
// or more (six characters of CJK) that do not open with a greeting alone.
func substantive(req string) bool {
	w := strings.Fields(strings.ToLower(req))
	if len(w) == 0 {
		return false
	}
	if utf8.RuneCountInString(req) >= 6 && strings.ContainsFunc(req, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
		return !greetings[strings.Trim(req, "!！。.,， ")]
	}
	if len(w) < 3 {
		return false
	}
	return !(len(w) <= 4 && greetings[strings.Trim(w[0], "!,.")])
}

// placeName names a place briefly: the repository's name, else the
// checkout's directory name.
func placeName(p memory.Place, cwd string) string {
	if p.Repo != "" {
		return lastElem(p.Repo)
	}
	if p.Worktree != "" {
		return lastElem(p.Worktree)
	}
	if p.Project != "" {
		proj := strings.TrimSuffix(strings.TrimRight(p.Project, "/\\"), ".git")
		if n := lastElem(proj); n != "" {
			return n
		}
	}
	if n := lastElem(cwd); n != "" {
		return n
	}
	return "unplaced"
}

func lastElem(p string) string {
	p = strings.TrimRight(p, "/\\")
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// containers are top directories that only hold other areas.
var containers = map[string]bool{
	"internal": true, "src": true, "pkg": true, "cmd": true, "lib": true, "app": true, "apps": true,
	"packages": true, "crates": true, "services": true, "modules": true, "libs": true, "components": true,
}

// area names the part of a place a session worked on: the directory most
// of its changed files share (two levels under a container such as
// internal/ or src/), else the tool most of its action commands ran, else
// "general". The same kind of work in the same place gets the same area.
func area(tr *trace) string {
	count := map[string]int{}
	for _, f := range tr.files {
		parts := strings.Split(strings.TrimPrefix(f, "./"), "/")
		if len(parts) < 2 || strings.HasPrefix(f, "/") {
			continue
		}
		a := parts[0]
		if containers[a] && len(parts) > 2 {
			a += "/" + parts[1]
		}
		count[a]++
	}
	if best := argmax(count); best != "" {
		return best
	}
	if len(tr.files) > 0 {
		return "top level"
	}
	count = map[string]int{}
	for _, s := range tr.steps {
		if !isGitBookkeeping(s.key) {
			count[strings.Fields(s.key)[0]]++
		}
	}
	if best := argmax(count); best != "" {
		return best
	}
	return "general"
}

// argmax returns the key with the largest count, the smallest key on a tie.
func argmax(m map[string]int) string {
	best, n := "", 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}

// taskGroup is place and area: "cairn · internal/rank".
func taskGroup(tr *trace) string {
	return placeName(tr.s.Place, tr.s.Cwd) + " · " + area(tr)
}

// keywords picks the session's most telling search words, as written
// (so a grep of MEMORY.md finds them): the user's words weigh more than
// file names and commands, which weigh more than error text; code-shaped
// and longer words weigh more than common ones; variants of one word
// (flaky, flakiness) count together under the form seen most. Ties go to
// the word seen first.
func keywords(tr *trace, task string, limit int) []string {
	type group struct {
		score float64
		forms map[string]int
		first string
	}
	groups := map[string]*group{}
	var order []string
	add := func(s string, w float64) {
		for _, word := range surfaceWords(s) {
			low := strings.ToLower(word)
			if text.IsStopWord(low) || !usefulToken(low) {
				continue
			}
			stem := low
			if isPlainWord(low) {
				stem = text.Stem(low)
			}
			if generic[stem] {
				continue
			}
			g := groups[stem]
			if g == nil {
				g = &group{forms: map[string]int{}, first: low}
				groups[stem] = g
				order = append(order, stem)
			}
			g.forms[low]++
			g.score += w * shape(word) * demote(stem)
		}
	}
	add(task, 3)
	for _, t := range tr.turns {
		add(memory.StripMarked(t.Request), 2)
	}
	for _, s := range tr.st.rules {
		add(s.Object, 2)
	}
	for _, f := range tr.files {
		add(f, 1)
		add(lastElem(f), 1)
	}
	for _, s := range tr.steps {
		add(s.key, 1)
	}
	for _, f := range tr.failures {
		add(f.line, 1)
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmpDesc(groups[a].score, groups[b].score) })
	if len(order) > limit {
		order = order[:limit]
	}
	out := make([]string, len(order))
	for i, stem := range order {
		g := groups[stem]
		best := g.first // the most frequent form; on a tie the first seen, then the smallest
		for f, n := range g.forms {
			if n > g.forms[best] || n == g.forms[best] && best != g.first && f < best {
				best = f
			}
		}
		out[i] = best
	}
	return out
}

// generic words say nothing about which work a session was.
var generic = map[string]bool{
	"run": true, "fail": true, "fix": true, "make": true, "add": true, "use": true, "file": true,
	"work": true, "chang": true, "updat": true, "pleas": true, "tri": true, "need": true, "want": true,
	"look": true, "thing": true, "get": true, "set": true, "new": true, "sure": true, "see": true,
	"check": true, "done": true, "good": true, "thank": true, "help": true, "can": true, "ok": true,
	"okai": true, "yes": true, "time": true, "way": true, "just": true, "also": true, "like": true,
	"always": true, "never": true, "one": true, "two": true, "three": true, "four": true, "five": true,
	"first": true, "last": true, "again": true, "today": true, "still": true, "realli": true, "abl": true,
}

// demote halves words that are common in every coding session.
func demote(stem string) float64 {
	switch stem {
	case "test", "commit", "error", "build", "code", "function", "go":
		return 0.5
	}
	return 1
}

// shape favours code-shaped words (paths, names with digits, case humps
// or joiners) and longer words.
func shape(w string) float64 {
	f := 1.0
	if strings.ContainsAny(w, "./_-0123456789") || strings.ToLower(w) != w && strings.ToUpper(w[:1]) != w[:1] || hasInnerUpper(w) {
		f *= 1.5
	}
	if len(w) >= 6 {
		f *= 1.2
	}
	return f
}

func hasInnerUpper(w string) bool {
	for i := 1; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' {
			return true
		}
	}
	return false
}

func isPlainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// surfaceWords splits text into words as written: letters and digits of
// any script with the joiners . / _ - inside, none at either end.
func surfaceWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '/' || r == '_' || r == '-')
	}) {
		w = strings.Trim(w, "./_-")
		if w != "" && strings.ContainsFunc(w, unicode.IsLetter) && len(w) <= 80 {
			out = append(out, w)
		}
	}
	return out
}

// slug names the session's recap: the day it ended, up to five words of
// the task, and six hex digits of the session's id so two sessions of one
// day never share a file.
func slug(s memory.Session, task string) string {
	day := "undated"
	if t := sessionEnd(s); !t.IsZero() {
		day = t.UTC().Format("2006-01-02")
	}
	var ws []string
	for _, w := range strings.FieldsFunc(strings.ToLower(task), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) < 2 || text.IsStopWord(w) || len(w) > 20 {
			continue
		}
		ws = append(ws, w)
		if len(ws) == 5 {
			break
		}
	}
	if len(ws) == 0 {
		ws = []string{"session"}
	}
	sum := sha256.Sum256([]byte(string(s.Provider) + "/" + s.ExternalID + "/" + itoa64(s.ID)))
	return day + "-" + strings.Join(ws, "-") + "-" + hex.EncodeToString(sum[:3])
}

// sessionEnd is when the session ended: its own end, else its last turn's.
func sessionEnd(s memory.Session) time.Time {
	end := s.EndedAt
	for _, t := range s.Turns {
		if t.EndedAt.After(end) {
			end = t.EndedAt
		}
	}
	if end.IsZero() {
		end = s.StartedAt
	}
	return end
}

// usefulToken drops words nobody searches for: very short words, bare
// numbers, hashes and URL scraps.
func usefulToken(t string) bool {
	if t == "" || utf8.RuneCountInString(t) < 3 && t[0] < utf8.RuneSelf {
		return false
	}
	if strings.Trim(t, "0123456789.-_/") == "" {
		return false // a number, a version, a date
	}
	if len(t) >= 7 && strings.Trim(t, "0123456789abcdef") == "" {
		return false
	}
	switch t {
	case "http", "https", "www", "com", "org", "github.com":
		return false
	}
	return true
}

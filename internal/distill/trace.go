package distill

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cairn-memory/cairn/internal/memory"
)

// trace is what one session shows once its tool calls are paired: the
// commands that worked, the failures and their fixes, the files changed,
// the commits, and who said what, in order.
type trace struct {
	s        memory.Session
	root     string
	turns    []memory.Turn // by seq
	runs     []*run
	says     []utterance
	files    []string // changed files, first seen first
	steps    []step   // action commands that worked, in order, repeats in a row folded
	commits  []commit
	failures []*failure
	tests    int // test commands that worked
	st       stmtView
}

// utterance is a text part of the user or the assistant.
type utterance struct {
	role  memory.Role
	turn  int
	order int
	text  string
}

// step is one action command that worked.
type step struct {
	key, cmd string
	turn     int
}

// commit is a commit a command reported.
type commit struct {
	sha, msg string
	turn     int
	stmt     int64
}

// failure is a failed action command and, when a later run of the same
// command worked, what fixed it.
type failure struct {
	r     *run
	key   string
	cmd   string
	line  string // the error line
	stmt  int64  // the tool_error statement it rests on, 0 when none
	fix   *run   // the later run that worked; nil while unresolved
	files []string
	cause string // the assistant's first words after the failure
}

// commitLine is git's report of a new commit: "[main 7e2964f] msg".
var commitLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\[([^\]\n]+?) ([0-9a-f]{7,40})\] (.+)$`) })

// newTrace walks a session's turns in order.
func newTrace(s memory.Session, st stmtView) *trace {
	tr := &trace{s: s, root: firstNonEmpty(s.Place.Worktree, s.Cwd), st: st}
	tr.turns = slices.Clone(s.Turns)
	slices.SortStableFunc(tr.turns, func(a, b memory.Turn) int { return a.Seq - b.Seq })
	base := 0
	for k := range tr.turns {
		// Parts are read in the order they were written.
		tr.turns[k].Parts = slices.Clone(tr.turns[k].Parts)
		slices.SortStableFunc(tr.turns[k].Parts, func(a, b memory.Part) int { return a.Seq - b.Seq })
	}
	for _, t := range tr.turns {
		for i, p := range t.Parts {
			if p.Kind == memory.KindText && (p.Role == memory.RoleUser || p.Role == memory.RoleAssistant) {
				if txt := oneLine(memory.StripMarked(p.Text)); txt != "" {
					tr.says = append(tr.says, utterance{role: p.Role, turn: t.Seq, order: base + i, text: txt})
				}
			}
		}
		tr.runs = append(tr.runs, pairRuns(t, base)...)
		base += len(t.Parts) + 1
	}
	slices.SortStableFunc(tr.runs, func(a, b *run) int { return a.order - b.order })
	for _, r := range tr.runs {
		tr.read(r)
	}
	for _, f := range tr.failures {
		tr.resolve(f)
	}
	for _, e := range st.edits {
		tr.addFile(e.Object)
	}
	return tr
}

// read records what one run shows.
func (tr *trace) read(r *run) {
	if r.ok() {
		for _, p := range editedPaths(r, tr.root) {
			tr.addFile(p)
		}
	}
	if r.line == "" {
		return
	}
	cmds := simpleCommands(r.line)
	if r.failed {
		for _, c := range cmds {
			k := commandKey(c)
			if k == "" || isReadOnly(k, c) {
				continue
			}
			f := &failure{r: r, key: k, cmd: c, line: errorLine(r.output)}
			f.stmt = tr.st.errorAt(r)
			tr.failures = append(tr.failures, f)
			break
		}
		return
	}
	if !r.ok() {
		return
	}
	for _, c := range cmds {
		k := commandKey(c)
		if k == "" || isReadOnly(k, c) {
			continue
		}
		if isTest(k) {
			tr.tests++
		}
		g := generalize(k, c)
		if n := len(tr.steps); n == 0 || tr.steps[n-1].key != k {
			tr.steps = append(tr.steps, step{key: k, cmd: g, turn: r.turn})
		}
	}
	for _, m := range commitLine().FindAllStringSubmatch(r.output, -1) {
		c := commit{sha: m[2], msg: strings.TrimSpace(m[3]), turn: r.turn}
		c.stmt = tr.st.commitFor(c.sha)
		tr.commits = append(tr.commits, c)
	}
}

func (tr *trace) addFile(p string) {
	p = relPath(p, tr.root)
	if p != "" && !slices.Contains(tr.files, p) {
		tr.files = append(tr.files, p)
	}
}

// resolve finds the later run of the same command that worked, the files
// changed in between and the assistant's reading of the failure.
func (tr *trace) resolve(f *failure) {
	for _, r := range tr.runs {
		if r.order <= f.r.order || !r.ok() || r.line == "" {
			continue
		}
		if slices.ContainsFunc(simpleCommands(r.line), func(c string) bool { return commandKey(c) == f.key }) {
			f.fix = r
			break
		}
	}
	end := int(^uint(0) >> 1)
	if f.fix != nil {
		end = f.fix.order
	}
	for _, r := range tr.runs {
		if r.order > f.r.order && r.order < end && r.ok() {
			for _, p := range editedPaths(r, tr.root) {
				if !slices.Contains(f.files, p) {
					f.files = append(f.files, p)
				}
			}
		}
	}
	for _, u := range tr.says {
		if u.role == memory.RoleAssistant && u.order > f.r.order && u.order < end {
			f.cause = firstSentence(u.text, maxCause)
			break
		}
	}
}

// unresolved counts the failures no later run fixed.
func (tr *trace) unresolved() int {
	n := 0
	for _, f := range tr.failures {
		if f.fix == nil {
			n++
		}
	}
	return n
}

// lastUser is the user's last request, when the session has more than one.
func (tr *trace) lastUser() string {
	if len(tr.turns) < 2 {
		return ""
	}
	return oneLine(memory.StripMarked(tr.turns[len(tr.turns)-1].Request))
}

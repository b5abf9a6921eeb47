package corpus

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// StatementsOptions says what Statements generates.
type StatementsOptions struct {
	// Statements is how many statements to generate.
	Statements int `json:"statements"`
	// Seed picks them: the same options give the same statements.
	Seed uint64 `json:"seed"`
	// Checkouts are where they are written, busiest first: checkout i
	// gets statements in proportion to 1/(i+1), as GenerateParts spreads
	// sessions.
	Checkouts []Checkout `json:"checkouts"`
	// Start and End bound the statements' valid times.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Statement is one statement for a benchmark to send to the write point,
// with who sends it and where.
type Statement struct {
	Draft  memory.Draft  `json:"draft"`
	Writer memory.Writer `json:"writer"`
	// UserText is the user's message a user-written statement came from;
	// it holds the value, so the claim of asserted stands.
	UserText string `json:"user_text,omitempty"`
	// Checkout indexes the options' checkouts: the place it is written in.
	Checkout int `json:"checkout"`
}

// Shares of the statement kinds, in percent; notes take the rest.
const (
	factShare  = 70
	eventShare = 10
)

// statementStream keeps the statements' random stream apart from the
// sessions' and the queries'.
const statementStream = 1<<62 + 1

// Statements returns o.Statements statements in valid-time order, the
// order a store would have received them in: 70% facts, each slot (a
// subject and a predicate from a vocabulary of about 300) changed one to
// three times with increasing valid times, so later values supersede
// earlier ones; 10% events; 20% notes in the prose generators' words.
// Classes vary, and with them the place a statement applies at: user and
// preference everywhere, convention in the repository, decision and
// environment in the project, task in the worktree. Some are pinned; the
// writers are mostly the user through the CLI, then models, tools and
// agents.
func Statements(o StatementsOptions) ([]Statement, error) {
	if o.Statements <= 0 {
		return nil, fmt.Errorf("generate statements: want a positive number, got %d", o.Statements)
	}
	if len(o.Checkouts) == 0 {
		return nil, fmt.Errorf("generate statements: no checkouts to place them in")
	}
	if !o.End.After(o.Start) {
		return nil, fmt.Errorf("generate statements: the span %s to %s is empty", o.Start, o.End)
	}
	g := newGen(o.Seed, statementStream)
	weights := make([]float64, len(o.Checkouts))
	for i := range weights {
		weights[i] = 1 / float64(i+1)
	}
	sg := &statementGen{g: g, o: o, weights: weights}
	nFacts := o.Statements * factShare / 100
	nEvents := o.Statements * eventShare / 100
	out := make([]Statement, 0, o.Statements)
	for len(out) < nFacts {
		out = sg.slot(out, min(g.between(1, 3), nFacts-len(out)))
	}
	for range nEvents {
		out = append(out, sg.event())
	}
	for len(out) < o.Statements {
		out = append(out, sg.note())
	}
	slices.SortStableFunc(out, func(a, b Statement) int { return a.Draft.ValidAt.Compare(b.Draft.ValidAt) })
	return out, nil
}

// statementGen draws statements from one stream.
type statementGen struct {
	g       *gen
	o       StatementsOptions
	weights []float64
}

// at is a valid time in the span, to the second.
func (s *statementGen) at() time.Time {
	span := s.o.End.Sub(s.o.Start)
	return s.o.Start.Add(time.Duration(s.g.r.Int64N(int64(span/time.Second))) * time.Second)
}

// writer draws who sends a statement; a user's own words carry the value.
func (s *statementGen) writer(st *Statement) {
	switch x := s.g.r.IntN(100); {
	case x < 55:
		st.Writer = memory.WriterCLI
	case x < 70:
		st.Writer = memory.WriterUser
		st.UserText = "Please remember this: " + st.Draft.Object
	case x < 90:
		st.Writer = memory.WriterModel
	case x < 97:
		st.Writer = memory.WriterTool
	default:
		st.Writer = memory.WriterAgent // declares no tier: stored, never shown
	}
}

// slot appends n values of one fact slot, in increasing valid time.
func (s *statementGen) slot(out []Statement, n int) []Statement {
	g := s.g
	f := s.family()
	k := g.weighted(s.weights)
	c := s.o.Checkouts[k]
	subject := f.subject(g, c)
	pred := g.pick(f.preds)
	times := make([]time.Time, n)
	for i := range times {
		times[i] = s.at()
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	prev := ""
	for i, t := range times {
		if i > 0 && !t.After(times[i-1]) {
			t = times[i-1].Add(time.Second)
			times[i] = t
		}
		v := f.value(g)
		for try := 0; v == prev && try < 8; try++ {
			v = f.value(g)
		}
		if v == prev {
			v += fmt.Sprintf(" (v%d)", i+1)
		}
		prev = v
		st := Statement{Checkout: k, Draft: memory.Draft{Kind: memory.KindFact, Subject: subject, Predicate: pred,
			Object: v, Class: f.class, Category: f.category, ValidAt: t, Pinned: g.chance(0.01)}}
		s.writer(&st)
		out = append(out, st)
	}
	return out
}

// family draws a fact family by weight.
func (s *statementGen) family() factFamily {
	total := 0
	for _, f := range factFamilies {
		total += f.weight
	}
	x := s.g.r.IntN(total)
	for _, f := range factFamilies {
		if x < f.weight {
			return f
		}
		x -= f.weight
	}
	return factFamilies[len(factFamilies)-1]
}

// event is one thing that happened to a service.
func (s *statementGen) event() Statement {
	g := s.g
	k := g.weighted(s.weights)
	c := s.o.Checkouts[k]
	var obj string
	switch g.r.IntN(4) {
	case 0:
		obj = fmt.Sprintf("v%d.%d.%d to production", g.between(1, 4), g.between(0, 30), g.between(0, 20))
	case 1:
		obj = g.fill("{p} ({t})")
	case 2:
		obj = g.fill("the {c} after {t}")
	default:
		obj = strings.ReplaceAll(g.sentence(), "`", "")
	}
	class := []memory.Class{memory.ClassEnvironment, memory.ClassDecision, memory.ClassTask}[g.r.IntN(3)]
	st := Statement{Checkout: k, Draft: memory.Draft{Kind: memory.KindEvent, Subject: serviceSubject(g, c),
		Predicate: g.pick(eventPreds), Object: obj, Class: class, ValidAt: s.at()}}
	s.writer(&st)
	return st
}

// note is a rule or habit in a sentence.
func (s *statementGen) note() Statement {
	g := s.g
	k := g.weighted(s.weights)
	var obj string
	if g.chance(0.03) {
		obj = g.chineseText(1)
	} else {
		obj = s.noteText()
		if g.chance(0.2) {
			obj += " " + g.sentence()
		}
	}
	var class memory.Class
	switch x := g.r.IntN(100); {
	case x < 25:
		class = memory.ClassPreference
	case x < 55:
		class = memory.ClassConvention
	case x < 75:
		class = memory.ClassDecision
	case x < 95:
		class = memory.ClassTask
	default:
		class = memory.ClassUser
	}
	st := Statement{Checkout: k, Draft: memory.Draft{Kind: memory.KindNote, Object: obj, Class: class,
		ValidAt: s.at(), Pinned: g.chance(0.03)}}
	s.writer(&st)
	return st
}

func (s *statementGen) noteText() string {
	g := s.g
	tpl := g.pick(noteTemplates)
	tpl = strings.ReplaceAll(tpl, "{who}", g.pick(people))
	tpl = strings.ReplaceAll(tpl, "{tool}", g.pick(toolValues))
	return strings.ReplaceAll(g.fill(tpl), "`", "")
}

// Subjects: a service is the checkout's project, a component or a
// service named from the identifier parts, so that slots seldom collide.
func serviceSubject(g *gen, c Checkout) string {
	switch g.r.IntN(10) {
	case 0, 1, 2:
		return filepath.Base(c.Clone)
	case 3, 4, 5:
		return g.pick(components)
	}
	return g.pick(nameParts) + "-" + g.pick(nameParts)
}

func repoSubject(g *gen, c Checkout) string {
	if g.chance(0.5) {
		return filepath.Base(c.Clone)
	}
	return g.pick(languages) + " code"
}

func worktreeSubject(_ *gen, c Checkout) string {
	return filepath.Base(c.Clone) + "@" + c.Branch
}

func languageSubject(g *gen, _ Checkout) string { return g.pick(languages) }

func userSubject(*gen, Checkout) string { return "user" }

func pickFrom(list []string) func(g *gen) string {
	return func(g *gen) string { return g.pick(list) }
}

func versionValue(g *gen) string {
	return fmt.Sprintf("%d.%d.%d", g.between(1, 24), g.between(0, 40), g.between(0, 30))
}

func portValue(g *gen) string { return itoa(g.between(1024, 65000)) }

func configValue(g *gen) string {
	switch g.r.IntN(6) {
	case 0:
		return itoa(g.between(1, 120)) + "s"
	case 1:
		return itoa(g.between(5, 2000)) + "ms"
	case 2:
		return itoa(g.between(1, 512)) + " MiB"
	case 3:
		return itoa(g.between(10, 5000)) + "/s"
	case 4:
		return g.pick([]string{"debug", "info", "warn", "error"})
	}
	return itoa(g.between(1, 1000))
}

func taskValue(g *gen) string {
	switch g.r.IntN(5) {
	case 0:
		return g.ticket()
	case 1:
		return "feat/" + g.pick(branchWords)
	case 2:
		return strings.ReplaceAll(g.fill("{i} {id} in {f}"), "`", "")
	case 3:
		return g.fill("{t}: {p}")
	}
	return g.fill("{i} the {c} {r}")
}

var factFamilies = []factFamily{
	{memory.ClassEnvironment, "deploy", 14, deployPreds, serviceSubject, pickFrom(deployValues)},
	{memory.ClassEnvironment, "port", 5, portPreds, serviceSubject, portValue},
	{memory.ClassDecision, "architecture", 14, dataPreds, serviceSubject, pickFrom(techValues)},
	{memory.ClassDecision, "people", 9, peoplePreds, serviceSubject, pickFrom(people)},
	{memory.ClassConvention, "tooling", 14, conventionPreds, repoSubject, pickFrom(toolValues)},
	{memory.ClassEnvironment, "dependency", 12, versionPreds(), serviceSubject, versionValue},
	{memory.ClassEnvironment, "config", 16, configPreds, serviceSubject, configValue},
	{memory.ClassTask, "", 8, taskPreds, worktreeSubject, taskValue},
	{memory.ClassPreference, "style", 7, preferencePreds, languageSubject, pickFrom(styleValues)},
	{memory.ClassUser, "profile", 1, userPreds, userSubject, pickFrom(userValues)},
}

func versionPreds() []string {
	out := make([]string, len(versionTools))
	for i, t := range versionTools {
		out[i] = "version_of_" + t
	}
	return out
}

// Predicates lists the predicates Statements draws from, facts' and
// events', without repeats.
func Predicates() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range factFamilies {
		for _, p := range f.preds {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	for _, p := range eventPreds {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

package corpus

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// PartsOptions say what GenerateParts writes: a Claude Code tree sized by
// the number of parts the importer stores (L0 rows), for search
// benchmarks. Where Generate stresses parsing with large files, this tree
// has parts of everyday length: requests of 50–400 bytes, answers of
// 100–1500, tool outputs of 200–4000, short remarks and tool calls.
type PartsOptions struct {
	// Parts is how many parts the Claude Code importer reads from the tree.
	Parts int `json:"parts"`
	// Seed picks the tree: the same options give the same bytes.
	Seed uint64 `json:"seed"`
	// Checkouts are where the sessions ran, busiest first: checkout i gets
	// sessions in proportion to 1/(i+1), as a few worktrees see most work.
	Checkouts []Checkout `json:"checkouts"`
	// Start is the time of the first session (default 2026-01-05 08:00 UTC).
	Start time.Time `json:"start"`
}

// PartsStats describe a tree GenerateParts wrote.
type PartsStats struct {
	Files    int   `json:"files"`
	Bytes    int64 `json:"bytes"`
	Sessions int   `json:"sessions"`
	Turns    int   `json:"turns"`
	Parts    int   `json:"parts"`
	// PartsIn counts the parts of each checkout, in the order given.
	PartsIn []int `json:"parts_in"`
}

// Bounds of what a search corpus session holds.
const (
	partsMinTurns  = 3
	partsMaxTurns  = 40
	partsMaxRounds = 5 // tool rounds in a turn
)

// GenerateParts writes the tree under dir/claude/projects and reports what
// it holds. dir should be empty or missing.
func GenerateParts(dir string, o PartsOptions) (PartsStats, error) {
	if o.Parts <= 0 {
		return PartsStats{}, fmt.Errorf("generate parts: want a positive number of parts, got %d", o.Parts)
	}
	if len(o.Checkouts) == 0 {
		return PartsStats{}, fmt.Errorf("generate parts: no checkouts to place sessions in")
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	}
	st := PartsStats{PartsIn: make([]int, len(o.Checkouts))}
	weights := make([]float64, len(o.Checkouts))
	for i := range weights {
		weights[i] = 1 / float64(i+1)
	}
	start := o.Start
	for i := uint64(0); st.Parts < o.Parts; i++ {
		g := newGen(o.Seed, i)
		start = start.Add(time.Duration(g.between(20, 600)) * time.Minute)
		k := g.weighted(weights)
		s := &partsSession{left: o.Parts - st.Parts}
		f, err := s.write(g, dir, o.Checkouts[k], start)
		if err != nil {
			return st, err
		}
		st.Files++
		st.Bytes += f.bytes
		st.Sessions++
		st.Turns += f.turns
		st.Parts += s.parts
		st.PartsIn[k] += s.parts
	}
	return st, nil
}

// weighted draws an index with probability proportional to its weight.
func (g *gen) weighted(w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	x := g.r.Float64() * total
	for i, v := range w {
		if x < v {
			return i
		}
		x -= v
	}
	return len(w) - 1
}

// partsSession writes one session of a search corpus, stopping when the
// tree's part budget runs out.
type partsSession struct {
	left  int // parts the tree still needs
	parts int // parts written
}

// turnPlan is the shape of one turn: per tool round, whether a remark
// comes before the call, and how many remarks come before the answer.
type turnPlan struct {
	remarks []bool
	extra   int
}

func (p turnPlan) parts() int {
	n := 2 + p.extra // request and answer
	for _, r := range p.remarks {
		n += 2 // call and result
		if r {
			n++
		}
	}
	return n
}

// plan draws a turn and fits it to the parts left, never leaving exactly
// one part over (a turn needs a request and an answer).
func (s *partsSession) plan(g *gen) turnPlan {
	var p turnPlan
	for range g.between(0, partsMaxRounds) {
		p.remarks = append(p.remarks, g.chance(0.5))
	}
	for p.parts() > s.left && len(p.remarks) > 0 {
		p.remarks = p.remarks[:len(p.remarks)-1]
	}
	if s.left-p.parts() == 1 {
		p.extra++
	}
	return p
}

func (s *partsSession) write(g *gen, dir string, at Checkout, start time.Time) (fileStats, error) {
	sid := g.uuid4()
	projDir := filepath.Join(dir, "claude", "projects", encodeCwd(at.Dir))
	out, err := create(filepath.Join(projDir, sid+".jsonl"))
	if err != nil {
		return fileStats{}, err
	}
	c := &claudeSession{
		g: g, out: out, sid: sid, cwd: at.Dir, branch: at.Branch, project: filepath.Base(at.Clone),
		version: g.pick(claudeVersions), model: g.pick(claudeModels), dir: projDir, now: start,
	}
	if g.chance(0.6) {
		c.sessionStart()
	}
	turns := 0
	for t := g.between(partsMinTurns, partsMaxTurns); t > 0 && s.left > 0; t-- {
		if s.left == 1 {
			// Only when the whole tree asks for one part: a request that
			// got no answer.
			c.prompt(g.uuid4(), g.request())
			s.left, s.parts = 0, s.parts+1
		} else {
			p := s.plan(g)
			c.searchTurn(p)
			s.left -= p.parts()
			s.parts += p.parts()
		}
		turns++
	}
	st := out.st
	st.sessions, st.turns = 1, turns
	return st, out.close()
}

// searchTurn writes one turn of the plan's shape.
func (c *claudeSession) searchTurn(p turnPlan) {
	g := c.g
	promptID := g.uuid4()
	c.snapshot(promptID)
	text := g.request()
	c.prompt(promptID, text)
	for _, remark := range p.remarks {
		msgID, reqID := "msg_01"+g.chars(alnum, 22), "req_011C"+g.chars(alnum, 20)
		parent := c.parent
		if g.chance(0.2) {
			parent = c.assistantLine(parent, msgID, reqID, "", c.thinkingBlock())
		}
		if remark {
			parent = c.assistantLine(parent, msgID, reqID, "", textBlock(g.remark()))
		}
		call := c.searchTool()
		use := c.assistantLine(parent, msgID, reqID, "tool_use", call.useBlock())
		c.tick(50, 20_000)
		c.parent = c.toolResult(use, call)
	}
	msgID, reqID := "msg_01"+g.chars(alnum, 22), "req_011C"+g.chars(alnum, 20)
	parent := c.parent
	for range p.extra {
		parent = c.assistantLine(parent, msgID, reqID, "", textBlock(g.remark()))
	}
	c.parent = c.assistantLine(parent, msgID, reqID, "end_turn", textBlock(g.reply(isChinese(text))))
}

// searchTool draws a tool call whose output is 200–4000 bytes, most of
// them short.
func (c *claudeSession) searchTool() claudeCall {
	g := c.g
	id := "toolu_01" + g.chars(alnum, 22)
	size := int(g.logBetween(200, 4000))
	switch x := g.r.IntN(100); {
	case x < 40:
		return c.bash(id, g.run(c.project, size))
	case x < 60:
		return c.read(id, size*3/4) // numbering adds about a third
	case x < 72:
		return c.edit(id)
	case x < 82:
		return c.grepTool(id, size)
	case x < 87:
		return c.glob(id, size)
	case x < 91:
		return c.write(id, size)
	case x < 95:
		return c.todo(id)
	case x < 98:
		return c.mcp(id, size)
	}
	return c.fetch(id, size)
}

// request is a prompt of 50–400 bytes; one in sixteen is in Chinese.
func (g *gen) request() string {
	if g.chance(0.06) {
		return g.chineseText(g.between(1, 3)) + " " + g.fill("({t}, {f})")
	}
	s := g.fill(g.pick(promptTemplates))
	want := int(g.logBetween(50, 400))
	for len(s) < want {
		s += " " + g.sentence()
	}
	return clip(s, 400)
}

// reply is a turn's final answer of 100–1500 bytes.
func (g *gen) reply(zh bool) string {
	s := g.answer(zh)
	for len(s) < 100 {
		s += " " + g.sentence()
	}
	return clip(s, 1500)
}

// clip cuts s to at most n bytes at the last space or newline, so no word
// or character is cut in half.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexAny(s[:n+1], " \n")
	if cut <= 0 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " \n")
}

package corpus

import (
	"path/filepath"
	"strings"
	"time"
)

// Generate writes a corpus under dir (claude/ and codex/) and reports what
// it holds. dir should be empty or missing; files of the same names are
// overwritten.
func Generate(dir string, opts Options) (Stats, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	half := o.TargetBytes / 2
	start := o.Start
	for i := uint64(0); st.Claude.Bytes < half; i++ {
		g := newGen(o.Seed, 2*i)
		start = start.Add(time.Duration(g.between(20, 600)) * time.Minute)
		size := fileSize(g, o, half-st.Claude.Bytes)
		files, err := writeClaude(g, dir, o, start, size, i == 0)
		if err != nil {
			return st, err
		}
		for _, f := range files {
			st.add(&st.Claude, f)
		}
	}
	start = o.Start
	for i := uint64(0); st.Codex.Bytes < o.TargetBytes-half; i++ {
		g := newGen(o.Seed, 2*i+1)
		start = start.Add(time.Duration(g.between(20, 600)) * time.Minute)
		size := fileSize(g, o, o.TargetBytes-half-st.Codex.Bytes)
		f, err := writeCodex(g, dir, o, start, size, i == 0)
		if err != nil {
			return st, err
		}
		st.add(&st.Codex, f)
	}
	return st, nil
}

// fileSize draws a session file's size, trimmed to what the tree still
// needs but never below the minimum.
func fileSize(g *gen, o Options, rest int64) int64 {
	size := g.logBetween(o.MinFileBytes, o.MaxFileBytes)
	return max(min(size, rest), o.MinFileBytes)
}

// place is a session's project, working directory and branch.
type place struct {
	project, cwd, branch string
}

func (g *gen) place() place {
	i := g.r.IntN(len(projects))
	p := place{project: projects[i], cwd: homes[i%len(homes)] + "/" + projects[i], branch: "main"}
	if g.chance(0.5) {
		p.branch = strings.ToLower(g.ticket()) + "-" + g.pick(branchWords)
	}
	return p
}

// encodeCwd names a project directory the way Claude Code does: every
// character that is not a letter or digit becomes a dash.
func encodeCwd(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// turnBudget splits what is left of a file among the turns still to
// write, with some spread so turns differ in size.
func turnBudget(g *gen, size, written int64, turnsLeft int) int64 {
	share := (size - written) / int64(turnsLeft)
	if turnsLeft == 1 {
		return max(share, 0)
	}
	return max(share*int64(g.between(50, 150))/100, 0)
}

// writeClaude writes one Claude Code session file (and its subagents'
// files) of about size bytes.
func writeClaude(g *gen, dir string, o Options, start time.Time, size int64, first bool) ([]fileStats, error) {
	p := g.place()
	sid := g.uuid4()
	projDir := filepath.Join(dir, "claude", "projects", encodeCwd(p.cwd))
	out, err := create(filepath.Join(projDir, sid+".jsonl"))
	if err != nil {
		return nil, err
	}
	c := &claudeSession{
		g: g, out: out, sid: sid, cwd: p.cwd, branch: p.branch, project: p.project,
		version: g.pick(claudeVersions), model: g.pick(claudeModels), dir: projDir,
		now: start, plant: plantFor(first),
	}
	if o.SubagentShare > 0 && g.chance(o.SubagentShare) {
		c.spawn = g.between(1, 2)
	}
	if g.chance(0.6) {
		c.sessionStart()
	}
	turns := g.between(o.MinTurns, o.MaxTurns)
	for t := range turns {
		c.turn(turnBudget(g, size, out.st.bytes, turns-t))
	}
	st := out.st
	st.sessions, st.turns = 1, turns
	if err := out.close(); err != nil {
		return nil, err
	}
	return append([]fileStats{st}, c.subs...), nil
}

// writeCodex writes one Codex rollout of about size bytes.
func writeCodex(g *gen, dir string, o Options, start time.Time, size int64, first bool) (fileStats, error) {
	p := g.place()
	id := g.uuid7(start)
	name := "rollout-" + start.UTC().Format("2006-01-02T15-04-05") + "-" + id + ".jsonl"
	path := filepath.Join(dir, "codex", "sessions", start.UTC().Format("2006"), start.UTC().Format("01"), start.UTC().Format("02"), name)
	out, err := create(path)
	if err != nil {
		return fileStats{}, err
	}
	x := &codexSession{
		g: g, out: out, id: id, cwd: p.cwd, branch: p.branch, project: p.project,
		version: g.pick(codexVersions), model: g.pick(codexModels), now: start.Add(time.Duration(g.between(50, 30_000)) * time.Millisecond),
		plant: plantFor(first),
	}
	x.meta()
	turns := g.between(o.MinTurns, o.MaxTurns)
	for t := range turns {
		x.turn(turnBudget(g, size, out.st.bytes, turns-t), t == 0)
	}
	st := out.st
	st.sessions, st.turns = 1, turns
	if err := out.close(); err != nil {
		return fileStats{}, err
	}
	return st, nil
}

// plantFor is the forced calls a session opens with: both kinds for the
// first session of each tree, none for the others.
func plantFor(first bool) int {
	if first {
		return 2
	}
	return 0
}

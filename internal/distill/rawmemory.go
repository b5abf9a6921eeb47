package distill

import (
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Section headings of a raw memory.
const (
	secPrefs     = "Preference signals"
	secKnowledge = "Reusable knowledge"
	secShields   = "Failure shields"
	secProcedure = "Procedure"
)

// maxKnowledge bounds the commands a raw memory lists.
const maxKnowledge = 8

// rawLine is one anchored line of a raw memory.
type rawLine struct {
	text   string
	anchor Anchor
}

// rawMemory is phase 1's routing record for one session.
type rawMemory struct {
	prefs     []rawLine
	knowledge []rawLine
	shields   []rawLine
	procedure []string // commands, in order
}

// buildRaw gathers the takeaways of a session: the user's rules in their
// words, the facts and the commands that worked, the failure shields and
// the procedure.
func buildRaw(tr *trace) rawMemory {
	var m rawMemory
	for _, s := range tr.st.rules {
		who := "the user said"
		if !asserted(s) {
			who = string(s.Tier)
		}
		t := quote(s.Object) + " — " + who + " (session " + tr.s.ExternalID + turnNote(s) + ")"
		m.prefs = append(m.prefs, rawLine{t, Anchor{IDs: []int64{s.ID}}})
	}
	for _, s := range tr.st.facts {
		m.knowledge = append(m.knowledge, rawLine{factText(s), Anchor{IDs: []int64{s.ID}}})
	}
	seen := map[string]bool{}
	n := 0
	for _, s := range tr.steps {
		if isGitBookkeeping(s.key) || seen[s.cmd] || n == maxKnowledge {
			continue
		}
		seen[s.cmd] = true
		n++
		t := code(s.cmd) + " worked (verified by a command)"
		m.knowledge = append(m.knowledge, rawLine{t, Anchor{Keys: []string{lineKey(t)}}})
	}
	for _, sh := range shieldsOf(tr) {
		m.shields = append(m.shields, rawLine{sh.text(), sh.anchor})
	}
	for _, s := range tr.steps {
		m.procedure = append(m.procedure, s.cmd)
	}
	return m
}

// turnNote says which turn a statement came from, when its evidence says:
// ", turn 2".
func turnNote(s memory.Statement) string {
	for _, e := range s.Evidence {
		if e.TurnSeq > 0 {
			return ", turn " + strconv.Itoa(e.TurnSeq)
		}
	}
	return ""
}

// frontmatter is the raw memory's header.
type frontmatter struct {
	session, provider, task, group, cwd string
	outcome                             memory.Outcome
	keywords                            []string
}

// render writes the raw memory: frontmatter, then the four sections.
func (m rawMemory) render(f frontmatter) string {
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("session: " + strconv.Quote(f.session) + "\n")
	b.WriteString("provider: " + strconv.Quote(f.provider) + "\n")
	b.WriteString("task: " + strconv.Quote(f.task) + "\n")
	b.WriteString("task_group: " + strconv.Quote(f.group) + "\n")
	b.WriteString("outcome: " + string(f.outcome) + "\n")
	b.WriteString("cwd: " + strconv.Quote(f.cwd) + "\n")
	qs := make([]string, len(f.keywords))
	for i, k := range f.keywords {
		qs[i] = strconv.Quote(k)
	}
	b.WriteString("keywords: [" + strings.Join(qs, ", ") + "]\n")
	b.WriteString("---\n")
	section := func(name string, lines []rawLine) {
		if len(lines) == 0 {
			return
		}
		b.WriteString("\n## " + name + "\n")
		for _, l := range lines {
			b.WriteString(withAnchor("- "+l.text, l.anchor) + "\n")
		}
	}
	section(secPrefs, m.prefs)
	section(secKnowledge, m.knowledge)
	section(secShields, m.shields)
	if len(m.procedure) > 0 {
		b.WriteString("\n## " + secProcedure + "\n")
		for i, c := range m.procedure {
			b.WriteString(strconv.Itoa(i+1) + ". " + code(c) + "\n")
		}
	}
	return b.String()
}

// parseRaw reads a raw memory back: the anchored lines of each section and
// the procedure's commands. Lines it cannot read are skipped; a raw memory
// a model wrote in the same shape reads the same way.
func parseRaw(s string) rawMemory {
	var m rawMemory
	for _, l := range parsePage(s) {
		if l.kind == lineHeading {
			continue
		}
		switch l.section {
		case "":
			if l.family == secProcedure {
				if c := unCode(clean(l.body)); c != "" && (l.kind == lineText || l.kind == lineStated) {
					m.procedure = append(m.procedure, c)
				}
				continue
			}
			if l.kind != lineStated {
				continue
			}
			rl := rawLine{clean(l.body), l.anchor}
			switch l.family {
			case secPrefs:
				m.prefs = append(m.prefs, rl)
			case secKnowledge:
				m.knowledge = append(m.knowledge, rl)
			case secShields:
				m.shields = append(m.shields, rl)
			}
		}
	}
	return m
}

// unCode returns the command inside backticks, or "".
func unCode(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "`` ") && strings.HasSuffix(s, " ``"):
		return s[3 : len(s)-3]
	case len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`':
		return s[1 : len(s)-1]
	}
	return ""
}

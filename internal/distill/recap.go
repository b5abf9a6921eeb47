package distill

import (
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Bounds on a recap.
const (
	maxRecapTurns  = 24
	maxRecapItems  = 30
	maxRecapQuote  = 600
	maxV2Recap     = 6000
	maxV2RecapItem = 300
)

// recapV1 writes the detailed rollout summary: the request, what each turn
// did, the outcome, and the evidence sorted by who stands behind it: the
// user, a command, or only the assistant.
func recapV1(tr *trace, task, group string, o memory.Outcome, why string) string {
	var b strings.Builder
	b.WriteString("# " + task + "\n\n")
	b.WriteString(header(tr))
	b.WriteString("- **Outcome:** " + string(o) + " — " + why + "\n")
	b.WriteString("- **Task group:** " + group + "\n")
	if req := firstRequest(tr); req != "" {
		b.WriteString("\n## Request\n\n> " + clip(req, maxRecapQuote) + "\n")
	}
	b.WriteString("\n## What was done\n\n")
	for i, t := range tr.turns {
		if i == maxRecapTurns {
			b.WriteString("- … " + plural(len(tr.turns)-i, "more turn", "more turns") + "\n")
			break
		}
		b.WriteString(strconv.Itoa(i+1) + ". " + turnLine(tr, t) + "\n")
	}
	if len(tr.files) > 0 {
		b.WriteString("\nFiles changed: " + strings.Join(codeAll(tr.files, 12), ", ") + ".\n")
	}
	b.WriteString("\n## Evidence\n")
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n### " + title + "\n\n")
		for i, it := range items {
			if i == maxRecapItems {
				b.WriteString("- … " + plural(len(items)-i, "more", "more") + "\n")
				break
			}
			b.WriteString("- " + it + "\n")
		}
	}
	list("The user said", userSaid(tr))
	list("Verified by a command", verified(tr))
	list("The assistant proposed (not verified)", proposed(tr))
	var shields []string
	for _, s := range shieldsOf(tr) {
		shields = append(shields, s.text())
	}
	list("Failure shields", shields)
	return b.String()
}

// header is the recap's list of session facts.
func header(tr *trace) string {
	s := tr.s
	var b strings.Builder
	b.WriteString("- **Session:** " + code(s.ExternalID) + " (" + string(s.Provider) + ")")
	if span := timeSpan(s.StartedAt, sessionEnd(s)); span != "" {
		b.WriteString(", " + span)
	}
	b.WriteString(", " + plural(len(tr.turns), "turn", "turns") + "\n")
	place := firstNonEmpty(s.Cwd, s.Place.Worktree)
	if place != "" || s.Place.Repo != "" {
		b.WriteString("- **Place:** ")
		if place != "" {
			b.WriteString(code(place))
		}
		if s.Place.Repo != "" {
			b.WriteString(" (repo " + s.Place.Repo + ")")
		}
		if s.Branch != "" {
			b.WriteString(", branch " + code(s.Branch))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func timeSpan(from, to time.Time) string {
	switch {
	case from.IsZero() && to.IsZero():
		return ""
	case from.IsZero():
		return to.UTC().Format("2006-01-02 15:04") + " UTC"
	case to.IsZero() || to.Equal(from):
		return from.UTC().Format("2006-01-02 15:04") + " UTC"
	case from.UTC().Format("2006-01-02") == to.UTC().Format("2006-01-02"):
		return from.UTC().Format("2006-01-02 15:04") + "–" + to.UTC().Format("15:04") + " UTC"
	}
	return from.UTC().Format("2006-01-02 15:04") + " – " + to.UTC().Format("2006-01-02 15:04") + " UTC"
}

func firstRequest(tr *trace) string {
	for _, t := range tr.turns {
		if r := oneLine(memory.StripMarked(t.Request)); r != "" && substantive(r) {
			return r
		}
	}
	if len(tr.turns) > 0 {
		return oneLine(memory.StripMarked(tr.turns[0].Request))
	}
	return ""
}

// turnLine says what one turn asked and how it ended.
func turnLine(tr *trace, t memory.Turn) string {
	req := clip(oneLine(memory.StripMarked(t.Request)), 160)
	out := clip(oneLine(memory.StripMarked(t.Outcome)), 200)
	line := "Turn " + strconv.Itoa(t.Seq) + " (" + string(t.Status) + "): "
	if req != "" {
		line += "asked " + quote(req)
	} else {
		line += "no request text"
	}
	if out != "" {
		line += "; the assistant answered " + quote(out)
	}
	var tools []string
	for _, r := range tr.runs {
		if r.turn == t.Seq && r.tool != "" && !containsStr(tools, r.tool) {
			tools = append(tools, r.tool)
		}
	}
	if len(tools) > 0 {
		line += ". Tools: " + strings.Join(tools, ", ")
	}
	return line + "."
}

func userSaid(tr *trace) []string {
	var out []string
	for _, s := range tr.st.rules {
		if asserted(s) {
			out = append(out, quote(s.Object)+" — "+string(s.Class)+turnNote(s))
		}
	}
	for _, s := range tr.st.facts {
		if asserted(s) {
			out = append(out, factText(s)+strings.Replace(turnNote(s), ",", " —", 1))
		}
	}
	return out
}

func verified(tr *trace) []string {
	var out []string
	for _, f := range tr.failures {
		line := code(f.cmd) + " failed"
		if f.line != "" {
			line += " with " + quote(f.line)
		}
		line += " (turn " + strconv.Itoa(f.r.turn) + ")"
		if f.fix == nil {
			line += "; not fixed in this session"
		}
		out = append(out, line)
	}
	seen := map[string]bool{}
	for _, s := range tr.steps {
		if isGitBookkeeping(s.key) || seen[s.cmd] {
			continue
		}
		seen[s.cmd] = true
		out = append(out, code(s.cmd)+" worked (turn "+strconv.Itoa(s.turn)+")")
	}
	shas := map[string]bool{}
	for _, c := range tr.commits {
		shas[c.sha] = true
		out = append(out, "commit "+code(c.sha)+" "+quote(c.msg)+" (turn "+strconv.Itoa(c.turn)+")")
	}
	for _, s := range tr.st.commits {
		sha, _, _ := strings.Cut(s.Object, " ")
		if s.Predicate == "committed" && shas[sha] {
			continue
		}
		out = append(out, strings.ReplaceAll(s.Predicate, "_", " ")+" "+quote(s.Object)+strings.Replace(turnNote(s), ",", " —", 1))
	}
	if len(tr.files) > 0 {
		out = append(out, "changed "+strings.Join(codeAll(tr.files, 12), ", "))
	}
	return out
}

func proposed(tr *trace) []string {
	var out []string
	for _, f := range tr.failures {
		if f.cause != "" {
			out = append(out, "cause of "+code(f.key)+" failing: "+quote(f.cause)+" (turn "+strconv.Itoa(f.r.turn)+")")
		}
	}
	for _, t := range tr.turns {
		if o := oneLine(memory.StripMarked(t.Outcome)); o != "" {
			out = append(out, quote(firstSentence(o, 240))+" (turn "+strconv.Itoa(t.Seq)+")")
		}
	}
	for _, s := range append(append([]memory.Statement{}, tr.st.rules...), tr.st.facts...) {
		if !asserted(s) && s.Tier != memory.TierObserved {
			out = append(out, quote(stmtText(s))+" — "+string(s.Tier))
		}
	}
	return out
}

// recapV2 writes the bounded task history of Memory V2: what the user
// asked first, then the assistant's final answers, then the tools. The
// working directory and branch are hints, not labels to trust.
func recapV2(tr *trace, task string, o memory.Outcome, why string) string {
	var asked, answered, tools []string
	for _, t := range tr.turns {
		if r := oneLine(memory.StripMarked(t.Request)); r != "" {
			asked = append(asked, "(turn "+strconv.Itoa(t.Seq)+") "+quote(clip(r, maxV2RecapItem)))
		}
	}
	for _, t := range tr.turns {
		if r := oneLine(memory.StripMarked(t.Outcome)); r != "" {
			answered = append(answered, "(turn "+strconv.Itoa(t.Seq)+") "+quote(clip(r, maxV2RecapItem)))
		}
	}
	for _, v := range verified(tr) {
		tools = append(tools, clip(v, maxV2RecapItem))
	}
	head := "# " + task + "\n\n"
	hint := "Session " + code(tr.s.ExternalID) + " (" + string(tr.s.Provider) + ")"
	if d := sessionEnd(tr.s); !d.IsZero() {
		hint += ", " + d.UTC().Format("2006-01-02")
	}
	hint += ", " + plural(len(tr.turns), "turn", "turns") + "."
	if cwd := firstNonEmpty(tr.s.Cwd, tr.s.Place.Worktree); cwd != "" {
		hint += " Working directory " + code(cwd)
		if tr.s.Branch != "" {
			hint += ", branch " + code(tr.s.Branch)
		}
		hint += " (hints, not labels)."
	}
	head += hint + "\n\nOutcome: " + string(o) + " — " + why + "\n"
	secs := []*recapSection{{"What the user asked", asked}, {"What the assistant answered", answered}, {"Tools", tools}}
	return fitSections(head, secs, maxV2Recap)
}

// recapSection is a titled list of a bounded recap.
type recapSection struct {
	title string
	items []string
}

// fitSections renders head and sections, dropping items from the last
// section that has any until the text fits in limit bytes.
func fitSections(head string, secs []*recapSection, limit int) string {
	for {
		var b strings.Builder
		b.WriteString(head)
		for _, s := range secs {
			if len(s.items) == 0 {
				continue
			}
			b.WriteString("\n## " + s.title + "\n\n")
			for _, it := range s.items {
				b.WriteString("- " + it + "\n")
			}
		}
		if b.Len() <= limit {
			return b.String()
		}
		cut := false
		for i := len(secs) - 1; i >= 0; i-- {
			if n := len(secs[i].items); n > 0 {
				secs[i].items = secs[i].items[:n-1]
				cut = true
				break
			}
		}
		if !cut {
			return clipBytes(b.String(), limit)
		}
	}
}

// clipBytes cuts s to at most n bytes on a rune boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

package distill

import (
	"slices"
	"strconv"
	"strings"
)

// renderSkill writes a SKILL.md: when to use it, its inputs, the numbered
// procedure, its pitfalls, a verification checklist and the sessions it
// was learned from, sealed with a fingerprint.
func (p *pass) renderSkill(s *skill) string {
	var places, groups, kws []string
	for _, i := range s.sessions {
		x := p.exts[i]
		places = unionStr(places, []string{placeName(x.Place, "")})
		groups = unionStr(groups, []string{familyOf(x)})
	}
	// Task words: each session's best keywords in turn.
	for n := 0; n < maxKeywords && len(kws) < 8; n++ {
		for _, i := range s.sessions {
			if k := p.exts[i].Keywords; n < len(k) && len(kws) < 8 {
				kws = unionStr(kws, []string{k[n]})
			}
		}
	}
	var b strings.Builder
	title, desc := p.skillTitle(s, places)
	b.WriteString("---\nname: " + s.name + "\ndescription: " + strconv.Quote(desc) + "\n---\n\n")
	b.WriteString("# " + title + "\n\n")
	b.WriteString("## When to use\n\n")
	if s.fix {
		b.WriteString("- " + s.symptom + ".\n")
	} else {
		b.WriteString("- When work in " + strings.Join(places, ", ") + " reaches the point of " + stepsPhrase(s.keys) + ".\n")
	}
	b.WriteString("- Seen in " + strings.Join(groups, "; ") + ".\n")
	if len(kws) > 0 {
		b.WriteString("- Task words: " + strings.Join(kws, ", ") + ".\n")
	}
	b.WriteString("\n## Inputs\n\n")
	for _, i := range s.sessions {
		x := p.exts[i]
		b.WriteString("- A checkout of " + placeName(x.Place, "") + ": " + placeScope(x.Place) + ".\n")
		break
	}
	if slices.Contains(s.keys, "git commit") {
		b.WriteString("- A commit message for the change.\n")
	}
	b.WriteString("\n## Procedure\n\n")
	if s.fix {
		b.WriteString("1. Confirm the symptom: " + s.symptom + ".\n")
		b.WriteString("2. Apply the fix that worked before: " + s.steps[0] + ".\n")
		b.WriteString("3. Run the failing command again and check that it succeeds.\n")
	} else {
		for n, c := range s.steps {
			b.WriteString(strconv.Itoa(n+1) + ". Run " + code(c) + ".\n")
		}
	}
	b.WriteString("\n## Pitfalls\n\n")
	if !s.fix {
		b.WriteString("- Stop at the first step that fails: the steps after it assume it passed.\n")
	}
	for _, pf := range s.pitfalls {
		if !s.fix || !strings.Contains(pf, s.symptom) {
			b.WriteString("- " + pf + "\n")
		}
	}
	if s.fix {
		b.WriteString("- The fix is what worked in the sessions below; check that the cause is the same before applying it.\n")
	}
	b.WriteString("\n## Verification checklist\n\n")
	for _, c := range checklist(s) {
		b.WriteString("- [ ] " + c + "\n")
	}
	b.WriteString("\n## Learned from\n\n")
	for _, i := range s.sessions {
		x := p.exts[i]
		day := "undated"
		if !x.SessionAt.IsZero() {
			day = x.SessionAt.UTC().Format("2006-01-02")
		}
		b.WriteString("- [" + day + "](../../" + RecapPath(x.Slug) + ") " + code(x.SessionRef) + ": " + x.Task + " (" + string(x.Outcome) + ")\n")
	}
	body := b.String()
	return body + "\n" + fingerprint(body+"\n")
}

// skillTitle gives a skill's heading and one-line description.
func (p *pass) skillTitle(s *skill, places []string) (string, string) {
	n := strconv.Itoa(len(s.sessions))
	if s.fix {
		return "Fix: " + s.symptom, "Fix for " + s.symptom + "; worked in " + n + " sessions (" + strings.Join(places, ", ") + ")."
	}
	var cs []string
	for _, c := range s.steps {
		cs = append(cs, code(c))
	}
	return stepsPhrase(s.keys), "Run " + strings.Join(cs, ", then ") + "; done this way in " + n + " sessions (" + strings.Join(places, ", ") + ")."
}

// stepsPhrase says a procedure's commands briefly: "go vet, go test, then commit".
func stepsPhrase(keys []string) string {
	var ws []string
	for _, k := range keys {
		switch k {
		case "git add":
		case "git commit":
			ws = append(ws, "commit")
		case "git push":
			ws = append(ws, "push")
		default:
			ws = append(ws, k)
		}
	}
	if len(ws) > 1 {
		return strings.Join(ws[:len(ws)-1], ", ") + ", then " + ws[len(ws)-1]
	}
	return strings.Join(ws, "")
}

// checklist is what to check once the procedure has run.
func checklist(s *skill) []string {
	if s.fix {
		return []string{
			"The command that failed now exits with code 0.",
			"The symptom's message no longer appears in its output.",
			"Tests still pass after the fix.",
		}
	}
	out := []string{"Every step exited with code 0."}
	if slices.ContainsFunc(s.keys, isTest) {
		out = append(out, "The test step reported no failures (not just no output).")
	}
	if slices.Contains(s.keys, "git commit") {
		out = append(out, "`git log -1` shows the new commit with the intended message.")
	}
	if slices.Contains(s.keys, "git push") {
		out = append(out, "`git status` shows the branch up to date with its remote.")
	}
	return out
}

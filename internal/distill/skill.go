package distill

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
)

// Skill bounds.
const (
	maxSkillSteps = 8
	maxSkillName  = 48
)

// skill is a procedure that repeated across sessions: the same run of
// commands, or the same fix for the same failure.
type skill struct {
	name     string
	fix      bool
	keys     []string
	steps    []string
	sessions []int // live extractions, best first
	pitfalls []string
	symptom  string
}

// skills finds the procedures of the live raw memories that at least two
// distinct sessions share. A run of commands counts when it does more
// than record work (git add and commit alone are no skill); a shorter run
// inside a longer one that repeats is not a skill of its own. One session's
// procedure, however long, is trivia.
func (p *pass) skills() []*skill {
	var out []*skill
	out = append(out, p.procedureSkills()...)
	out = append(out, p.fixSkills()...)
	taken := map[string]bool{}
	var kept []*skill
	for _, s := range out {
		base := s.name
		for n := 2; taken[s.name]; n++ {
			s.name = base + "-" + itoa64(int64(n))
		}
		if p.dropped["skill:"+s.name] {
			continue
		}
		taken[s.name] = true
		s.pitfalls = p.pitfalls(s)
		kept = append(kept, s)
	}
	slices.SortStableFunc(kept, func(a, b *skill) int { return strings.Compare(a.name, b.name) })
	return kept
}

func (p *pass) procedureSkills() []*skill {
	type gram struct {
		keys     []string
		sessions []int
		refs     map[string]bool
	}
	grams := map[string]*gram{}
	for i, m := range p.raws {
		keys, _ := foldSteps(m.procedure)
		seen := map[string]bool{}
		for n := 2; n <= min(len(keys), maxSkillSteps); n++ {
			for at := 0; at+n <= len(keys); at++ {
				id := strings.Join(keys[at:at+n], "\x1f")
				if seen[id] {
					continue
				}
				seen[id] = true
				g := grams[id]
				if g == nil {
					g = &gram{keys: keys[at : at+n], refs: map[string]bool{}}
					grams[id] = g
				}
				g.sessions = append(g.sessions, i)
				g.refs[p.exts[i].SessionRef] = true
			}
		}
	}
	var cands []*gram
	for _, id := range slices.Sorted(maps.Keys(grams)) {
		g := grams[id]
		if len(g.refs) >= 2 && slices.ContainsFunc(g.keys, func(k string) bool { return !isGitBookkeeping(k) }) {
			cands = append(cands, g)
		}
	}
	slices.SortStableFunc(cands, func(a, b *gram) int {
		if len(a.keys) != len(b.keys) {
			return len(b.keys) - len(a.keys)
		}
		return len(b.refs) - len(a.refs)
	})
	var out []*skill
	var keptKeys [][]string
	for _, g := range cands {
		if slices.ContainsFunc(keptKeys, func(k []string) bool { return containsRun(k, g.keys) }) {
			continue
		}
		keptKeys = append(keptKeys, g.keys)
		s := &skill{keys: g.keys, sessions: g.sessions}
		s.steps = p.wording(g.sessions[0], g.keys)
		s.name = procedureName(g.keys)
		out = append(out, s)
	}
	return out
}

// foldSteps reads a procedure's commands and keys, a command repeated
// in a row counted once.
func foldSteps(cmds []string) (keys, steps []string) {
	for _, c := range cmds {
		k := commandKey(c)
		if k == "" || len(keys) > 0 && keys[len(keys)-1] == k {
			continue
		}
		keys = append(keys, k)
		steps = append(steps, c)
	}
	return keys, steps
}

// wording takes the steps' exact commands from one session's procedure.
func (p *pass) wording(i int, keys []string) []string {
	ks, steps := foldSteps(p.raws[i].procedure)
	for at := 0; at+len(keys) <= len(ks); at++ {
		if slices.Equal(ks[at:at+len(keys)], keys) {
			return steps[at : at+len(keys)]
		}
	}
	return keys
}

// containsRun reports whether run appears in seq, contiguous.
func containsRun(seq, run []string) bool {
	for at := 0; at+len(run) <= len(seq); at++ {
		if slices.Equal(seq[at:at+len(run)], run) {
			return true
		}
	}
	return false
}

// procedureName names a procedure by its working steps: "go-vet-go-test-then-commit".
func procedureName(keys []string) string {
	var ws []string
	commit, push := false, false
	for _, k := range keys {
		switch {
		case k == "git commit":
			commit = true
		case k == "git push":
			push = true
		case !isGitBookkeeping(k):
			ws = append(ws, k)
		}
	}
	name := strings.Join(ws, " ")
	switch {
	case push:
		name += " then push"
	case commit:
		name += " then commit"
	}
	return kebab(name, maxSkillName)
}

// fixSkills finds failures that two distinct sessions fixed: the same
// symptom, once numbers, hashes and directories are set aside.
func (p *pass) fixSkills() []*skill {
	type fix struct {
		sh       shield
		sessions []int
		refs     map[string]bool
	}
	bySig := map[string]*fix{}
	for i, m := range p.raws {
		for _, l := range m.shields {
			sh, ok := parseShield(l.text)
			if !ok || !p.shieldLive(l.anchor) {
				continue
			}
			sig := signature(sh.symptom)
			f := bySig[sig]
			if f == nil {
				f = &fix{sh: sh, refs: map[string]bool{}}
				bySig[sig] = f
			}
			if !slices.Contains(f.sessions, i) {
				f.sessions = append(f.sessions, i)
			}
			f.refs[p.exts[i].SessionRef] = true
		}
	}
	var out []*skill
	for _, sig := range slices.Sorted(maps.Keys(bySig)) {
		f := bySig[sig]
		if len(f.refs) < 2 {
			continue
		}
		s := &skill{fix: true, sessions: f.sessions, symptom: f.sh.symptom}
		cmd, err, _ := strings.Cut(f.sh.symptom, " failed")
		s.keys = []string{commandKey(unCode(cmd))}
		s.steps = []string{f.sh.fix}
		words := strings.TrimPrefix(strings.TrimSpace(err), "with ")
		s.name = kebab("fix "+firstWords(words+" "+unCode(cmd), 5), maxSkillName)
		out = append(out, s)
	}
	return out
}

// shieldLive reports whether a shield's evidence is still current.
func (p *pass) shieldLive(a Anchor) bool {
	for _, id := range a.IDs {
		if _, ok := p.stmts[id]; ok {
			return true
		}
	}
	return slices.ContainsFunc(a.Keys, func(k string) bool { return !p.dropped["k:"+k] })
}

// pitfalls are the failure shields of the skill's sessions that concern
// its commands.
func (p *pass) pitfalls(s *skill) []string {
	var out []string
	seen := map[string]bool{}
	for _, i := range s.sessions {
		for _, l := range p.raws[i].shields {
			sh, ok := parseShield(l.text)
			if !ok || !p.shieldLive(l.anchor) {
				continue
			}
			cmd, _, _ := strings.Cut(sh.symptom, " failed")
			if !slices.Contains(s.keys, commandKey(unCode(cmd))) || seen[signature(sh.symptom)] {
				continue
			}
			seen[signature(sh.symptom)] = true
			out = append(out, sh.text())
		}
	}
	return out
}

// attachSkills lists each skill in the families of its sessions.
func (p *pass) attachSkills(fams []*family, skills []*skill) {
	for _, s := range skills {
		for _, f := range fams {
			if slices.ContainsFunc(s.sessions, func(i int) bool { return slices.Contains(f.exts, i) }) {
				f.skills = append(f.skills, s.name)
			}
		}
	}
}

// skillFiles renders the skills, keeping a SKILL.md a person edited (its
// fingerprint no longer matches) or wrote (it has none) as it is on disk.
func (p *pass) skillFiles(skills []*skill) map[string]string {
	out := map[string]string{}
	for name, body := range p.in.Skills {
		if !machineOwned(body) {
			out[name] = body
		}
	}
	for _, s := range skills {
		if _, ok := out[s.name]; !ok {
			out[s.name] = p.renderSkill(s)
		}
	}
	return out
}

// fingerprintPrefix opens the last line of a generated SKILL.md.
const fingerprintPrefix = "<!-- cairn skill fingerprint:"

// fingerprint seals a generated skill: the hash of everything above it.
func fingerprint(body string) string {
	sum := sha256.Sum256([]byte(body))
	return fingerprintPrefix + hex.EncodeToString(sum[:6]) + " -->\n"
}

// machineOwned reports whether a SKILL.md is as cairn wrote it.
func machineOwned(text string) bool {
	t := strings.TrimRight(text, "\n")
	i := strings.LastIndex(t, "\n")
	if i < 0 || !strings.HasPrefix(t[i+1:], fingerprintPrefix) {
		return false
	}
	return fingerprint(t[:i+1]) == t[i+1:]+"\n"
}

// kebab turns words into a file-safe name of at most n bytes.
func kebab(s string, n int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > n {
		out = out[:n]
		if i := strings.LastIndexByte(out, '-'); i > n/2 {
			out = out[:i]
		}
	}
	out = strings.Trim(out, "-")
	if out == "" {
		return "procedure"
	}
	return out
}

// firstWords returns up to n informative words of s.
func firstWords(s string, n int) string {
	var ws []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.')
	}) {
		w = strings.Trim(w, ".")
		if len(w) < 2 || slices.Contains(ws, w) || w == "with" || w == "failed" || w == "the" || w == "to" || w == "it" {
			continue
		}
		ws = append(ws, w)
		if len(ws) == n {
			break
		}
	}
	return strings.Join(ws, " ")
}

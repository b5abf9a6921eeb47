package distill

import (
	"regexp"
	"strings"
	"sync"
)

// shield is a failure shield: symptom → cause → fix, from a failed command
// that a later run of the same command fixed.
type shield struct {
	symptom, cause, fix string
	anchor              Anchor
}

// shieldsOf turns the session's fixed failures into shields, one per
// command and fix: the first failure names the symptom, and everything
// changed until the fix is the fix.
func shieldsOf(tr *trace) []shield {
	var out []shield
	seen := map[string]bool{}
	for _, f := range tr.failures {
		if f.fix == nil {
			continue
		}
		id := f.key + "\x1f" + itoa64(int64(f.fix.order))
		if seen[id] {
			continue
		}
		seen[id] = true
		sh := shield{symptom: code(generalize(f.key, f.cmd)) + " failed"}
		if f.line != "" {
			sh.symptom += " with " + quote(f.line)
		}
		if f.cause != "" {
			sh.cause = "(the assistant's reading) " + quote(f.cause)
		}
		var fix []string
		if len(f.files) > 0 {
			fix = append(fix, "changed "+strings.Join(codeAll(f.files, 6), ", "))
		}
		fixCmd := f.cmd
		for _, c := range simpleCommands(f.fix.line) {
			if commandKey(c) == f.key {
				fixCmd = c
				break
			}
		}
		fix = append(fix, "then "+code(generalize(f.key, fixCmd))+" worked (verified by a command)")
		sh.fix = strings.Join(fix, "; ")
		if f.stmt != 0 {
			sh.anchor.IDs = []int64{f.stmt}
		} else {
			sh.anchor.Keys = []string{lineKey(sh.symptom)}
		}
		out = append(out, sh)
	}
	return out
}

// text renders the shield as one line.
func (s shield) text() string {
	t := "symptom: " + s.symptom
	if s.cause != "" {
		t += " → cause: " + s.cause
	}
	return t + " → fix: " + s.fix
}

// parseShield reads a shield line back.
func parseShield(body string) (shield, bool) {
	b := clean(body)
	rest, ok := strings.CutPrefix(b, "symptom: ")
	if !ok {
		return shield{}, false
	}
	var s shield
	s.symptom, rest, _ = strings.Cut(rest, " → ")
	for rest != "" {
		var seg string
		seg, rest, _ = strings.Cut(rest, " → ")
		switch {
		case strings.HasPrefix(seg, "cause: "):
			s.cause = strings.TrimPrefix(seg, "cause: ")
		case strings.HasPrefix(seg, "fix: "):
			s.fix = strings.TrimPrefix(seg, "fix: ")
		}
	}
	return s, s.symptom != ""
}

var (
	sigNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:[0-9a-f]{7,40}|\d+(?:\.\d+)*)\b`) })
	sigPath   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\s"'` + "`" + `()]*/([^\s"'` + "`" + `()/]+)`) })
)

// signature is what two occurrences of the same failure share: the
// symptom with numbers, hashes and directories taken out.
func signature(symptom string) string {
	s := strings.ToLower(symptom)
	s = sigPath().ReplaceAllString(s, "$1")
	s = sigNumber().ReplaceAllString(s, "#")
	s = strings.NewReplacer("`", "", "\"", "", "'", "").Replace(s)
	return oneLine(s)
}

// codeAll wraps up to n paths in backticks, noting how many more there are.
func codeAll(paths []string, n int) []string {
	var out []string
	for i, p := range paths {
		if i == n {
			out = append(out, "and "+plural(len(paths)-n, "more file", "more files"))
			break
		}
		out = append(out, code(p))
	}
	return out
}

package corpus

import (
	"strings"
)

// shellRun is one shell command and what it printed.
type shellRun struct {
	cmd, desc, out string
	exit           int
	secrets        int    // credentials planted in out
	read           bool   // the command reads a file
	path           string // the file it reads
}

// run draws a shell command with output of about size bytes.
func (g *gen) run(project string, size int) shellRun {
	module := "github.com/acme/" + project
	switch g.r.IntN(12) {
	case 0, 1:
		return g.goTest(module, size)
	case 2:
		return g.gitStatus(size)
	case 3:
		return g.gitLog(size)
	case 4:
		p := g.relPath()
		return shellRun{cmd: "git diff " + p, desc: "Show pending changes", out: g.unifiedDiff(p, size)}
	case 5:
		return g.grep(size)
	case 6:
		p := g.relPath()
		from := g.between(1, 200)
		lines := g.codeOfSize(p, size)
		return shellRun{cmd: "sed -n '" + itoa(from) + "," + itoa(from+len(lines)) + "p' " + p, desc: "Read part of " + p,
			out: strings.Join(lines, "\n") + "\n", read: true, path: p}
	case 7:
		return g.listing(size)
	case 8:
		return g.pytest(size)
	case 9:
		return shellRun{cmd: "curl -s localhost:8080/api/v1/" + g.pick(nameParts) + "s?limit=" + itoa(g.between(5, 50)) + " | jq .",
			desc: "Query the local API", out: g.jsonDoc(size)}
	case 10:
		return g.buildErrors(module, size)
	}
	return g.pods(size)
}

// fillLines appends lines from next until out reaches size bytes.
func fillLines(b *strings.Builder, size int, next func() string) {
	for b.Len() < size {
		b.WriteString(next())
		b.WriteByte('\n')
	}
}

func (g *gen) goTest(module string, size int) shellRun {
	var b strings.Builder
	fail := g.chance(0.2)
	failed := false
	fillLines(&b, size, func() string {
		pkg := module + "/" + g.pick(dirParts) + "/" + g.pick(nameParts)
		if fail && !failed && g.chance(0.2) {
			failed = true
			test := "Test" + g.camel(true)
			return "--- FAIL: " + test + " (0.0" + itoa(g.between(0, 9)) + "s)\n    " + g.snake() + "_test.go:" + itoa(g.between(10, 300)) +
				": got " + itoa(g.between(0, 99)) + ", want " + itoa(g.between(100, 199)) + "\nFAIL\nFAIL\t" + pkg + "\t0." + itoa(g.between(100, 999)) + "s"
		}
		if g.chance(0.1) {
			return "?   \t" + pkg + "\t[no test files]"
		}
		return "ok  \t" + pkg + "\t" + itoa(g.between(0, 4)) + "." + itoa(g.between(100, 999)) + "s"
	})
	r := shellRun{cmd: "go test ./...", desc: "Run the test suite", out: b.String()}
	if failed {
		r.out += "FAIL\n"
		r.exit = 1
	}
	return r
}

func (g *gen) gitStatus(size int) shellRun {
	var b strings.Builder
	b.WriteString("On branch " + g.pick(branchWords) + "\nChanges not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n\n")
	fillLines(&b, size, func() string { return "\tmodified:   " + g.relPath() })
	return shellRun{cmd: "git status", desc: "Check working tree", out: b.String()}
}

func (g *gen) gitLog(size int) shellRun {
	var b strings.Builder
	fillLines(&b, size, func() string {
		return g.commitHash(7) + " " + g.ticket() + ": " + strings.TrimSuffix(g.sentence(), ".")
	})
	return shellRun{cmd: "git log --oneline -n 50", desc: "Recent history", out: b.String()}
}

func (g *gen) grep(size int) shellRun {
	word := g.ident()
	var b strings.Builder
	fillLines(&b, size, func() string {
		return g.relPath() + ":" + itoa(g.between(1, 2000)) + ":\t" + g.camel(false) + " := " + word + "(ctx, " + g.snake() + ")"
	})
	return shellRun{cmd: "rg -n '" + word + "' .", desc: "Find uses of " + word, out: b.String()}
}

var months = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func (g *gen) listing(size int) shellRun {
	var b strings.Builder
	b.WriteString("total " + itoa(g.between(8, 900)) + "\n")
	fillLines(&b, size, func() string {
		mode := "-rw-r--r--"
		name := g.snake() + g.pick(langExts)
		if g.chance(0.2) {
			mode, name = "drwxr-xr-x", g.pick(dirParts)
		}
		return mode + "  1 dev  dev  " + itoa(g.between(96, 99999)) + " " + g.pick(months) + " " + itoa(g.between(1, 28)) + " " +
			itoa(g.between(10, 23)) + ":" + itoa(g.between(10, 59)) + " " + name
	})
	return shellRun{cmd: "ls -la " + g.pick(dirParts), desc: "List directory", out: b.String()}
}

func (g *gen) pytest(size int) shellRun {
	var b strings.Builder
	b.WriteString("============================= test session starts ==============================\nplatform linux -- Python 3.12.4, pytest-8.3.2\ncollected " +
		itoa(g.between(20, 900)) + " items\n\n")
	fillLines(&b, size-80, func() string {
		return "tests/test_" + g.snake() + ".py " + strings.Repeat(".", g.between(3, 40)) + " [" + itoa(g.between(1, 99)) + "%]"
	})
	b.WriteString("\n======================= " + itoa(g.between(20, 900)) + " passed in " + itoa(g.between(1, 90)) + ".12s =======================\n")
	return shellRun{cmd: "pytest -q", desc: "Run Python tests", out: b.String()}
}

func (g *gen) buildErrors(module string, size int) shellRun {
	var b strings.Builder
	b.WriteString("# " + module + "/" + g.pick(dirParts) + "\n")
	fillLines(&b, size, func() string {
		return g.relPathExt(".go") + ":" + itoa(g.between(5, 900)) + ":" + itoa(g.between(2, 60)) + ": " +
			g.pick([]string{"undefined: ", "cannot use x (variable of type int) as string value in argument to ", "declared and not used: ", "too many arguments in call to "}) + g.camel(false)
	})
	return shellRun{cmd: "go build ./...", desc: "Build everything", out: b.String(), exit: 1}
}

func (g *gen) pods(size int) shellRun {
	var b strings.Builder
	b.WriteString("NAME                                   READY   STATUS    RESTARTS   AGE\n")
	fillLines(&b, size, func() string {
		status := "Running"
		if g.chance(0.1) {
			status = "CrashLoopBackOff"
		}
		return g.pick(projects) + "-" + g.chars(lowerHex, 10) + "-" + g.chars("bcdfghjklmnpqrstvwxz2456789", 5) + "   1/1     " + status + "   " + itoa(g.between(0, 12)) + "          " + itoa(g.between(1, 90)) + "m"
	})
	return shellRun{cmd: "kubectl get pods -n " + g.pick(nameParts), desc: "Check pods", out: b.String()}
}

// jsonDoc is pretty-printed JSON of about size bytes, like an API answer
// piped through jq.
func (g *gen) jsonDoc(size int) string {
	var b strings.Builder
	b.WriteString("{\n  \"data\": [\n")
	first := true
	for b.Len() < size {
		if !first {
			b.WriteString(",\n")
		}
		first = false
		b.WriteString("    {\n      \"id\": \"" + g.pick(nameParts)[:2] + "_" + g.chars(alnum, 14) + "\",\n")
		b.WriteString("      \"status\": \"" + g.pick([]string{"succeeded", "pending", "failed", "refunded"}) + "\",\n")
		b.WriteString("      \"amount\": " + itoa(g.between(100, 999999)) + ",\n")
		b.WriteString("      \"currency\": \"" + g.pick([]string{"usd", "eur", "gbp", "jpy", "kwd"}) + "\",\n")
		b.WriteString("      \"created_at\": \"2026-0" + itoa(g.between(1, 9)) + "-1" + itoa(g.between(0, 9)) + "T0" + itoa(g.between(0, 9)) + ":1" + itoa(g.between(0, 9)) + ":00Z\",\n")
		b.WriteString("      \"metadata\": {\n        \"" + g.snake() + "\": \"" + g.ticket() + "\",\n        \"note\": \"" + g.sentence() + "\"\n      }\n    }")
	}
	b.WriteString("\n  ],\n  \"has_more\": " + g.pick([]string{"true", "false"}) + "\n}\n")
	return b.String()
}

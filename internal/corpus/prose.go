package corpus

import (
	"strings"
)

// snake is a snake_case identifier of two or three parts.
func (g *gen) snake() string {
	s := g.pick(nameParts) + "_" + g.pick(nameParts)
	if g.chance(0.3) {
		s += "_" + g.pick(nameParts)
	}
	return s
}

// camel is a camelCase identifier; exported makes it PascalCase.
func (g *gen) camel(exported bool) string {
	n := g.between(2, 3)
	var b strings.Builder
	for i := range n {
		p := g.pick(nameParts)
		if i > 0 || exported {
			b.WriteString(strings.ToUpper(p[:1]))
			b.WriteString(p[1:])
		} else {
			b.WriteString(p)
		}
	}
	return b.String()
}

// ident is any identifier style.
func (g *gen) ident() string {
	switch g.r.IntN(3) {
	case 0:
		return g.snake()
	case 1:
		return g.camel(false)
	}
	return g.camel(true)
}

// relPath is a source path relative to the repository root.
func (g *gen) relPath() string {
	ext := g.pick(langExts)
	return g.relPathExt(ext)
}

func (g *gen) relPathExt(ext string) string {
	var b strings.Builder
	b.WriteString(g.pick(dirParts))
	for range g.between(1, 2) {
		b.WriteByte('/')
		b.WriteString(g.pick(nameParts))
	}
	b.WriteByte('/')
	b.WriteString(g.snake())
	if ext == ".go" && g.chance(0.25) {
		b.WriteString("_test")
	}
	b.WriteString(ext)
	return b.String()
}

// ticket is an issue key such as PAY-1432.
func (g *gen) ticket() string {
	return g.pick(ticketProjects) + "-" + itoa(g.between(12, 9870))
}

func (g *gen) commitHash(n int) string { return g.chars(lowerHex, n) }

// fill expands a template: {c} component, {p} problem, {r} reason,
// {v} past verb, {i} imperative, {id} identifier, {f} path, {t} ticket,
// {n} number.
func (g *gen) fill(tpl string) string {
	b := &g.sb
	b.Reset()
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			break
		}
		b.WriteString(tpl[:i])
		j := strings.IndexByte(tpl[i:], '}')
		slot := tpl[i+1 : i+j]
		tpl = tpl[i+j+1:]
		switch slot {
		case "c":
			b.WriteString(g.pick(components))
		case "p":
			b.WriteString(g.pick(problems))
		case "r":
			b.WriteString(g.pick(reasons))
		case "v":
			b.WriteString(g.pick(pastVerbs))
		case "i":
			b.WriteString(g.pick(imperatives))
		case "id":
			b.WriteByte('`')
			b.WriteString(g.ident())
			b.WriteByte('`')
		case "f":
			b.WriteString(g.relPath())
		case "t":
			b.WriteString(g.ticket())
		case "n":
			b.WriteString(itoa(g.between(2, 480)))
		}
	}
	return b.String()
}

var sentenceTemplates = []string{
	"The {c} had {p}.",
	"I {v} the {c} {r}.",
	"{id} in {f} is only called from the {c}.",
	"After the change the {c} handles {n} requests per second on my machine.",
	"This is tracked in {t}; the root cause was {p}.",
	"The fix keeps {id} as it was {r}.",
	"I also {v} {id} while I was there, {r}.",
	"There are {n} call sites of {id}, all in {f} and its neighbours.",
	"Nothing else in the {c} depends on {id}.",
	"The test in {f} now covers {p}.",
	"Before merging, someone who owns the {c} should look at {t}.",
	"The benchmark shows {n} fewer allocations per operation.",
	"The old comment on {id} was wrong about who closes the channel.",
	"We saw this in production last week as {p}.",
	"The {c} now returns an error instead of retrying forever.",
	"{f} was the only file that still used the deprecated helper.",
}

var promptTemplates = []string{
	"Can you {i} the {c}? We keep seeing {p}.",
	"Please {i} {f}. {t} has the details.",
	"{t}: the {c} has {p}. Find the cause and fix it with a test.",
	"Why does {id} in {f} take so long on big inputs?",
	"I think the {c} has {p}. Can you confirm and propose a fix?",
	"Run the tests for the {c} and tell me what fails.",
	"Let's {i} {id}; it has grown too big and nobody understands it.",
	"Review my change to {f} before I open the PR for {t}.",
	"The {c} logs look wrong after yesterday's deploy, can you check {f}?",
	"Write a migration for {t} and make sure it can run online.",
	"Explain how the {c} decides when to give up on a request.",
	"Add a benchmark for {id} and compare it with main.",
}

var answerOpeners = []string{
	"Done. Here's what changed:",
	"I found the cause and fixed it.",
	"Summary of the work:",
	"The tests pass now. Details:",
	"Here is what I found:",
	"Fixed, with a regression test.",
}

// sentence is one sentence of prose.
func (g *gen) sentence() string {
	return g.fill(g.pick(sentenceTemplates))
}

// paragraph is n sentences.
func (g *gen) paragraph(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.sentence())
	}
	return b.String()
}

// chineseText is n Chinese sentences.
func (g *gen) chineseText(n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(g.pick(chinese))
	}
	return b.String()
}

// prompt is what a user types to start a turn.
func (g *gen) prompt() string {
	switch {
	case g.chance(0.06):
		return g.chineseText(g.between(1, 3)) + " " + g.fill("({t}, {f})")
	case g.chance(0.15):
		// A longer request with context pasted in.
		return g.fill(g.pick(promptTemplates)) + "\n\n" + g.paragraph(g.between(2, 5)) + "\n\n```\n" + g.errorSnippet() + "\n```"
	}
	s := g.fill(g.pick(promptTemplates))
	if g.chance(0.4) {
		s += " " + g.sentence()
	}
	return s
}

// errorSnippet is a short error a user pastes.
func (g *gen) errorSnippet() string {
	switch g.r.IntN(3) {
	case 0:
		return g.relPathExt(".go") + ":" + itoa(g.between(10, 900)) + ":" + itoa(g.between(2, 40)) + ": undefined: " + g.camel(false)
	case 1:
		return "Traceback (most recent call last):\n  File \"" + g.relPathExt(".py") + "\", line " + itoa(g.between(10, 400)) + ", in " + g.snake() + "\nKeyError: '" + g.snake() + "'"
	}
	return "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x" + g.chars(lowerHex, 6) + "]"
}

// remark is a line of commentary between tool calls.
func (g *gen) remark() string {
	if g.chance(0.5) {
		return g.pick(commentary)
	}
	return g.pick(commentary) + " " + g.sentence()
}

// answer is the text that ends a turn.
func (g *gen) answer(zh bool) string {
	var b strings.Builder
	if zh {
		b.WriteString(g.chineseText(g.between(2, 4)))
		b.WriteString("\n\n")
	}
	b.WriteString(g.pick(answerOpeners))
	b.WriteString("\n\n")
	for range g.between(2, 6) {
		b.WriteString("- ")
		b.WriteString(g.sentence())
		b.WriteByte('\n')
	}
	if g.chance(0.5) {
		b.WriteString("\n")
		b.WriteString(g.paragraph(g.between(1, 4)))
		b.WriteByte('\n')
	}
	if g.chance(0.3) {
		b.WriteString("\nTests: `go test ./" + g.pick(dirParts) + "/...` passes (" + itoa(g.between(3, 400)) + " tests).")
	}
	return strings.TrimSpace(b.String())
}

// thinking is the hidden reasoning text of a Claude thinking block.
func (g *gen) thinking() string {
	return g.paragraph(g.between(2, 6))
}

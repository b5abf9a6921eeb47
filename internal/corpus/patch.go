package corpus

import (
	"strings"
)

// hunk is one changed region: context, removed and added lines.
type hunk struct {
	at             int
	before, after  []string // context
	removed, added []string
}

func (g *gen) hunk(path string) hunk {
	src := g.codeLines(path, g.between(8, 24))
	cut := g.between(1, len(src)-3)
	n := g.between(1, min(4, len(src)-cut-1))
	h := hunk{
		at:      g.between(10, 800),
		before:  src[max(0, cut-3):cut],
		removed: src[cut : cut+n],
		after:   src[cut+n : min(len(src), cut+n+3)],
	}
	for _, l := range h.removed {
		h.added = append(h.added, g.changeLine(l))
	}
	if g.chance(0.4) {
		h.added = append(h.added, g.codeLines(path, 12)[8:8+g.between(1, 4)]...)
	}
	return h
}

// changeLine rewrites a line the way an edit would: a renamed identifier or
// a changed literal.
func (g *gen) changeLine(l string) string {
	indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	switch g.r.IntN(3) {
	case 0:
		return l + " // " + g.ticket()
	case 1:
		return indent + "// " + g.sentence()
	}
	return indent + g.camel(false) + " := " + g.snake() + "(" + itoa(g.between(0, 64)) + ")"
}

// unifiedDiff is git diff output for path, about size bytes.
func (g *gen) unifiedDiff(path string, size int) string {
	var b strings.Builder
	b.WriteString("diff --git a/" + path + " b/" + path + "\nindex " + g.commitHash(7) + ".." + g.commitHash(7) + " 100644\n--- a/" + path + "\n+++ b/" + path + "\n")
	for b.Len() < size {
		h := g.hunk(path)
		old := len(h.before) + len(h.removed) + len(h.after)
		nw := len(h.before) + len(h.added) + len(h.after)
		b.WriteString("@@ -" + itoa(h.at) + "," + itoa(old) + " +" + itoa(h.at) + "," + itoa(nw) + " @@\n")
		writePrefixed(&b, " ", h.before)
		writePrefixed(&b, "-", h.removed)
		writePrefixed(&b, "+", h.added)
		writePrefixed(&b, " ", h.after)
	}
	return b.String()
}

// applyPatch is a Codex apply_patch body touching a few files.
func (g *gen) applyPatch(paths []string) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for _, p := range paths {
		if g.chance(0.15) {
			b.WriteString("*** Add File: " + p + "\n")
			writePrefixed(&b, "+", g.codeLines(p, g.between(6, 40)))
			continue
		}
		b.WriteString("*** Update File: " + p + "\n")
		for range g.between(1, 3) {
			h := g.hunk(p)
			b.WriteString("@@\n")
			writePrefixed(&b, " ", h.before)
			writePrefixed(&b, "-", h.removed)
			writePrefixed(&b, "+", h.added)
			writePrefixed(&b, " ", h.after)
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

func writePrefixed(b *strings.Builder, prefix string, lines []string) {
	for _, l := range lines {
		b.WriteString(prefix)
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

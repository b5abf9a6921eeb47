package distill

import (
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/text"
)

// extensionEntries points at the extension files that are not notes:
// imports from other agents and the like, searched where they are.
func (p *pass) extensionEntries() []*entry {
	var out []*entry
	paths := make([]string, 0, len(p.extFile))
	for path := range p.extFile {
		if !strings.HasPrefix(path, notesDir) {
			paths = append(paths, path)
		}
	}
	slices.Sort(paths)
	for _, path := range paths {
		k := lineKey(path)
		if p.dropped["k:"+k] {
			continue
		}
		t := code(path)
		if title := fileTitle(p.extFile[path]); title != "" {
			t += ": " + title
		}
		if kw := topTokens(p.extFile[path], 6); len(kw) > 0 {
			t += " (keywords: " + strings.Join(kw, ", ") + ")"
		}
		out = append(out, &entry{section: secKnow, text: t, keys: []string{k}, files: []string{path}, fam: famExtensions})
	}
	return out
}

// fileTitle is a file's first heading, else its first line, short.
func fileTitle(body string) string {
	for _, l := range parsePage(body) {
		if l.kind == lineHeading || l.kind == lineText || l.kind == lineStated {
			if t := clip(oneLine(clean(l.body)), 100); t != "" {
				return t
			}
		}
	}
	return ""
}

// topTokens returns a text's most frequent informative tokens, the
// earliest first on a tie.
func topTokens(s string, n int) []string {
	count := map[string]int{}
	var order []string
	for _, t := range text.QueryTokens(s) {
		if !usefulToken(t) {
			continue
		}
		if count[t] == 0 {
			order = append(order, t)
		}
		count[t]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	if len(order) > n {
		order = order[:n]
	}
	return order
}

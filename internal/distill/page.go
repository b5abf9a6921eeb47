package distill

import (
	"strings"
	"unicode"
)

// lineKind says what a line of a generated page is to the edit reader.
type lineKind int

const (
	lineBlank   lineKind = iota
	lineHeading          // "#" to "######"
	lineMeta             // scaffolding: labels, placeholders, pointers, comments
	lineStated           // ends in an anchor
	lineText             // no anchor: a person's words
	lineFence            // a fenced code block, fences included
)

// pageLine is one line of a Markdown page with where it sits.
type pageLine struct {
	raw     string
	body    string // without the anchor, trimmed on the right
	anchor  Anchor
	kind    lineKind
	level   int    // heading level
	family  string // text of the "##" heading above, "" before any
	section string // text of the "###" heading above within the family
}

// metaLabels start the scaffolding lines of a task family.
var metaLabels = []string{"**Scope:**", "**Sessions:**", "**Keywords:**", "**Skills:**", "**Evidence:**"}

// parsePage reads a page line by line. It accepts any input.
func parsePage(s string) []pageLine {
	if s == "" {
		return nil
	}
	var out []pageLine
	family, section := "", ""
	fenced := false
	for raw := range strings.Lines(s) {
		raw = strings.TrimRight(raw, "\r\n")
		l := pageLine{raw: raw, family: family, section: section}
		trim := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			fenced = !fenced
			l.kind, l.body = lineFence, trim
		case fenced:
			l.kind, l.body = lineFence, raw
		case trim == "":
			l.kind = lineBlank
		default:
			if lvl, text := heading(trim); lvl > 0 {
				l.kind, l.level, l.body = lineHeading, lvl, text
				switch lvl {
				case 1: // the page's title: what follows is the top of the page
					family, section = "", ""
				case 2:
					family, section = text, ""
				case 3:
					section = text
				}
				l.family, l.section = family, section
				break
			}
			body, a, ok := ParseAnchor(raw)
			l.body = body
			switch {
			case ok && strings.TrimSpace(body) != "":
				l.kind, l.anchor = lineStated, a
			case isMeta(trim):
				l.kind = lineMeta
			default:
				l.kind = lineText
			}
		}
		out = append(out, l)
	}
	return out
}

// heading returns the level and text of an ATX heading, or 0.
func heading(trim string) (int, string) {
	n := 0
	for n < len(trim) && trim[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(trim) && trim[n] != ' ') {
		return 0, ""
	}
	return n, strings.TrimSpace(trim[n:])
}

// isMeta reports whether a trimmed line is generated scaffolding.
func isMeta(trim string) bool {
	if strings.HasPrefix(trim, "<!--") && strings.HasSuffix(trim, "-->") {
		return true
	}
	if len(trim) >= 2 && trim[0] == '_' && trim[len(trim)-1] == '_' {
		return true
	}
	t := trim
	for _, p := range []string{"- ", "* ", "+ "} {
		t = strings.TrimPrefix(t, p)
	}
	for _, m := range metaLabels {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return strings.Contains(t, "](rollout_summaries/") || strings.Contains(t, "](skills/")
}

// clean returns a line's words as a note: list marker, checkbox and
// surrounding space removed, the rest as the person wrote it.
func clean(body string) string {
	s := strings.TrimSpace(body)
	for _, p := range []string{"- [ ] ", "- [x] ", "* [ ] ", "* [x] ", "- ", "* ", "+ "} {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	if i := strings.IndexByte(s, '.'); i > 0 && i <= 3 && isDigits(s[:i]) && i+1 < len(s) && s[i+1] == ' ' {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

// norm is the comparison form of a line: anchor, list marker, case,
// surrounding quotes, repeated space and end punctuation dropped.
func norm(s string) string {
	body, _, _ := ParseAnchor(s)
	c := strings.ToLower(clean(body))
	c = strings.Join(strings.Fields(c), " ")
	c = strings.TrimRightFunc(c, func(r rune) bool { return r == '.' || r == ';' || r == ':' || r == '!' })
	c = strings.Trim(c, "\"'`“”‘’ ")
	return c
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

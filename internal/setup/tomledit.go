package setup

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex's config.toml is edited as text: cairn finds the blocks of the
// tables it owns ([mcp_servers.cairn] and its sub-tables, and
// [hooks.state."<key>"] trust entries) and replaces, renames or removes
// just those lines. Everything else, comments and layout included, stays
// byte for byte. Every result is parsed again before it is used.

// tomlLine is one line of a TOML file as the scanner saw it.
type tomlLine struct {
	start, end int      // byte offsets; end includes the line break
	header     []string // the table path, for a [table] or [[array]] header line
	array      bool     // [[array]] header
	content    bool     // holds a key, a header or part of a value, not only blanks or a comment
	blank      bool     // holds only whitespace
}

type tomlMode int

const (
	tomlNormal tomlMode = iota
	tomlMLBasic
	tomlMLLiteral
)

// scanTOML splits src into lines and finds the table headers, skipping
// anything inside strings and multi-line values. src must be valid TOML.
func scanTOML(src string) ([]tomlLine, error) {
	var lines []tomlLine
	mode, depth := tomlNormal, 0
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start + 1
		}
		text := src[start:end]
		ln := tomlLine{start: start, end: end, blank: strings.TrimSpace(text) == ""}
		if mode != tomlNormal || depth > 0 {
			ln.content = true
		}
		i := 0
		if mode == tomlNormal && depth == 0 {
			trimmed := strings.TrimLeft(text, " \t")
			if strings.HasPrefix(trimmed, "[") {
				path, array, n, err := parseHeader(trimmed)
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", len(lines)+1, err)
				}
				ln.header, ln.array, ln.content = path, array, true
				i = len(text) - len(trimmed) + n
			}
		}
		for i < len(text) {
			c := text[i]
			switch mode {
			case tomlMLBasic, tomlMLLiteral:
				q := byte('"')
				if mode == tomlMLLiteral {
					q = '\''
				}
				if mode == tomlMLBasic && c == '\\' {
					i += 2
					continue
				}
				if c == q && strings.HasPrefix(text[i:], strings.Repeat(string(q), 3)) {
					// The closing run may hold up to two more quotes.
					n := 3
					for n < 5 && i+n < len(text) && text[i+n] == q {
						n++
					}
					i += n
					mode = tomlNormal
					continue
				}
				i++
				continue
			}
			switch c {
			case ' ', '\t', '\r', '\n':
				i++
				continue
			case '#':
				i = len(text)
				continue
			}
			ln.content = true
			switch c {
			case '"', '\'':
				if strings.HasPrefix(text[i:], strings.Repeat(string(c), 3)) {
					mode = tomlMLBasic
					if c == '\'' {
						mode = tomlMLLiteral
					}
					i += 3
					continue
				}
				i = skipString(text, i)
				continue
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			i++
		}
		lines = append(lines, ln)
		start = end
	}
	return lines, nil
}

// skipString returns the index just past the one-line string at text[i].
func skipString(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q:
			return j + 1
		}
	}
	return len(text)
}

// parseHeader reads "[a.b]" or "[[a.b]]" at the start of s and returns
// the path and the length of the header.
func parseHeader(s string) ([]string, bool, int, error) {
	array := strings.HasPrefix(s, "[[")
	i := 1
	if array {
		i = 2
	}
	var path []string
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return nil, false, 0, errors.New("unterminated table header")
		}
		switch s[i] {
		case '"':
			j := skipString(s, i)
			k, err := unquoteBasic(s[i:j])
			if err != nil {
				return nil, false, 0, err
			}
			path = append(path, k)
			i = j
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false, 0, errors.New("unterminated quoted key")
			}
			path = append(path, s[i+1:i+1+j])
			i += j + 2
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t.[]\"'=#\r\n", rune(s[j])) {
				j++
			}
			if j == i {
				return nil, false, 0, errors.New("empty key in table header")
			}
			path = append(path, s[i:j])
			i = j
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && s[i] == '.' {
			i++
			continue
		}
		close := "]"
		if array {
			close = "]]"
		}
		if !strings.HasPrefix(s[i:], close) {
			return nil, false, 0, errors.New("malformed table header")
		}
		return path, array, i + len(close), nil
	}
}

// unquoteBasic decodes a TOML basic string (with its quotes) by asking
// the TOML parser itself, so every escape TOML knows is honoured.
func unquoteBasic(q string) (string, error) {
	var v struct{ K string }
	if _, err := toml.Decode("K = "+q, &v); err != nil {
		return "", fmt.Errorf("bad quoted key %s: %w", q, err)
	}
	return v.K, nil
}

func hasPrefixPath(p, prefix []string) bool {
	if len(p) < len(prefix) {
		return false
	}
	for i := range prefix {
		if p[i] != prefix[i] {
			return false
		}
	}
	return true
}

func samePath(a, b []string) bool { return len(a) == len(b) && hasPrefixPath(a, b) }

// tableBlocks returns the line ranges [from, to) of the table at path and
// of its sub-tables. A block runs from its header to the next header,
// minus the blank and comment lines just before that header (they tend
// to belong to it).
func tableBlocks(lines []tomlLine, path []string) [][2]int {
	var out [][2]int
	for h, ln := range lines {
		if ln.header == nil || !hasPrefixPath(ln.header, path) {
			continue
		}
		end := h + 1
		for end < len(lines) && lines[end].header == nil {
			end++
		}
		for end > h+1 && !lines[end-1].content {
			end--
		}
		out = append(out, [2]int{h, end})
	}
	return out
}

// replaceTable puts text (whole lines) where the table at path and its
// sub-tables were, or appends it after a blank line when there were none.
// Empty text removes the table, together with a blank line that would
// otherwise be left doubled.
func replaceTable(src string, path []string, text string) (string, error) {
	lines, err := scanTOML(src)
	if err != nil {
		return "", err
	}
	if strings.Contains(src, "\r\n") {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	blocks := tableBlocks(lines, path)
	if len(blocks) == 0 {
		if text == "" {
			return src, nil
		}
		var b strings.Builder
		b.WriteString(src)
		if src != "" {
			nl := "\n"
			if strings.Contains(src, "\r\n") {
				nl = "\r\n"
			}
			if !strings.HasSuffix(src, "\n") {
				b.WriteString(nl)
			}
			if len(lines) > 0 && !lines[len(lines)-1].blank {
				b.WriteString(nl)
			}
		}
		b.WriteString(text)
		return b.String(), nil
	}
	out := src
	// Work from the last block back, so earlier offsets stay valid.
	for i := len(blocks) - 1; i >= 0; i-- {
		from, to := blocks[i][0], blocks[i][1]
		repl := ""
		if i == 0 {
			repl = text
		}
		startLine := from
		if repl == "" && from > 0 && lines[from-1].blank && (to == len(lines) || lines[to].blank) {
			startLine = from - 1
		}
		endOff := len(src)
		if to < len(lines) {
			endOff = lines[to].start
		}
		if repl != "" && endOff == len(src) && !strings.HasSuffix(src, "\n") {
			repl = strings.TrimRight(repl, "\r\n")
		}
		out = out[:lines[startLine].start] + repl + out[endOff:]
	}
	return out, nil
}

// renameTable rewrites the headers of the table at from (and its
// sub-tables) to sit at to, keeping each header line's trailing comment.
func renameTable(src string, from, to []string) (string, error) {
	lines, err := scanTOML(src)
	if err != nil {
		return "", err
	}
	out := src
	for i := len(lines) - 1; i >= 0; i-- {
		ln := lines[i]
		if ln.header == nil || !hasPrefixPath(ln.header, from) {
			continue
		}
		text := src[ln.start:ln.end]
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		_, _, n, err := parseHeader(text[len(indent):])
		if err != nil {
			return "", err
		}
		path := append(append([]string(nil), to...), ln.header[len(from):]...)
		header := "[" + tomlPath(path) + "]"
		if ln.array {
			header = "[" + header + "]"
		}
		out = out[:ln.start] + indent + header + text[len(indent)+n:] + out[ln.end:]
	}
	return out, nil
}

// tomlKey writes a key bare when TOML allows it, quoted otherwise.
func tomlKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0 {
		return k
	}
	return tomlString(k)
}

func tomlPath(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = tomlKey(p)
	}
	return strings.Join(parts, ".")
}

// tomlString writes a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// parseTOML decodes src into a generic map, with the file name and line
// in the error.
func parseTOML(name, src string) (map[string]any, error) {
	m := map[string]any{}
	if _, err := toml.Decode(src, &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			// Count the line from the offset: the parser's own line is one
			// too far when the fault is the line break itself.
			line := pe.Position.Line
			if off := pe.Position.Start; off >= 0 && off <= len(src) {
				line = strings.Count(src[:off], "\n") + 1
			}
			return nil, fmt.Errorf("%s line %d: %s", name, line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// lookupTOML walks a decoded document.
func lookupTOML(m map[string]any, path ...string) (any, bool) {
	var cur any = m
	for _, p := range path {
		t, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = t[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

package setup

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// tomlEdit is a config.toml being edited one owned table at a time. It
// remembers which tables it touched so finish can prove that nothing
// else in the document changed.
type tomlEdit struct {
	name  string // the file, for messages
	orig  string
	src   string
	owned [][]string
}

// newTOMLEdit refuses a file that does not parse, naming the line.
func newTOMLEdit(name, src string) (*tomlEdit, error) {
	if _, err := parseTOML(name, src); err != nil {
		return nil, fmt.Errorf("%w; fix it (or move it aside) and run setup again", err)
	}
	if _, err := scanTOML(src); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &tomlEdit{name: name, orig: src, src: src}, nil
}

// headerDefined checks that the table at path, if present, is written as
// a [table] header cairn can edit as a block, not inline or with dotted
// keys.
func (t *tomlEdit) headerDefined(path []string) (present bool, err error) {
	doc, err := parseTOML(t.name, t.src)
	if err != nil {
		return false, err
	}
	v, ok := lookupTOML(doc, path...)
	if !ok {
		return false, nil
	}
	if _, isMap := v.(map[string]any); !isMap {
		return true, fmt.Errorf("%s: %s is not a table; remove it or make it a [%s] table, then run setup again", t.name, tomlPath(path), tomlPath(path))
	}
	lines, err := scanTOML(t.src)
	if err != nil {
		return true, err
	}
	for _, ln := range lines {
		if ln.header != nil && !ln.array && samePath(ln.header, path) {
			return true, nil
		}
	}
	return true, fmt.Errorf("%s: %s is written inline or with dotted keys; cairn only edits a [%s] table: move it into one (or remove it) and run setup again", t.name, tomlPath(path), tomlPath(path))
}

// canAdd checks that a [path] header may be added: every enclosing table
// that exists must itself be made of [table] headers. TOML forbids
// extending an inline table, and some parsers refuse tables defined with
// dotted keys being extended from elsewhere, so cairn does neither.
func (t *tomlEdit) canAdd(path []string) error {
	doc, err := parseTOML(t.name, t.src)
	if err != nil {
		return err
	}
	lines, err := scanTOML(t.src)
	if err != nil {
		return err
	}
	for n := 1; n < len(path); n++ {
		prefix := path[:n]
		v, ok := lookupTOML(doc, prefix...)
		if !ok {
			return nil
		}
		if _, isMap := v.(map[string]any); !isMap {
			return fmt.Errorf("%s: %s is not a table, so [%s] cannot be added; nothing written", t.name, tomlPath(prefix), tomlPath(path))
		}
		headed := false
		for _, ln := range lines {
			headed = headed || ln.header != nil && hasPrefixPath(ln.header, prefix)
		}
		if !headed {
			return fmt.Errorf("%s: %s is written inline or with dotted keys, so [%s] cannot be added after it; make it a [%s] table (or add cairn's entry by hand)", t.name, tomlPath(prefix), tomlPath(path), tomlPath(prefix))
		}
	}
	return nil
}

// table returns the decoded table at path.
func (t *tomlEdit) table(path []string) (map[string]any, bool) {
	doc, err := parseTOML(t.name, t.src)
	if err != nil {
		return nil, false
	}
	v, ok := lookupTOML(doc, path...)
	m, isMap := v.(map[string]any)
	return m, ok && isMap
}

// setTable makes the table at path hold ours, plus the keys of the old
// table that are neither cairn's nor listed in drop. It reports whether
// the text changed.
func (t *tomlEdit) setTable(path []string, ours []tomlKV, drop ...string) (bool, error) {
	present, err := t.headerDefined(path)
	if err != nil {
		return false, err
	}
	extra := map[string]any{}
	old, _ := t.table(path)
	if present {
		skip := map[string]bool{}
		for _, kv := range ours {
			skip[kv.Key] = true
		}
		for _, d := range drop {
			skip[d] = true
		}
		for k, v := range old {
			if !skip[k] {
				extra[k] = v
			}
		}
	}
	if !present {
		if err := t.canAdd(path); err != nil {
			return false, err
		}
	}
	text, err := tomlTable(path, ours, extra)
	if err != nil {
		return false, fmt.Errorf("%s: %w", t.name, err)
	}
	want, err := parseTOML("cairn's table", text)
	if err != nil {
		return false, fmt.Errorf("%s: cairn built an invalid table (%w); nothing written", t.name, err)
	}
	wantTable, _ := lookupTOML(want, path...)
	if present && sameTOML(old, wantTable) {
		return false, nil
	}
	out, err := replaceTable(t.src, path, text)
	if err != nil {
		return false, fmt.Errorf("%s: %w", t.name, err)
	}
	doc, err := parseTOML(t.name, out)
	if err != nil {
		return false, fmt.Errorf("%s: adding [%s] would make the file invalid (%w); nothing written", t.name, tomlPath(path), err)
	}
	if got, _ := lookupTOML(doc, path...); !sameTOML(got, wantTable) {
		return false, fmt.Errorf("%s: [%s] did not come out as intended; nothing written", t.name, tomlPath(path))
	}
	t.src = out
	t.owned = append(t.owned, path)
	return true, nil
}

// removeTable deletes the table at path and its sub-tables.
func (t *tomlEdit) removeTable(path []string) (bool, error) {
	present, err := t.headerDefined(path)
	if err != nil || !present {
		return false, err
	}
	out, err := replaceTable(t.src, path, "")
	if err != nil {
		return false, fmt.Errorf("%s: %w", t.name, err)
	}
	t.src = out
	t.owned = append(t.owned, path)
	return true, nil
}

// renameTable moves a header-defined table; a table written another way
// is left alone.
func (t *tomlEdit) renameTable(from, to []string) (bool, error) {
	present, err := t.headerDefined(from)
	if err != nil || !present {
		return false, nil
	}
	if _, err := t.removeTable(to); err != nil {
		return false, err
	}
	out, err := renameTable(t.src, from, to)
	if err != nil {
		return false, fmt.Errorf("%s: %w", t.name, err)
	}
	t.src = out
	t.owned = append(t.owned, from, to)
	return true, nil
}

// finish returns the new text after checking that it parses and that
// every table cairn did not own is exactly as it was.
func (t *tomlEdit) finish() (string, error) {
	before, err := parseTOML(t.name, t.orig)
	if err != nil {
		return "", err
	}
	after, err := parseTOML(t.name, t.src)
	if err != nil {
		return "", fmt.Errorf("%s: the edit would make the file invalid (%w); nothing written", t.name, err)
	}
	for _, p := range t.owned {
		dropPath(before, p)
		dropPath(after, p)
	}
	if !sameTOML(before, after) {
		return "", fmt.Errorf("%s: the edit would change settings that are not cairn's; nothing written", t.name)
	}
	return t.src, nil
}

// dropPath deletes path from m, and the tables that deletion empties.
func dropPath(m map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	if len(path) == 1 {
		delete(m, path[0])
		return
	}
	sub, ok := m[path[0]].(map[string]any)
	if !ok {
		return
	}
	dropPath(sub, path[1:])
	if len(sub) == 0 {
		delete(m, path[0])
	}
}

// sameTOML compares decoded TOML values; times compare as instants in
// the same zone offset, NaN equals NaN.
func sameTOML(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameTOML(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameTOML(x[i], y[i]) {
				return false
			}
		}
		return true
	case []map[string]any:
		y, ok := b.([]map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameTOML(x[i], y[i]) {
				return false
			}
		}
		return true
	case time.Time:
		y, ok := b.(time.Time)
		if !ok {
			return false
		}
		_, xo := x.Zone()
		_, yo := y.Zone()
		return x.Equal(y) && xo == yo && x.Location().String() == y.Location().String()
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	return a == b
}

// isBlank reports whether a TOML file holds nothing but whitespace.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

package setup

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/cairn-memory/cairn/internal/memory"
)

// codexHooks are the hooks cairn installs in Codex. Codex has no
// SessionEnd. Stop runs in the foreground with a bound: Codex builds
// before mid-2026 skip async hooks entirely ("async hooks are not
// supported"), and cairn's Stop hook returns quickly anyway.
func codexHooks(o Options) []hookSpec {
	cmd := func(event string) string { return hookCommand(o, Codex, event) }
	return []hookSpec{
		{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Command: cmd("SessionStart"), Timeout: 10},
		{Event: "UserPromptSubmit", Command: cmd("UserPromptSubmit"), Timeout: 10},
		{Event: "Stop", Command: cmd("Stop"), Timeout: 15},
	}
}

// codexServer is cairn's [mcp_servers.cairn] table; env is kept apart
// because it merges with a person's own variables.
func codexServer(o Options) []tomlKV {
	return []tomlKV{
		{"command", o.Cairn},
		{"args", []string{"mcp"}},
	}
}

var codexServerPath = []string{"mcp_servers", serverName}

// codexTrustPath is where Codex records that the user trusts a hook.
func codexTrustPath(key string) []string { return []string{"hooks", "state", key} }

// codexHookKey is Codex's name for a hook: the hooks.json path, the
// event in snake case, the group and the handler index. Codex computes
// it; cairn only needs it to carry trust along when hooks move.
func codexHookKey(hooksPath string, p hookPos) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksPath, snakeCase(p.Event), p.Group, p.Index)
}

func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func planCodex(o Options, p paths) (plan, error) {
	var pl plan
	fm, dm := o.modes()
	hooks, err := loadJSON(p.codexHooks, fm, dm)
	if err != nil {
		return pl, err
	}
	var specs []hookSpec
	if !o.Uninstall {
		specs = codexHooks(o)
	}
	ed, err := applyHooks(hooks.doc.root, specs, oursFor(o.Cairn, Codex))
	if err != nil {
		return pl, invalidFile(p.codexHooks, err)
	}
	hooks.note(ed.changes...)
	for _, k := range hooks.doc.root.Keys() {
		if k != "hooks" && k != "description" {
			pl.notes = append(pl.notes, fmt.Sprintf("%s has a top-level %q: Codex accepts only \"description\" and \"hooks\" there and ignores the whole file until it is removed", p.codexHooks, k))
		}
	}
	pl.edits = append(pl.edits, hooks.done(o.Uninstall))

	cfg, err := loadTOML(p.codexConfig, fm, dm)
	if err != nil {
		return pl, err
	}
	if o.Uninstall {
		removed, err := cfg.removeTable(codexServerPath)
		if err != nil {
			return pl, invalidFile(p.codexConfig, err)
		}
		if removed {
			cfg.note(Change{Op: OpRemoved, What: "mcp server " + serverName})
		}
	} else if err := setCodexServer(cfg, o); err != nil {
		return pl, invalidFile(p.codexConfig, err)
	}

	// Trust lives in the user's config.toml, whatever the scope.
	user := cfg
	if p.codexUserConfig != p.codexConfig {
		if user, err = loadTOML(p.codexUserConfig, 0o600, 0o700); err != nil {
			return pl, err
		}
	}
	if err := carryTrust(user, p.codexHooks, ed); err != nil {
		return pl, invalidFile(p.codexUserConfig, err)
	}
	files := []*tomlFile{cfg}
	if user != cfg && len(user.changes) > 0 {
		files = append(files, user)
	}
	for _, t := range files {
		e, err := t.done()
		if err != nil {
			return pl, invalidFile(t.path, err)
		}
		pl.edits = append(pl.edits, e)
	}

	if o.Trust && o.scope() == ScopeProject && !projectTrusted(user, o.Dir) {
		return pl, memory.Errorf(memory.CodeInvalid, "Codex reads %s only for a trusted project, so its hooks cannot be trusted yet: open the project in codex and trust it when asked, then run this again (or run without --trust); nothing was written", filepath.Join(o.Dir, ".codex"))
	}
	if o.Uninstall {
		return pl, nil
	}
	if len(ed.changes) > 0 && !o.Trust {
		pl.notes = append(pl.notes, "Codex runs new or changed hooks only once you trust them: start codex and review them with /hooks, or run `cairn setup codex --trust` to record that trust now")
	}
	if o.scope() == ScopeProject && !projectTrusted(user, o.Dir) {
		pl.notes = append(pl.notes, fmt.Sprintf("Codex reads %s only for a trusted project: trust it when Codex asks on opening it (it records [projects.%q] trust_level = \"trusted\" in %s)", filepath.Join(o.Dir, ".codex"), o.Dir, p.codexUserConfig))
	}
	if _, ok := user.table([]string{"hooks"}); ok && p.codexConfig == p.codexUserConfig {
		if h, _ := user.table([]string{"hooks"}); hasEventTables(h) {
			pl.notes = append(pl.notes, fmt.Sprintf("%s also defines hooks inline; Codex loads both and warns about it", p.codexUserConfig))
		}
	}
	return pl, nil
}

// setCodexServer writes [mcp_servers.cairn], keeping any settings a
// person added to it (timeouts, tool filters) and their env variables.
func setCodexServer(cfg *tomlFile, o Options) error {
	ours := codexServer(o)
	env := map[string]any{}
	if old, ok := cfg.table(codexServerPath); ok {
		if e, ok := old["env"].(map[string]any); ok {
			for k, v := range e {
				env[k] = v
			}
		}
	}
	delete(env, "CAIRN_HOME")
	if o.Home != "" {
		env["CAIRN_HOME"] = o.Home
	}
	if len(env) > 0 {
		ours = append(ours, tomlKV{"env", env})
	}
	_, existed := cfg.table(codexServerPath)
	old, _ := cfg.table(codexServerPath)
	changed, err := cfg.setTable(codexServerPath, ours, "env")
	if err != nil || !changed {
		return err
	}
	if !existed {
		cfg.note(Change{Op: OpAdded, What: "mcp server " + serverName, Detail: o.Cairn + " mcp"})
		return nil
	}
	now, _ := cfg.table(codexServerPath)
	var fields []string
	for _, k := range []string{"command", "args", "env"} {
		if !sameTOML(old[k], now[k]) {
			fields = append(fields, k)
		}
	}
	if len(fields) == 0 {
		fields = []string{"layout"}
	}
	cfg.note(Change{Op: OpUpdated, What: "mcp server " + serverName, Detail: joinComma(fields)})
	return nil
}

// carryTrust keeps Codex's trust records in step with the hooks' new
// positions: a person's hook that moved up keeps its trust under its new
// key (the hash does not depend on the position), and the records of
// cairn hooks that were removed go with them.
func carryTrust(user *tomlFile, hooksPath string, ed hookEdit) error {
	dropped := append([]hookPos(nil), ed.dropped...)
	sort.Slice(dropped, func(i, j int) bool { return lessPos(dropped[i], dropped[j]) })
	for _, pos := range dropped {
		path := codexTrustPath(codexHookKey(hooksPath, pos))
		if _, err := user.headerDefined(path); err != nil {
			continue // written some other way: left for Codex to report as stale
		}
		ok, err := user.removeTable(path)
		if err != nil {
			return err
		}
		if ok {
			user.note(Change{Op: OpRemoved, What: "hook trust", Detail: codexHookKey(hooksPath, pos)})
		}
	}
	// Moves only go to lower positions; the lowest target first frees
	// each key before another hook moves into it.
	var from []hookPos
	for f := range ed.moved {
		from = append(from, f)
	}
	sort.Slice(from, func(i, j int) bool { return lessPos(ed.moved[from[i]], ed.moved[from[j]]) })
	for _, f := range from {
		oldKey, newKey := codexHookKey(hooksPath, f), codexHookKey(hooksPath, ed.moved[f])
		ok, err := user.renameTable(codexTrustPath(oldKey), codexTrustPath(newKey))
		if err != nil {
			return err
		}
		if ok {
			user.note(Change{Op: OpUpdated, What: "hook trust", Detail: oldKey + " → " + newKey})
		}
	}
	return nil
}

func lessPos(a, b hookPos) bool {
	if a.Event != b.Event {
		return a.Event < b.Event
	}
	if a.Group != b.Group {
		return a.Group < b.Group
	}
	return a.Index < b.Index
}

// projectTrusted reads [projects."<dir>"] trust_level from the user's
// config.
func projectTrusted(user *tomlFile, dir string) bool {
	t, ok := user.table([]string{"projects", dir})
	return ok && t["trust_level"] == "trusted"
}

func hasEventTables(h map[string]any) bool {
	for k := range h {
		if k != "state" {
			return true
		}
	}
	return false
}

// tomlFile is a TOML config file being edited.
type tomlFile struct {
	*fileEdit
	*tomlEdit
}

func loadTOML(path string, fileMode, dirMode fs.FileMode) (*tomlFile, error) {
	e, err := loadFile(path, fileMode, dirMode)
	if err != nil {
		return nil, err
	}
	t, err := newTOMLEdit(path, string(e.before))
	if err != nil {
		return nil, invalidFile(path, err)
	}
	return &tomlFile{fileEdit: e, tomlEdit: t}, nil
}

func (t *tomlFile) note(ch ...Change) { t.changes = append(t.changes, ch...) }

// done checks the edited text and sets the file's new content. A file
// left holding nothing is removed.
func (t *tomlFile) done() (*fileEdit, error) {
	if len(t.changes) == 0 {
		return t.fileEdit, nil
	}
	out, err := t.finish()
	if err != nil {
		return nil, err
	}
	if isBlank(out) {
		t.remove = true
		return t.fileEdit, nil
	}
	t.after = []byte(out)
	return t.fileEdit, nil
}

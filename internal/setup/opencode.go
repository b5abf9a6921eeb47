package setup

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"
)

//go:embed plugin.js
var pluginTemplate string

// pluginMarker is on the first line of every plugin file cairn writes;
// a cairn.js without it is someone else's and is left alone.
const pluginMarker = "cairn-setup-plugin"

// pluginSource is the plugin with the binary's path (and an explicit
// home) baked in as JavaScript string literals.
func pluginSource(cairn, home string) []byte {
	lit := func(s string) string {
		var b bytes.Buffer
		writeString(&b, s)
		return b.String()
	}
	r := strings.NewReplacer("__CAIRN__", lit(cairn), "__CAIRN_HOME__", lit(home))
	return []byte(r.Replace(pluginTemplate))
}

func isCairnPlugin(data []byte) bool {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	return bytes.Contains(first, []byte(pluginMarker))
}

// openCodeServer is cairn's entry under "mcp" (OpenCode 1.x).
func openCodeServer(o Options) serverSpec {
	return serverSpec{
		container: "mcp",
		fields: []tomlKV{
			{"type", "local"},
			{"command", []any{o.Cairn, "mcp"}},
			{"enabled", true},
		},
		envKey: "environment",
		home:   o.Home,
	}
}

func planOpenCode(o Options, p paths) (plan, error) {
	var pl plan
	fm, dm := o.modes()
	plug, err := loadFile(p.opencodePlugin, 0o644, dm)
	if err != nil {
		return pl, err
	}
	foreign := plug.exists && !isCairnPlugin(plug.before)
	switch {
	case foreign && o.Uninstall:
		pl.notes = append(pl.notes, fmt.Sprintf("%s was not written by cairn setup; left alone", p.opencodePlugin))
	case foreign:
		return pl, invalidFile(p.opencodePlugin, fmt.Errorf("it exists and was not written by cairn setup; move it away and run setup again"))
	case o.Uninstall && plug.exists:
		plug.remove = true
		plug.changes = []Change{{Op: OpRemoved, What: "plugin"}}
	case !o.Uninstall:
		plug.after = pluginSource(o.Cairn, o.Home)
		switch {
		case !plug.exists:
			plug.changes = []Change{{Op: OpAdded, What: "plugin", Detail: "runs " + o.Cairn}}
		case !bytes.Equal(plug.before, plug.after):
			plug.changes = []Change{{Op: OpUpdated, What: "plugin", Detail: "runs " + o.Cairn}}
		}
	}
	if !foreign {
		pl.edits = append(pl.edits, plug)
	}

	cfg, err := loadJSON(p.opencodeConfig, fm, dm)
	if err != nil {
		if strings.HasSuffix(p.opencodeConfig, ".jsonc") {
			err = fmt.Errorf("%w; add this under \"mcp\" by hand: \"cairn\": {\"type\": \"local\", \"command\": [%q, \"mcp\"], \"enabled\": true}", err, o.Cairn)
		}
		return pl, err
	}
	ch, err := applyServer(cfg.doc.root, openCodeServer(o), o.Uninstall)
	if err != nil {
		return pl, invalidFile(p.opencodeConfig, err)
	}
	cfg.note(ch...)
	pl.edits = append(pl.edits, cfg.done(o.Uninstall))
	if !o.Uninstall && o.scope() == ScopeProject && len(ch) > 0 {
		pl.notes = append(pl.notes, "newer OpenCode builds ask before starting a project's MCP servers: approve cairn when asked (opencode mcp approve)")
	}
	return pl, nil
}

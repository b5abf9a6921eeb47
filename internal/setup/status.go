package setup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ClientStatus says whether a client is wired to cairn.
type ClientStatus struct {
	Client string `json:"client"`
	Hooks  bool   `json:"hooks"`
	MCP    bool   `json:"mcp"`
	Detail string `json:"detail,omitempty"`
}

// Status inspects the same files as Run, read-only, in the user scope
// and, when o.Dir is set, the project scope. It lists the clients that
// have some of cairn set up, or a file that cannot be read; Detail says
// where, and what looks wrong (a cairn binary that no longer exists, a
// file that does not parse).
func Status(o Options) []ClientStatus {
	out := []ClientStatus{}
	if o.Getenv == nil {
		return out
	}
	scopes := []Scope{ScopeUser}
	if o.Dir != "" && filepath.IsAbs(o.Dir) {
		scopes = append(scopes, ScopeProject)
	}
	for _, client := range Clients {
		st := ClientStatus{Client: client}
		var details []string
		for _, sc := range scopes {
			so := o
			so.Client, so.Scope = client, sc
			p, err := pathsFor(so)
			if err != nil {
				details = append(details, err.Error())
				break
			}
			f := inspect(so, p)
			st.Hooks = st.Hooks || f.hooks
			st.MCP = st.MCP || f.mcp
			if d := f.describe(sc); d != "" {
				details = append(details, d)
			}
		}
		if st.Hooks || st.MCP || len(details) > 0 {
			st.Detail = strings.Join(details, "; ")
			out = append(out, st)
		}
	}
	return out
}

// found is what one scope of one client has.
type found struct {
	hooks, mcp bool
	commands   []string // the cairn binaries its entries run
	problems   []string
}

func (f found) describe(sc Scope) string {
	if !f.hooks && !f.mcp && len(f.problems) == 0 {
		return ""
	}
	var parts []string
	if f.hooks || f.mcp {
		what := []string{}
		if f.hooks {
			what = append(what, "hooks")
		}
		if f.mcp {
			what = append(what, "mcp")
		}
		parts = append(parts, string(sc)+": "+strings.Join(what, "+"))
	}
	seen := map[string]bool{}
	for _, c := range f.commands {
		if seen[c] {
			continue
		}
		seen[c] = true
		if _, err := os.Stat(c); err != nil {
			parts = append(parts, fmt.Sprintf("%s does not exist (run cairn setup again)", c))
		}
	}
	return strings.Join(append(parts, f.problems...), ", ")
}

func inspect(o Options, p paths) found {
	var f found
	readJSON := func(path string) *Object {
		e, err := loadJSON(path, 0o600, 0o700)
		if err != nil {
			f.problems = append(f.problems, err.Error())
			return nil
		}
		if !e.exists {
			return nil
		}
		return e.doc.root
	}
	hooksIn := func(root *Object, clients ...string) {
		if root == nil {
			return
		}
		hv, _ := root.Get("hooks")
		hooks, ok := hv.(*Object)
		if !ok {
			return
		}
		ours := oursFor(o.Cairn, clients...)
		for h, pos := range snapshotPositions(hooks, ours) {
			if pos.ours {
				f.hooks = true
				if w := handlerWords(h); len(w) > 0 {
					f.commands = append(f.commands, programOf(w))
				}
			}
		}
	}
	serverIn := func(root *Object, container string) {
		if root == nil {
			return
		}
		v, ok := dig(root, container, serverName)
		e, isObj := v.(*Object)
		if !ok || !isObj {
			return
		}
		f.mcp = true
		switch c, _ := e.Get("command"); t := c.(type) {
		case string:
			f.commands = append(f.commands, t)
		case []any:
			if len(t) > 0 {
				if s, ok := t[0].(string); ok {
					f.commands = append(f.commands, s)
				}
			}
		}
	}
	switch o.Client {
	case ClaudeCode:
		hooksIn(readJSON(p.claudeSettings), ClaudeCode, "claude")
		serverIn(readJSON(p.claudeMCP), "mcpServers")
	case Codex:
		hooksIn(readJSON(p.codexHooks), Codex)
		if data, err := os.ReadFile(p.codexConfig); err == nil {
			doc, err := parseTOML(p.codexConfig, string(data))
			if err != nil {
				f.problems = append(f.problems, err.Error())
			} else if v, ok := lookupTOML(doc, codexServerPath...); ok {
				f.mcp = true
				if t, ok := v.(map[string]any); ok {
					if c, ok := t["command"].(string); ok {
						f.commands = append(f.commands, c)
					}
				}
			}
		}
	case OpenCode:
		if data, err := os.ReadFile(p.opencodePlugin); err == nil && isCairnPlugin(data) {
			f.hooks = true
		}
		serverIn(readJSON(p.opencodeConfig), "mcp")
	}
	return f
}

// programOf returns the program a hook's words run, past any
// environment assignments.
func programOf(words []string) string {
	for len(words) > 0 && (isAssignment(words[0]) || words[0] == "env") {
		words = words[1:]
	}
	if len(words) == 0 {
		return ""
	}
	return words[0]
}

package setup

import "fmt"

// claudeHooks are the hooks cairn installs in Claude Code: the standing
// block at session start (not on fork, whose transcript already holds
// it), recall on each prompt, usage and capture at Stop in the
// background, and a detached import at SessionEnd, whose budget is short.
func claudeHooks(o Options) []hookSpec {
	cmd := func(event string) string { return hookCommand(o, ClaudeCode, event) }
	return []hookSpec{
		{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Command: cmd("SessionStart"), Timeout: 10},
		{Event: "UserPromptSubmit", Command: cmd("UserPromptSubmit"), Timeout: 10},
		{Event: "Stop", Command: cmd("Stop"), Timeout: 60, Async: true},
		{Event: "SessionEnd", Command: cmd("SessionEnd"), Timeout: 5},
	}
}

// claudeServer is cairn's entry under mcpServers.
func claudeServer(o Options) serverSpec {
	return serverSpec{
		container: "mcpServers",
		fields: []tomlKV{
			{"type", "stdio"},
			{"command", o.Cairn},
			{"args", []any{"mcp"}},
		},
		envKey: "env",
		home:   o.Home,
	}
}

func planClaude(o Options, p paths) (plan, error) {
	var pl plan
	fm, dm := o.modes()
	settings, err := loadJSON(p.claudeSettings, fm, dm)
	if err != nil {
		return pl, err
	}
	var specs []hookSpec
	if !o.Uninstall {
		specs = claudeHooks(o)
	}
	ed, err := applyHooks(settings.doc.root, specs, oursFor(o.Cairn, ClaudeCode, "claude"))
	if err != nil {
		return pl, invalidFile(p.claudeSettings, err)
	}
	settings.note(ed.changes...)

	// ~/.claude.json is Claude Code's own state file and is never empty;
	// it is private whatever the scope.
	mcpMode := fm
	if p.claudeMCP == p.claudeUserJSON {
		mcpMode = 0o600
	}
	mcp, err := loadJSON(p.claudeMCP, mcpMode, dm)
	if err != nil {
		return pl, err
	}
	ch, err := applyServer(mcp.doc.root, claudeServer(o), o.Uninstall)
	if err != nil {
		return pl, invalidFile(p.claudeMCP, err)
	}
	mcp.note(ch...)
	pl.edits = append(pl.edits, settings.done(o.Uninstall), mcp.done(o.Uninstall))

	if o.Uninstall {
		return pl, nil
	}
	if o.scope() == ScopeProject && len(ch) > 0 {
		pl.notes = append(pl.notes, "Claude Code asks each person to approve the servers in .mcp.json the first time they open the project (or set enableAllProjectMcpServers in their settings)")
	}
	if o.scope() == ScopeUser {
		if local := localClaudeServer(p.claudeUserJSON, o.Dir); local != "" {
			pl.notes = append(pl.notes, fmt.Sprintf("%s also has a project-local \"cairn\" server for %s, which Claude Code prefers there: remove it with `claude mcp remove cairn -s local` if it is stale", p.claudeUserJSON, local))
		}
	}
	return pl, nil
}

// localClaudeServer returns dir when ~/.claude.json has a local-scope
// "cairn" server for it.
func localClaudeServer(claudeJSON, dir string) string {
	if dir == "" {
		return ""
	}
	e, err := loadFile(claudeJSON, 0o600, 0o700)
	if err != nil || !e.exists {
		return ""
	}
	doc, err := parseJSONFile(e.before)
	if err != nil {
		return ""
	}
	v, ok := dig(doc.root, "projects", dir, "mcpServers", serverName)
	if !ok || v == nil {
		return ""
	}
	return dir
}

// dig follows object keys.
func dig(o *Object, keys ...string) (any, bool) {
	var cur any = o
	for _, k := range keys {
		obj, ok := cur.(*Object)
		if !ok {
			return nil, false
		}
		if cur, ok = obj.Get(k); !ok {
			return nil, false
		}
	}
	return cur, true
}

package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestClaudeCodeUserRoundTrip(t *testing.T) {
	for _, layout := range []string{"home", "CLAUDE_CONFIG_DIR"} {
		t.Run(layout, func(t *testing.T) {
			e := newTestEnv(t)
			settings := filepath.Join(e.home, ".claude", "settings.json")
			claudeJSON := filepath.Join(e.home, ".claude.json")
			if layout == "CLAUDE_CONFIG_DIR" {
				dir := filepath.Join(e.root, "cc")
				e.vars["CLAUDE_CONFIG_DIR"] = dir
				settings, claudeJSON = filepath.Join(dir, "settings.json"), filepath.Join(dir, ".claude.json")
			}
			e.fixture("claude-settings.json", settings)
			e.fixture("claude.json", claudeJSON)
			origSettings, origJSON := read(t, settings), read(t, claudeJSON)

			rep := run(t, e.opts(ClaudeCode, ScopeUser))
			mustEqual(t, "changes", changesOf(rep), []string{
				"settings.json added hook SessionStart", "settings.json added hook UserPromptSubmit",
				"settings.json added hook Stop", "settings.json added hook SessionEnd",
				".claude.json added mcp server cairn",
			})

			// Everything that is not cairn's is as it was.
			before, after := parseJSONString(t, origSettings), parseJSONString(t, read(t, settings))
			mustEqual(t, "key order", after.Keys(), before.Keys())
			for _, k := range before.Keys() {
				if k == "hooks" {
					continue
				}
				a, _ := after.Get(k)
				b, _ := before.Get(k)
				if !equalJSON(a, b) {
					t.Errorf("%s changed", k)
				}
			}
			bh, _ := dig(before, "hooks")
			ah, _ := dig(after, "hooks")
			for _, ev := range []string{"PreToolUse", "Notification"} {
				x, _ := dig(bh.(*Object), ev)
				y, _ := dig(ah.(*Object), ev)
				if !equalJSON(x, y) {
					t.Errorf("hooks.%s changed", ev)
				}
			}
			ss, _ := dig(ah.(*Object), "SessionStart")
			groups := ss.([]any)
			old, _ := dig(bh.(*Object), "SessionStart")
			if len(groups) != 2 || !equalJSON(groups[0], old.([]any)[0]) {
				t.Fatalf("the existing SessionStart group must stay first and unchanged: %v", groups)
			}
			mustEqual(t, "our SessionStart group", string(encodeJSON(groups[1], "")),
				"{\n\"matcher\": \"startup|resume|clear|compact\",\n\"hooks\": [\n{\n\"type\": \"command\",\n\"command\": \"/opt/cairn/bin/cairn hook claude-code SessionStart\",\n\"timeout\": 10\n}\n]\n}")
			stop, _ := dig(ah.(*Object), "Stop")
			mustEqual(t, "Stop group", string(encodeJSON(stop, "")),
				"[\n{\n\"hooks\": [\n{\n\"type\": \"command\",\n\"command\": \"/opt/cairn/bin/cairn hook claude-code Stop\",\n\"timeout\": 60,\n\"async\": true\n}\n]\n}\n]")

			j := parseJSONString(t, read(t, claudeJSON))
			srv, _ := dig(j, "mcpServers", "cairn")
			mustEqual(t, "mcp entry", string(encodeJSON(srv, "")), "{\n\"type\": \"stdio\",\n\"command\": \"/opt/cairn/bin/cairn\",\n\"args\": [\n\"mcp\"\n]\n}")
			j.vals["mcpServers"].(*Object).Delete("cairn")
			if !equalJSON(j, parseJSONString(t, origJSON)) {
				t.Error("~/.claude.json changed beyond mcpServers.cairn")
			}
			if !strings.Contains(read(t, claudeJSON), `"lastCost": 1.50`) {
				t.Error("number literal 1.50 was not kept")
			}

			// Backups hold the old bytes, with the old permissions.
			for path, orig := range map[string]string{settings: origSettings, claudeJSON: origJSON} {
				b := backups(t, path)
				if len(b) != 1 || read(t, b[0]) != orig {
					t.Errorf("backup of %s: %v", path, b)
				}
				if fileReport(t, rep, path).Backup != b[0] {
					t.Errorf("report does not name the backup of %s", path)
				}
			}

			// Twice is once.
			snap := e.snapshot()
			again := run(t, e.opts(ClaudeCode, ScopeUser))
			if again.Changed() || len(changesOf(again)) != 0 {
				t.Errorf("second run changed %v", changesOf(again))
			}
			e.unchangedSince(snap)

			// Uninstall gives the documents back.
			un := e.opts(ClaudeCode, ScopeUser)
			un.Uninstall = true
			rep = run(t, un)
			mustEqual(t, "uninstall changes", len(changesOf(rep)), 5)
			sameDoc(t, "settings.json after uninstall", read(t, settings), origSettings)
			sameDoc(t, ".claude.json after uninstall", read(t, claudeJSON), origJSON)
			// The layout is the file's own: 2 spaces, no final newline.
			if read(t, claudeJSON)[len(read(t, claudeJSON))-1] == '\n' {
				t.Error("a final newline was added to a file that had none")
			}
		})
	}
}

func TestClaudeCodeProjectCreatesAndRemovesFiles(t *testing.T) {
	e := newTestEnv(t)
	o := e.opts(ClaudeCode, ScopeProject)
	rep := run(t, o)
	settings := filepath.Join(e.project, ".claude", "settings.json")
	mcp := filepath.Join(e.project, ".mcp.json")
	for _, p := range []string{settings, mcp} {
		if fileReport(t, rep, p).Action != ActionCreated {
			t.Errorf("%s not created", p)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
	mustEqual(t, ".mcp.json", read(t, mcp), "{\n  \"mcpServers\": {\n    \"cairn\": {\n      \"type\": \"stdio\",\n      \"command\": \"/opt/cairn/bin/cairn\",\n      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n")
	mustContain(t, "notes", strings.Join(rep.Notes, "\n"), "approve")
	if _, err := os.Stat(filepath.Join(e.home, ".claude.json")); err == nil {
		t.Error("project scope touched ~/.claude.json")
	}
	o.Uninstall = true
	rep = run(t, o)
	for _, p := range []string{settings, mcp} {
		if fileReport(t, rep, p).Action != ActionDeleted || fileExists(p) {
			t.Errorf("%s should be gone: it held only cairn's entries", p)
		}
	}
}

func TestClaudeCodeUserFilesArePrivate(t *testing.T) {
	e := newTestEnv(t)
	run(t, e.opts(ClaudeCode, ScopeUser))
	for _, p := range []string{filepath.Join(e.home, ".claude.json"), filepath.Join(e.home, ".claude", "settings.json")} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
	fi, _ := os.Stat(filepath.Join(e.home, ".claude"))
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("~/.claude created %v", fi.Mode())
	}
}

func TestOldCairnEntriesAreUpdatedInPlace(t *testing.T) {
	e := newTestEnv(t)
	settings := e.write(filepath.Join(e.home, ".claude", "settings.json"), `{
  "hooks": {
    "SessionStart": [
      {"matcher": "startup", "hooks": [{"type": "command", "command": "/old/cairn hook claude-code SessionStart", "timeout": 5, "statusMessage": "remembering"}]},
      {"hooks": [{"type": "command", "command": "echo mine"}]}
    ],
    "UserPromptSubmit": [
      {"hooks": [{"type": "command", "command": "cairn hook claude-code UserPromptSubmit"}]},
      {"hooks": [{"type": "command", "command": "echo mine too"}, {"type": "command", "command": "'/other place/cairn' hook claude UserPromptSubmit"}]}
    ],
    "PreCompact": [
      {"hooks": [{"type": "command", "command": "CAIRN_HOME=/x /old/cairn hook claude-code PreCompact"}]}
    ]
  }
}
`)
	claudeJSON := e.write(filepath.Join(e.home, ".claude.json"), `{"mcpServers": {"cairn": {"type": "stdio", "command": "/old/cairn", "args": ["mcp"], "env": {"FOO": "1", "CAIRN_HOME": "/x"}, "timeout": 9}}}`)
	rep := run(t, e.opts(ClaudeCode, ScopeUser))
	mustEqual(t, "changes", changesOf(rep), []string{
		"settings.json updated hook SessionStart",
		"settings.json updated hook UserPromptSubmit", "settings.json removed duplicate hook UserPromptSubmit", "settings.json removed hook PreCompact",
		"settings.json added hook Stop", "settings.json added hook SessionEnd",
		".claude.json updated mcp server cairn",
	})
	doc := parseJSONString(t, read(t, settings))
	first, _ := dig(doc, "hooks", "SessionStart")
	g := first.([]any)[0].(*Object)
	h := g.vals["hooks"].([]any)[0].(*Object)
	mustEqual(t, "updated hook", string(encodeJSON(g, "")), "{\n\"matcher\": \"startup|resume|clear|compact\",\n\"hooks\": [\n{\n\"type\": \"command\",\n\"command\": \"/opt/cairn/bin/cairn hook claude-code SessionStart\",\n\"timeout\": 10,\n\"statusMessage\": \"remembering\"\n}\n]\n}")
	_ = h
	ups, _ := dig(doc, "hooks", "UserPromptSubmit")
	mustEqual(t, "UserPromptSubmit", string(encodeJSON(ups, "")), "[\n{\n\"hooks\": [\n{\n\"type\": \"command\",\n\"command\": \"/opt/cairn/bin/cairn hook claude-code UserPromptSubmit\",\n\"timeout\": 10\n}\n]\n},\n{\n\"hooks\": [\n{\n\"type\": \"command\",\n\"command\": \"echo mine too\"\n}\n]\n}\n]")
	if _, ok := dig(doc, "hooks", "PreCompact"); ok {
		t.Error("the stale PreCompact hook (and its emptied event) should be gone")
	}
	srv, _ := dig(parseJSONString(t, read(t, claudeJSON)), "mcpServers", "cairn")
	mustEqual(t, "server", string(encodeJSON(srv, "")), "{\n\"type\": \"stdio\",\n\"command\": \"/opt/cairn/bin/cairn\",\n\"args\": [\n\"mcp\"\n],\n\"env\": {\n\"FOO\": \"1\"\n},\n\"timeout\": 9\n}")
	mustContain(t, "detail", fileReport(t, rep, claudeJSON).Changes[0].Detail, "command", "env.CAIRN_HOME")
}

func TestHomeIsBakedInOnlyWhenGiven(t *testing.T) {
	e := newTestEnv(t)
	o := e.opts(ClaudeCode, ScopeUser)
	o.Home = "/data/my cairn"
	run(t, o)
	settings := read(t, filepath.Join(e.home, ".claude", "settings.json"))
	mustContain(t, "settings", settings, `"command": "CAIRN_HOME='/data/my cairn' /opt/cairn/bin/cairn hook claude-code SessionStart"`)
	mustContain(t, ".claude.json", read(t, filepath.Join(e.home, ".claude.json")), `"env": {`, `"CAIRN_HOME": "/data/my cairn"`)

	o.Home = ""
	rep := run(t, o)
	if !rep.Changed() {
		t.Fatal("running again without --home must take the baked home out")
	}
	if strings.Contains(read(t, filepath.Join(e.home, ".claude", "settings.json")), "CAIRN_HOME") ||
		strings.Contains(read(t, filepath.Join(e.home, ".claude.json")), "CAIRN_HOME") {
		t.Error("CAIRN_HOME is still baked in")
	}
	if strings.Contains(read(t, filepath.Join(e.home, ".claude.json")), `"env"`) {
		t.Error("the env object cairn created should go with its last variable")
	}
}

func TestInvalidFilesAreRefusedAndNothingIsWritten(t *testing.T) {
	tests := []struct {
		client string
		file   string // relative to home
		body   string
		want   []string
	}{
		{ClaudeCode, ".claude/settings.json", "{\n  // my settings\n  \"model\": \"opus\"\n}\n", []string{"settings.json", "line 2"}},
		{ClaudeCode, ".claude.json", "{\"projects\": {}", []string{".claude.json", "line 1"}},
		{ClaudeCode, ".claude/settings.json", `{"hooks": []}`, []string{"settings.json", `"hooks" is not an object`}},
		{ClaudeCode, ".claude.json", `{"mcpServers": {"cairn": {"type": "http", "url": "https://gw.example/mcp"}}}`, []string{"already points at https://gw.example/mcp"}},
		{Codex, ".codex/config.toml", "model = \"x\"\n\n[mcp_servers.a\ncommand = \"y\"\n", []string{"config.toml line 3"}},
		{Codex, ".codex/hooks.json", `{"hooks": {"Stop": {"hooks": []}}}`, []string{"hooks.json", `"hooks.Stop" is not an array`}},
		{OpenCode, ".config/opencode/opencode.json", "{\"mcp\": {},}", []string{"opencode.json", "line 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.client+" "+tt.file, func(t *testing.T) {
			e := newTestEnv(t)
			e.write(filepath.Join(e.home, tt.file), tt.body)
			snap := e.snapshot()
			_, err := Run(t.Context(), e.opts(tt.client, ScopeUser))
			if err == nil {
				t.Fatal("want an error")
			}
			if memory.ErrorCode(err) != memory.CodeInvalid {
				t.Errorf("code %s", memory.ErrorCode(err))
			}
			mustContain(t, "error", err.Error(), tt.want...)
			e.unchangedSince(snap)
		})
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	for _, client := range Clients {
		t.Run(client, func(t *testing.T) {
			e := newTestEnv(t)
			e.fixture("claude-settings.json", filepath.Join(e.home, ".claude", "settings.json"))
			e.fixture("codex-config.toml", filepath.Join(e.home, ".codex", "config.toml"))
			e.fixture("opencode.json", filepath.Join(e.home, ".config", "opencode", "opencode.json"))
			snap := e.snapshot()
			o := e.opts(client, ScopeUser)
			o.DryRun = true
			dry := run(t, o)
			e.unchangedSince(snap)
			if !dry.Changed() || !dry.DryRun {
				t.Fatalf("a dry run should report the changes it would make: %+v", dry)
			}
			for _, f := range dry.Files {
				if f.Backup != "" {
					t.Errorf("dry run reports a backup for %s", f.Path)
				}
			}
			o.DryRun = false
			real := run(t, o)
			mustEqual(t, "dry run vs real run", changesOf(dry), changesOf(real))
		})
	}
}

// TestHookClientReplacesCairnHook: with cairn-hook installed, setup turns
// its earlier `cairn hook` entries into `cairn-hook` ones in place, a second
// run changes nothing, and uninstall removes them.
func TestHookClientReplacesCairnHook(t *testing.T) {
	e := newTestEnv(t)
	settings := filepath.Join(e.home, ".claude", "settings.json")
	run(t, e.opts(ClaudeCode, ScopeUser))
	o := e.opts(ClaudeCode, ScopeUser)
	o.HookClient = "/opt/cairn/bin/cairn-hook"
	rep := run(t, o)
	mustEqual(t, "changes", changesOf(rep), []string{
		"settings.json updated hook SessionStart", "settings.json updated hook UserPromptSubmit",
		"settings.json updated hook Stop", "settings.json updated hook SessionEnd",
	})
	doc := parseJSONString(t, read(t, settings))
	ups, _ := dig(doc, "hooks", "UserPromptSubmit")
	mustContain(t, "UserPromptSubmit", string(encodeJSON(ups, "")), `"command": "GOMAXPROCS=1 /opt/cairn/bin/cairn-hook claude-code UserPromptSubmit"`)
	if again := run(t, o); again.Changed() {
		t.Fatalf("a second run changed %v", changesOf(again))
	}
	u := e.opts(ClaudeCode, ScopeUser)
	u.Uninstall = true
	run(t, u)
	if b, err := os.ReadFile(settings); err == nil && strings.Contains(string(b), "cairn-hook") {
		t.Fatalf("uninstall left a cairn-hook entry:\n%s", b)
	}
}

package setup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// fakeCodex plays the installed Codex for --trust: it reads hooks.json
// and config.toml the way Codex does and reports each hook's key, hash
// and trust status. The hash covers the hook's definition, not its
// position, as Codex's does.
type fakeCodex struct {
	codexHome string
	calls     int
}

func (f *fakeCodex) ListHooks(_ context.Context, cwd string) (CodexHookList, error) {
	f.calls++
	var l CodexHookList
	cfg := map[string]any{}
	if data, err := os.ReadFile(filepath.Join(f.codexHome, "config.toml")); err == nil {
		if cfg, err = parseTOML("config.toml", string(data)); err != nil {
			return l, err
		}
	}
	files := []struct{ path, source string }{{filepath.Join(f.codexHome, "hooks.json"), "user"}}
	if v, _ := lookupTOML(cfg, "projects", cwd, "trust_level"); v == "trusted" {
		files = append(files, struct{ path, source string }{filepath.Join(cwd, ".codex", "hooks.json"), "project"})
	}
	for _, file := range files {
		data, err := os.ReadFile(file.path)
		if err != nil {
			continue
		}
		doc, err := parseJSONFile(data)
		if err != nil {
			l.Warnings = append(l.Warnings, "failed to parse hooks config "+file.path)
			continue
		}
		hv, _ := doc.root.Get("hooks")
		hooks, _ := hv.(*Object)
		if hooks == nil {
			continue
		}
		for _, ev := range hooks.Keys() {
			groups, _ := mustArray(hooks, ev)
			for gi, g := range groups {
				group, handlers, _ := groupHandlers(g)
				for hi, h := range handlers {
					ho := h.(*Object)
					sum := sha256.Sum256([]byte(ev + "\x00" + matcherOf(group) + "\x00" + string(encodeJSON(ho, ""))))
					hash := "sha256:" + hex.EncodeToString(sum[:])
					key := fmt.Sprintf("%s:%s:%d:%d", file.path, snakeCase(ev), gi, hi)
					status := "untrusted"
					if th, ok := lookupTOML(cfg, "hooks", "state", key, "trusted_hash"); ok {
						status = "modified"
						if th == hash {
							status = "trusted"
						}
					}
					l.Hooks = append(l.Hooks, CodexHook{Key: key, EventName: ev, Command: commandOf(ho), SourcePath: file.path, Source: file.source, CurrentHash: hash, TrustStatus: status})
				}
			}
		}
	}
	return l, nil
}

func codexEnv(t *testing.T) (*testEnv, string) {
	e := newTestEnv(t)
	ch := filepath.Join(e.root, "codex-home")
	e.vars["CODEX_HOME"] = ch
	return e, ch
}

func TestCodexUserRoundTrip(t *testing.T) {
	e, ch := codexEnv(t)
	cfgPath := e.fixture("codex-config.toml", filepath.Join(ch, "config.toml"))
	hooksPath := e.fixture("codex-hooks.json", filepath.Join(ch, "hooks.json"))
	origCfg, origHooks := read(t, cfgPath), read(t, hooksPath)

	rep := run(t, e.opts(Codex, ScopeUser))
	mustEqual(t, "changes", changesOf(rep), []string{
		"hooks.json added hook UserPromptSubmit", "hooks.json added hook SessionStart", "hooks.json added hook Stop",
		"config.toml added mcp server cairn",
	})
	cfg := read(t, cfgPath)
	// The rest of config.toml is byte for byte what it was: comments,
	// the string that looks like a table, the quoted keys.
	if !strings.HasPrefix(cfg, origCfg) {
		t.Fatalf("config.toml was not only appended to:\n%s", cfg)
	}
	mustEqual(t, "appended", strings.TrimPrefix(cfg, origCfg), "\n[mcp_servers.cairn]\ncommand = \"/opt/cairn/bin/cairn\"\nargs = [\"mcp\"]\n")

	hooks := read(t, hooksPath)
	mustContain(t, "hooks.json keeps its 4-space indent", hooks, "\n    \"description\": \"my hooks\",\n")
	doc := parseJSONString(t, hooks)
	ups, _ := dig(doc, "hooks", "UserPromptSubmit")
	if n := len(ups.([]any)); n != 2 {
		t.Fatalf("UserPromptSubmit groups %d: cairn's should follow the user's", n)
	}
	stop, _ := dig(doc, "hooks", "Stop")
	mustEqual(t, "Stop", string(encodeJSON(stop, "")), "[\n{\n\"hooks\": [\n{\n\"type\": \"command\",\n\"command\": \"/opt/cairn/bin/cairn hook codex Stop\",\n\"timeout\": 15\n}\n]\n}\n]")
	mustContain(t, "notes", strings.Join(rep.Notes, "\n"), "/hooks", "--trust")

	snap := e.snapshot()
	if again := run(t, e.opts(Codex, ScopeUser)); again.Changed() {
		t.Errorf("second run changed %v", changesOf(again))
	}
	e.unchangedSince(snap)

	un := e.opts(Codex, ScopeUser)
	un.Uninstall = true
	run(t, un)
	mustEqual(t, "config.toml after uninstall", read(t, cfgPath), origCfg)
	sameDoc(t, "hooks.json after uninstall", read(t, hooksPath), origHooks)
}

func TestCodexUpdatesItsBlockInPlace(t *testing.T) {
	e, ch := codexEnv(t)
	head := "# top\nmodel = \"m\"\n\n[mcp_servers.a]\ncommand = \"a\"\n\n"
	tail := "\n# trailing comment about b\n[mcp_servers.b]\ncommand = \"b\"  # keep me\n"
	old := "[mcp_servers.cairn]\ncommand = \"/old/cairn\"\nargs = [\"mcp\"]\nstartup_timeout_sec = 30\nenabled_tools = [\"search\", \"remember\"]\n\n[mcp_servers.cairn.env]\nCAIRN_HOME = \"/old/home\"\nRUST_LOG = \"warn\"\n"
	cfgPath := e.write(filepath.Join(ch, "config.toml"), head+old+tail)
	o := e.opts(Codex, ScopeUser)
	rep := run(t, o)
	mustEqual(t, "change", fileReport(t, rep, cfgPath).Changes, []Change{{Op: OpUpdated, What: "mcp server cairn", Detail: "command, env"}})
	want := head + "[mcp_servers.cairn]\ncommand = \"/opt/cairn/bin/cairn\"\nargs = [\"mcp\"]\nenabled_tools = [\"search\", \"remember\"]\nstartup_timeout_sec = 30\n[mcp_servers.cairn.env]\nRUST_LOG = \"warn\"\n" + tail
	mustEqual(t, "config.toml", read(t, cfgPath), want)

	o.Home = "/new/home"
	run(t, o)
	got, _ := parseTOML("c", read(t, cfgPath))
	env, _ := lookupTOML(got, "mcp_servers", "cairn", "env")
	mustEqual(t, "env", env, map[string]any{"CAIRN_HOME": "/new/home", "RUST_LOG": "warn"})
	h := read(t, filepath.Join(ch, "hooks.json"))
	mustContain(t, "hooks", h, `"command": "CAIRN_HOME=/new/home /opt/cairn/bin/cairn hook codex SessionStart"`)
}

func TestCodexTrust(t *testing.T) {
	e, ch := codexEnv(t)
	cfgPath := e.fixture("codex-config.toml", filepath.Join(ch, "config.toml"))
	origCfg := read(t, cfgPath)
	fake := &fakeCodex{codexHome: ch}
	o := e.opts(Codex, ScopeUser)
	o.Trust, o.CodexApp = true, fake
	rep := run(t, o)
	if len(rep.Trusted) != 3 {
		t.Fatalf("trusted %v", rep.Trusted)
	}
	list, _ := fake.ListHooks(t.Context(), e.project)
	for _, h := range list.Hooks {
		if h.TrustStatus != "trusted" {
			t.Errorf("%s is %s", h.Key, h.TrustStatus)
		}
	}
	cfg := read(t, cfgPath)
	if !strings.HasPrefix(cfg, origCfg) {
		t.Fatal("trust must be appended, the rest kept")
	}
	mustContain(t, "config.toml", cfg, fmt.Sprintf("[hooks.state.%q]\ntrusted_hash = \"sha256:", filepath.Join(ch, "hooks.json")+":session_start:0:0"))
	fr := fileReport(t, rep, cfgPath)
	if len(backups(t, cfgPath)) != 1 || fr.Backup == "" {
		t.Errorf("one backup of config.toml expected, got %v", backups(t, cfgPath))
	}
	if strings.Contains(strings.Join(rep.Notes, "\n"), "/hooks") {
		t.Errorf("no need to tell the user to trust by hand: %v", rep.Notes)
	}

	snap := e.snapshot()
	again := run(t, o)
	if again.Changed() {
		t.Errorf("second --trust changed %v", changesOf(again))
	}
	mustContain(t, "notes", strings.Join(again.Notes, "\n"), "already trusts")
	e.unchangedSince(snap)

	// A new cairn path changes the hooks: Codex sees them as modified,
	// and --trust records the new hashes in place.
	o.Cairn = "/usr/local/bin/cairn"
	rep = run(t, o)
	if len(rep.Trusted) != 3 {
		t.Fatalf("re-trusted %v", rep.Trusted)
	}
	if n := strings.Count(read(t, cfgPath), "[hooks.state."); n != 3 {
		t.Errorf("%d trust tables, want 3", n)
	}
}

func TestCodexTrustWithoutCodex(t *testing.T) {
	e, _ := codexEnv(t)
	o := e.opts(Codex, ScopeUser)
	o.Trust = true
	_, err := Run(t.Context(), o)
	if memory.ErrorCode(err) != memory.CodeUnavailable {
		t.Fatalf("want unavailable, got %v", err)
	}
	mustContain(t, "error", memory.ErrorMessage(err), "codex command is not on PATH", "/hooks")
}

func TestCodexTrustNeedsATrustedProject(t *testing.T) {
	e, ch := codexEnv(t)
	o := e.opts(Codex, ScopeProject)
	o.Trust, o.CodexApp = true, &fakeCodex{codexHome: ch}
	_, err := Run(t.Context(), o)
	if err == nil {
		t.Fatal("an untrusted project's hooks cannot be trusted")
	}
	mustContain(t, "error", err.Error(), "only for a trusted project", "nothing was written")
	if fileExists(filepath.Join(e.project, ".codex")) {
		t.Error("a refused --trust must write nothing")
	}

	e.write(filepath.Join(ch, "config.toml"), fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", e.project))
	rep := run(t, o)
	if len(rep.Trusted) != 3 {
		t.Fatalf("trusted %v", rep.Trusted)
	}
	mustContain(t, "trust key", rep.Trusted[0], filepath.Join(e.project, ".codex", "hooks.json"))
	if _, err := os.Stat(filepath.Join(e.project, ".codex", "config.toml")); err != nil {
		t.Errorf("the project's MCP server belongs in .codex/config.toml: %v", err)
	}
	if strings.Contains(read(t, filepath.Join(e.project, ".codex", "config.toml")), "hooks.state") {
		t.Error("trust belongs in the user's config.toml, not the project's")
	}
}

func TestCodexUninstallCarriesTrustAlong(t *testing.T) {
	e, ch := codexEnv(t)
	hooksPath := filepath.Join(ch, "hooks.json")
	e.write(hooksPath, `{"hooks": {"UserPromptSubmit": [
  {"hooks": [{"type": "command", "command": "/opt/cairn/bin/cairn hook codex UserPromptSubmit", "timeout": 10}]},
  {"hooks": [{"type": "command", "command": "/home/ana/bin/guard"}]}
]}}`)
	key := func(g int) string { return fmt.Sprintf("%s:user_prompt_submit:%d:0", hooksPath, g) }
	cfgPath := e.write(filepath.Join(ch, "config.toml"), fmt.Sprintf("model = \"m\"\n\n[hooks.state.%q]\ntrusted_hash = \"sha256:cairn\"\n\n[hooks.state.%q]\ntrusted_hash = \"sha256:guard\"\n", key(0), key(1)))
	o := e.opts(Codex, ScopeUser)
	o.Uninstall = true
	rep := run(t, o)
	mustEqual(t, "config.toml changes", fileReport(t, rep, cfgPath).Changes, []Change{
		{Op: OpRemoved, What: "hook trust", Detail: key(0)},
		{Op: OpUpdated, What: "hook trust", Detail: key(1) + " → " + key(0)},
	})
	mustEqual(t, "config.toml", read(t, cfgPath), fmt.Sprintf("model = \"m\"\n\n[hooks.state.%q]\ntrusted_hash = \"sha256:guard\"\n", key(0)))
}

func TestCodexWarnsAboutUnknownTopLevelKeys(t *testing.T) {
	e, ch := codexEnv(t)
	e.write(filepath.Join(ch, "hooks.json"), `{"$schema": "x", "hooks": {}}`)
	rep := run(t, e.opts(Codex, ScopeUser))
	mustContain(t, "notes", strings.Join(rep.Notes, "\n"), `top-level "$schema"`)
}

package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenCodeUserRoundTrip(t *testing.T) {
	e := newTestEnv(t)
	xdg := filepath.Join(e.root, "xdg")
	e.vars["XDG_CONFIG_HOME"] = xdg
	cfgPath := e.fixture("opencode.json", filepath.Join(xdg, "opencode", "opencode.json"))
	plugin := filepath.Join(xdg, "opencode", "plugins", "cairn.js")
	orig := read(t, cfgPath)

	rep := run(t, e.opts(OpenCode, ScopeUser))
	mustEqual(t, "changes", changesOf(rep), []string{"cairn.js added plugin", "opencode.json added mcp server cairn"})
	src := read(t, plugin)
	if !isCairnPlugin([]byte(src)) {
		t.Fatal("the plugin lacks its marker")
	}
	mustContain(t, "plugin", src, `const CAIRN = "/opt/cairn/bin/cairn";`, `const CAIRN_HOME = "";`, `export default { id: "cairn", server: CairnPlugin };`)

	doc := parseJSONString(t, read(t, cfgPath))
	srv, _ := dig(doc, "mcp", "cairn")
	mustEqual(t, "mcp entry", string(encodeJSON(srv, "")), "{\n\"type\": \"local\",\n\"command\": [\n\"/opt/cairn/bin/cairn\",\n\"mcp\"\n],\n\"enabled\": true\n}")
	mcp, _ := dig(doc, "mcp")
	mustEqual(t, "server order", mcp.(*Object).Keys(), []string{"context7", "pg", "cairn"})

	snap := e.snapshot()
	if again := run(t, e.opts(OpenCode, ScopeUser)); again.Changed() {
		t.Errorf("second run changed %v", changesOf(again))
	}
	e.unchangedSince(snap)

	o := e.opts(OpenCode, ScopeUser)
	o.Cairn = "/usr/bin/cairn"
	rep = run(t, o)
	mustEqual(t, "path change", changesOf(rep), []string{"cairn.js updated plugin", "opencode.json updated mcp server cairn"})
	if len(backups(t, plugin)) != 1 {
		t.Errorf("plugin backups %v", backups(t, plugin))
	}

	o.Uninstall = true
	rep = run(t, o)
	if fileExists(plugin) {
		t.Error("uninstall left the plugin")
	}
	mustEqual(t, "uninstall", changesOf(rep), []string{"cairn.js removed plugin", "opencode.json removed mcp server cairn"})
	sameDoc(t, "opencode.json after uninstall", read(t, cfgPath), orig)
}

func TestOpenCodeLeavesAForeignPluginAlone(t *testing.T) {
	e := newTestEnv(t)
	plugin := e.write(filepath.Join(e.project, ".opencode", "plugins", "cairn.js"), "export const Mine = async () => ({})\n")
	snap := e.snapshot()
	_, err := Run(t.Context(), e.opts(OpenCode, ScopeProject))
	if err == nil {
		t.Fatal("a cairn.js that is not cairn's must not be overwritten")
	}
	mustContain(t, "error", err.Error(), plugin, "not written by cairn setup")
	e.unchangedSince(snap)

	o := e.opts(OpenCode, ScopeProject)
	o.Uninstall = true
	rep := run(t, o)
	mustContain(t, "notes", strings.Join(rep.Notes, "\n"), "left alone")
	e.unchangedSince(snap)
}

func TestOpenCodeJSONCWithCommentsIsRefusedWithAHint(t *testing.T) {
	e := newTestEnv(t)
	e.write(filepath.Join(e.home, ".config", "opencode", "opencode.jsonc"), "{\n  // mine\n  \"theme\": \"x\"\n}\n")
	snap := e.snapshot()
	_, err := Run(t.Context(), e.opts(OpenCode, ScopeUser))
	if err == nil {
		t.Fatal("want an error")
	}
	mustContain(t, "error", err.Error(), "opencode.jsonc", "line 2", `"cairn": {"type": "local"`)
	e.unchangedSince(snap)
}

func TestOpenCodeProjectHome(t *testing.T) {
	e := newTestEnv(t)
	o := e.opts(OpenCode, ScopeProject)
	o.Home = `/data/it's "here"`
	run(t, o)
	src := read(t, filepath.Join(e.project, ".opencode", "plugins", "cairn.js"))
	mustContain(t, "plugin", src, `const CAIRN_HOME = "/data/it's \"here\"";`)
	cfg := read(t, filepath.Join(e.project, "opencode.json"))
	mustContain(t, "opencode.json", cfg, `"environment": {`, `"CAIRN_HOME": "/data/it's \"here\""`)
}

// TestPluginIsValidJavaScript asks node to parse the rendered plugin,
// with a path that needs escaping, and to load it and call its hooks
// with a missing cairn binary: nothing may throw.
func TestPluginIsValidJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "cairn.mjs")
	if err := os.WriteFile(p, pluginSource(`/no/such/ca"i'rn\bin`, "/h\u2028ome"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", p).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s", err, out)
	}
	driver := filepath.Join(dir, "drive.mjs")
	os.WriteFile(driver, []byte(`
import plugin, { CairnPlugin } from "./cairn.mjs";
if (plugin.id !== "cairn" || plugin.server !== CairnPlugin) throw new Error("default export");
const hooks = await CairnPlugin({ directory: "/tmp" });
const out = { system: ["base"] };
await hooks["chat.message"]({ sessionID: "s1" }, { parts: [{ type: "text", text: "hello" }] });
await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, out);
await hooks["experimental.chat.system.transform"]({}, null);
await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s1" } } });
await hooks.event({});
if (out.system.length !== 1) throw new Error("nothing should be added without cairn");
console.log("ok");
`), 0o644)
	out, err := exec.Command(node, driver).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("driving the plugin: %v\n%s", err, out)
	}
}

// TestPluginSkipsTitleRequests drives the plugin in node with a stand-in
// cairn (a script that logs its calls and prints a block) and the shell
// helper OpenCode passes as $: a turn's system prompt gets the block; the
// title request OpenCode makes for the same session gets nothing and
// costs no call.
func TestPluginSkipsTitleRequests(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls.log")
	fake := filepath.Join(dir, "cairn")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> '"+calls+"'\necho '<cairn-memory>BLOCK</cairn-memory>'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cairn.mjs"), pluginSource(fake, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	driver := filepath.Join(dir, "drive.mjs")
	if err := os.WriteFile(driver, []byte(`
import { execFileSync } from "node:child_process";
import { CairnPlugin } from "./cairn.mjs";
// OpenCode's $: a tagged template with .env().quiet().nothrow(), awaited.
function $(parts, cmd, args) {
  let env = process.env;
  const p = {
    env(e) { env = e; return p; }, quiet() { return p; }, nothrow() { return p; }, catch() { return p; },
    then(ok) {
      try { ok({ exitCode: 0, stdout: execFileSync(cmd, args, { env }) }); }
      catch { ok({ exitCode: 1, stdout: Buffer.from("") }); }
    },
  };
  return p;
}
const hooks = await CairnPlugin({ $, directory: "/tmp" });
await hooks["chat.message"]({ sessionID: "s1" }, { parts: [{ type: "text", text: "how do commits start?" }] });
const turn = { system: ["You are opencode, an interactive CLI tool."] };
await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, turn);
const title = { system: ["You are a title generator. You output ONLY a thread title. Nothing else."] };
await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, title);
console.log(JSON.stringify({ turn: turn.system.length, block: turn.system.includes("<cairn-memory>BLOCK</cairn-memory>"), title: title.system.length }));
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, driver).CombinedOutput()
	if err != nil {
		t.Fatalf("driving the plugin: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != `{"turn":2,"block":true,"title":1}` {
		t.Fatalf("system prompts after the transform: %s", got)
	}
	log, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "\n"); n != 1 || !strings.Contains(string(log), "hook opencode system --session s1") {
		t.Fatalf("cairn was called %d times:\n%s", n, log)
	}
}

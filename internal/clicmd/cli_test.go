package clicmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// fakeCLI writes an executable shell script standing in for a CLI: it
// records its arguments, working directory, CAIRN_PRESET and stdin under
// dir, then runs body.
func fakeCLI(t *testing.T, body string) (cmd, dir string) {
	t.Helper()
	dir = t.TempDir()
	cmd = filepath.Join(dir, "cli")
	script := "#!/bin/sh\n" +
		"printf '%s\\n' \"$@\" > " + dir + "/args\n" +
		"pwd > " + dir + "/cwd\n" +
		"printf '%s' \"$CAIRN_PRESET\" > " + dir + "/preset\n" +
		"cat > " + dir + "/stdin\n" + body + "\n"
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cmd, dir
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestClaudeRunsPrivateWithoutTools(t *testing.T) {
	cmd, dir := fakeCLI(t, `echo '{"type":"result","subtype":"success","is_error":false,"result":"{\"facts\":[]}","stop_reason":"end_turn","total_cost_usd":0.0123,"usage":{"input_tokens":50,"cache_read_input_tokens":5,"output_tokens":7},"modelUsage":{"claude-haiku-4-5-20251001":{}}}'`)
	c, err := New(Options{Kind: Claude, Command: cmd, Model: "haiku", Env: []string{"PATH=/usr/bin:/bin", "CAIRN_PRESET=memory-on"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Complete(context.Background(), model.Request{System: "be brief", Output: &model.Schema{Name: "x", Schema: map[string]any{"type": "object"}},
		Messages: []model.Message{{Role: model.RoleUser, Text: "the turn"}}})
	if err != nil || r.Text != `{"facts":[]}` || r.Usage.In != 55 || r.Usage.Out != 7 || r.Usage.CostUSD != 0.0123 || r.Model != "claude-haiku-4-5-20251001" {
		t.Fatalf("%+v %v", r, err)
	}
	if got := read(t, filepath.Join(dir, "preset")); got != "private" {
		t.Errorf("CAIRN_PRESET in the CLI = %q, want private", got)
	}
	args := read(t, filepath.Join(dir, "args"))
	for _, want := range []string{"-p\n", "--output-format\njson\n", "--tools\n\n", "--strict-mcp-config\n", "--system-prompt\nbe brief\n", "--model\nhaiku\n"} {
		if !strings.Contains(args, want) {
			t.Errorf("args lack %q:\n%s", want, args)
		}
	}
	if cwd := strings.TrimSpace(read(t, filepath.Join(dir, "cwd"))); !strings.Contains(filepath.Base(cwd), "cairn-model-") {
		t.Errorf("the CLI ran in %s, not a scratch folder", cwd)
	}
	if _, err := os.Stat(strings.TrimSpace(read(t, filepath.Join(dir, "cwd")))); err == nil {
		t.Error("the scratch folder was left behind")
	}
	in := read(t, filepath.Join(dir, "stdin"))
	if !strings.Contains(in, "the turn") || !strings.Contains(in, "JSON Schema") {
		t.Errorf("prompt:\n%s", in)
	}
}

func TestCodexToolCallsInText(t *testing.T) {
	cmd, dir := fakeCLI(t, `cat <<'EOF'
{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"{\"tool_calls\":[{\"name\":\"read_file\",\"arguments\":{\"path\":\"MEMORY.md\"}}]}"}}
{"type":"turn.completed","usage":{"input_tokens":300,"cached_input_tokens":100,"output_tokens":20}}
EOF`)
	c, _ := New(Options{Kind: Codex, Command: cmd, Env: []string{"PATH=/usr/bin:/bin"}})
	r, err := c.Complete(context.Background(), model.Request{System: "sys", Tools: []model.Tool{{Name: "read_file", Description: "read",
		Params: map[string]any{"type": "object"}}}, Messages: []model.Message{{Role: model.RoleUser, Text: "start"}}})
	if err != nil || r.Stop != model.StopTools || len(r.Calls) != 1 || r.Calls[0].Name != "read_file" || string(r.Calls[0].Args) != `{"path":"MEMORY.md"}` ||
		r.Usage.In != 300 || r.Usage.Out != 20 {
		t.Fatalf("%+v %v", r, err)
	}
	args := read(t, filepath.Join(dir, "args"))
	for _, want := range []string{"exec\n", "--json\n", "--sandbox\nread-only\n", "--ephemeral\n"} {
		if !strings.Contains(args, want) {
			t.Errorf("args lack %q:\n%s", want, args)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(args), "\n-") {
		t.Errorf("the prompt is not read from stdin:\n%s", args)
	}
	if in := read(t, filepath.Join(dir, "stdin")); !strings.Contains(in, "sys") || !strings.Contains(in, `"tool_calls"`) {
		t.Errorf("prompt lacks the system text or the tool protocol:\n%s", in)
	}
	if read(t, filepath.Join(dir, "preset")) != "private" {
		t.Error("codex ran without the private preset")
	}
}

func TestRefusalAndFailures(t *testing.T) {
	cases := []struct {
		name, body string
		check      func(model.Response, error) bool
	}{
		{"refusal", `echo '{"type":"result","subtype":"success","is_error":false,"result":"I cannot help with that.","stop_reason":"refusal","usage":{"input_tokens":1,"output_tokens":1}}'`,
			func(r model.Response, err error) bool { return err == nil && r.Stop == model.StopRefusal }},
		{"error result", `echo '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"Invalid API key","usage":{}}'; exit 1`,
			func(_ model.Response, err error) bool {
				return memory.IsCode(err, memory.CodeUnavailable) && strings.Contains(memory.ErrorMessage(err), "Invalid API key")
			}},
		{"no output", `echo 'boom' >&2; exit 3`,
			func(_ model.Response, err error) bool {
				return memory.IsCode(err, memory.CodeUnavailable) && strings.Contains(err.Error(), "boom")
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd, _ := fakeCLI(t, tc.body)
			c, _ := New(Options{Kind: Claude, Command: cmd, Env: []string{"PATH=/usr/bin:/bin"}})
			r, err := c.Complete(context.Background(), model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
			if !tc.check(r, err) {
				t.Fatalf("%+v %v", r, err)
			}
		})
	}
}

func TestTimeoutKillsTheCLI(t *testing.T) {
	cmd, _ := fakeCLI(t, `exec sleep 30`)
	c, _ := New(Options{Kind: Codex, Command: cmd, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 100 * time.Millisecond})
	_, err := c.Complete(context.Background(), model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if !memory.IsCode(err, memory.CodeUnavailable) || !strings.Contains(memory.ErrorMessage(err), "timed out") {
		t.Fatalf("%v", err)
	}
}

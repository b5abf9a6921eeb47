package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/demo"
)

// TestDemoTellsTheWholeStory guards the README's main-job command: a
// decision made in a Claude Code session reaches a Codex session's start
// in the same repository, and the planted secret never does.
func TestDemoTellsTheWholeStory(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	code, out, errOut := run(t, "demo", "--json")
	if code != 0 {
		t.Fatalf("demo exit %d: %s", code, errOut)
	}
	var v struct {
		Standing struct{ Block struct{ Text string } } `json:"codex_session_start"`
		Recall   struct{ Block struct{ Text string } } `json:"codex_first_prompt"`
		Notes    []struct{ Object string }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PAY-1432", "Jira key"} {
		if !strings.Contains(v.Standing.Block.Text, want) {
			t.Errorf("Codex's session start lacks %q", want)
		}
	}
	if !strings.Contains(v.Recall.Block.Text, "lru-cache") {
		t.Errorf("the first prompt's block lacks the Map decision:\n%s", v.Recall.Block.Text)
	}
	if len(v.Notes) < 3 {
		t.Errorf("only %d notes promoted", len(v.Notes))
	}
	if strings.Contains(out, demo.FakeToken()) {
		t.Error("the planted secret reached the demo's output")
	}
}

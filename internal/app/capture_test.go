package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/demo"
)

type factRow struct {
	ID        int64
	Kind      string
	Subject   string
	Predicate string
	Object    string
	Tier      string
	Writer    string
	Evidence  []struct {
		Session string
		TurnSeq int `json:"turn_seq"`
		Source  string
	}
}

func currentFacts(t *testing.T, cwd string) []factRow {
	t.Helper()
	code, out, errOut := run(t, "fact", "query", "--cwd", cwd, "--json")
	if code != 0 {
		t.Fatalf("fact query: %d %s", code, errOut)
	}
	var v struct{ Current []factRow }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v.Current
}

func TestToolRulesCaptureFromImportedSessions(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	scene, err := demo.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	importJSON(t, "--claude-code="+scene.ClaudeDir)
	var commit *factRow
	for _, f := range currentFacts(t, scene.Repo) {
		if f.Predicate == "committed" {
			commit = &f
		}
	}
	if commit == nil {
		t.Fatal("the commit in the day-1 session was not captured")
	}
	if commit.Tier != "observed" || commit.Writer != "tool" || !strings.Contains(commit.Object, "7e2964f") {
		t.Fatalf("commit fact %+v", commit)
	}
	if len(commit.Evidence) == 0 || commit.Evidence[0].TurnSeq != 1 || commit.Evidence[0].Source != "tool" {
		t.Fatalf("commit evidence %+v", commit.Evidence)
	}
}

func TestCaptureOffQueuesAndCatchesUp(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	scene, err := demo.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "config", "set", "memory.capture", "false"); code != 0 {
		t.Fatal(errOut)
	}
	importJSON(t, "--claude-code="+scene.ClaudeDir)
	if facts := currentFacts(t, scene.Repo); len(facts) != 0 {
		t.Fatalf("capture is off but %d statements were written", len(facts))
	}
	if code, _, errOut := run(t, "config", "set", "memory.capture", "true"); code != 0 {
		t.Fatal(errOut)
	}
	if facts := currentFacts(t, scene.Repo); len(facts) == 0 {
		t.Fatal("switching capture on did not run the queued turns")
	}
}

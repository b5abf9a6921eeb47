package app

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

func TestFactCommands(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	cwd := t.TempDir()
	must := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(args, "--cwd", cwd)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		return out
	}
	bare := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		return out
	}
	must("fact", "assert", "production", "deploy_target", "Hetzner Cloud, Falkenstein", "--valid-at", "2026-06-01")
	must("fact", "assert", "production", "deployed_to", "Render, Oregon region", "--valid-at", "2026-07-01")
	must("fact", "assert", "project", "ci", "GitHub Actions", "--valid-at", "2026-06-15")
	// An older value arriving late is history, not the current value.
	out := must("fact", "assert", "production", "deploy_target", "Vultr, Amsterdam", "--valid-at", "2026-06-20", "--json")
	if !strings.Contains(out, `"action": "insert-late"`) {
		t.Fatalf("late arrival: %s", out)
	}
	var v struct {
		Current []struct {
			ID     int64
			Object string
		}
		Recent []struct{ Old, New struct{ Object string } } `json:"recent_changes"`
	}
	if err := json.Unmarshal([]byte(must("fact", "query", "--json")), &v); err != nil {
		t.Fatal(err)
	}
	objects := map[string]int64{}
	for _, c := range v.Current {
		objects[c.Object] = c.ID
	}
	if len(v.Current) != 2 || objects["Render, Oregon region"] == 0 || objects["GitHub Actions"] == 0 {
		t.Fatalf("current %+v", v.Current)
	}
	asOf := func(at, clock string) []string {
		t.Helper()
		var rows []struct{ Object string }
		if err := json.Unmarshal([]byte(must("fact", "asof", at, "--clock", clock, "--json")), &rows); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			out = append(out, r.Object)
		}
		return out
	}
	if got := strings.Join(asOf("2026-06-10", "world"), "|"); got != "Hetzner Cloud, Falkenstein" {
		t.Fatalf("as of June 10: %s", got)
	}
	if got := strings.Join(asOf("2026-06-25", "world"), "|"); got != "GitHub Actions|Vultr, Amsterdam" {
		t.Fatalf("as of June 25: %s", got)
	}
	if got := asOf("2020-01-01", "system"); len(got) != 0 {
		t.Fatalf("cairn believed nothing in 2020: %v", got)
	}

	id := objects["GitHub Actions"]
	bare("fact", "retract", itoa(id))
	if err := json.Unmarshal([]byte(must("fact", "query", "--json")), &v); err != nil || len(v.Current) != 1 {
		t.Fatalf("after retract: %+v %v", v.Current, err)
	}
	bare("fact", "reopen", itoa(id))
	if err := json.Unmarshal([]byte(must("fact", "query", "--json")), &v); err != nil || len(v.Current) != 2 {
		t.Fatalf("after reopen: %+v %v", v.Current, err)
	}

	code, _, errOut := run(t, "fact", "assert", "ci", "token", "ghp_"+strings.Repeat("Zq9x", 9), "--cwd", cwd)
	if code != 2 || !strings.Contains(errOut, "github-pat") || strings.Contains(errOut, "Zq9x") {
		t.Fatalf("credential: exit %d %q", code, errOut)
	}
	if code, _, errOut := run(t, "fact", "retract", "999"); code != 3 {
		t.Fatalf("unknown id: exit %d %s", code, errOut)
	}

	exp := bare("fact", "export")
	n := 0
	sc := bufio.NewScanner(strings.NewReader(exp))
	for sc.Scan() {
		var row map[string]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("export line: %v", err)
		}
		if _, ok := row["valid_at"]; !ok {
			t.Fatal("export lacks the world clock")
		}
		if _, ok := row["created_at"]; !ok {
			t.Fatal("export lacks the system clock")
		}
		n++
	}
	if n < 5 {
		t.Fatalf("export has %d rows", n)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

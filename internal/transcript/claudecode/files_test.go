package claudecode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDiscoverTestdata(t *testing.T) {
	got, err := Discover("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"testdata/codemie/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
		"testdata/codemie/incremental-simple/turn-1.jsonl",
		"testdata/simonw/sample_session.jsonl",
		"testdata/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
		// An orphan: its parent session file was not copied.
		"testdata/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
		"testdata/spotter/short.jsonl",
		"testdata/spotter/subagent.jsonl",
		"testdata/spotter/tool_heavy.jsonl",
	}
	for i := range want {
		want[i] = filepath.FromSlash(want[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Discover =\n%q\nwant\n%q", got, want)
	}
}

func TestDiscoverMissingRoot(t *testing.T) {
	got, err := Discover(filepath.Join(t.TempDir(), "absent"))
	if err != nil || len(got) != 0 {
		t.Fatalf("Discover = %v, %v; want nothing", got, err)
	}
}

// writeFile writes a synthetic transcript under dir.
func writeFile(t *testing.T, dir, rel, body string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLayouts(t *testing.T) {
	root := t.TempDir()
	project := "-work-app"
	mainBody := newScript(t).user("u1", "", "delegate it").
		asst("a1", "u1", "m1", "end_turn", text("delegated")).String()
	sub := func(agent, sid string) string {
		s := newScript(t).with(obj{"isSidechain": true, "agentId": agent})
		s.session = sid
		return s.user("x1", "", "sub task "+agent).asst("x2", "x1", "mx", "end_turn", text("sub done")).String()
	}
	mainPath := writeFile(t, root, project+"/s1.jsonl", mainBody)
	// 2.1 layout, and a compaction agent that is not read.
	writeFile(t, root, project+"/s1/subagents/agent-b21.jsonl", sub("b21", "s1"))
	writeFile(t, root, project+"/s1/subagents/agent-acompact-1.jsonl", sub("acompact-1", "s1"))
	// 2.0 layout: siblings, one of this session, one of another.
	writeFile(t, root, project+"/agent-c20.jsonl", sub("c20", "s1"))
	writeFile(t, root, project+"/agent-other.jsonl", sub("other", "s2"))
	// An orphan sibling and an orphan 2.1 directory.
	writeFile(t, root, project+"/agent-lost.jsonl", sub("lost", "gone"))
	writeFile(t, root, project+"/gone2/subagents/agent-d.jsonl", sub("d", "gone2"))
	writeFile(t, root, project+"/s2.jsonl", newScript(t).String())
	writeFile(t, root, project+"/s1/tool-results/big.txt", "output")

	got, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(root, project, "agent-lost.jsonl"),
		filepath.Join(root, project, "gone2", "subagents", "agent-d.jsonl"),
		filepath.Join(root, project, "s1.jsonl"),
		filepath.Join(root, project, "s2.jsonl"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Discover =\n%q\nwant\n%q", got, want)
	}

	res, err := ParseFile(context.Background(), mainPath)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range res.Sessions {
		ids = append(ids, s.ExternalID)
		if s.Subagent && s.ParentExternalID != "s1" {
			t.Errorf("%s: parent %q", s.ExternalID, s.ParentExternalID)
		}
	}
	if want := []string{"s1", "s1/agent-b21", "s1/agent-c20"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("sessions %q, want %q", ids, want)
	}
	if len(res.Files) != 3 || res.Stats.Lines != 6 {
		t.Errorf("%d files, %d lines", len(res.Files), res.Stats.Lines)
	}
	for _, f := range res.Files {
		info, err := os.Stat(f.Path)
		if err != nil || info.Size() != f.Size || !info.ModTime().Equal(f.ModTime) {
			t.Errorf("file %+v does not match the disk", f)
		}
	}

	res, err = ParseFile(context.Background(), filepath.Join(root, project, "gone2", "subagents", "agent-d.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 || res.Sessions[0].ExternalID != "gone2/agent-d" {
		t.Errorf("orphan: %+v", res.Sessions)
	}
}

func TestParseFileErrors(t *testing.T) {
	if _, err := ParseFile(context.Background(), filepath.Join(t.TempDir(), "none.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseFile(ctx, "testdata/spotter/short.jsonl"); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

func TestDefaultRoot(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg/claude")
	if got := DefaultRoot(); got != filepath.Join("/cfg/claude", "projects") {
		t.Errorf("with CLAUDE_CONFIG_DIR: %q", got)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("HOME", "/home/u")
	if got := DefaultRoot(); got != filepath.Join("/home/u", ".claude", "projects") {
		t.Errorf("default: %q", got)
	}
}

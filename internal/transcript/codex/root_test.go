package codex

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	day := filepath.Join(root, "sessions", "2026", "05", "11")
	arch := filepath.Join(root, "archived_sessions")
	files := []string{
		filepath.Join(day, "rollout-2026-05-11T11-26-55-aaa.jsonl"),
		filepath.Join(day, "rollout-2026-05-11T11-26-55-aaa.jsonl.zst"), // same rollout, compressed: plain wins
		filepath.Join(day, "rollout-2026-05-11T12-00-00-bbb.jsonl.zst"), // compressed only
		filepath.Join(arch, "rollout-2026-04-01T09-00-00-ccc.jsonl"),    // archived
		filepath.Join(arch, "rollout-2026-05-11T12-00-00-bbb.jsonl"),    // archived copy of a live one: live wins
		filepath.Join(day, "notes.jsonl"),                               // not a rollout
		filepath.Join(day, "rollout-2026-05-11T13-00-00-ddd.json"),      // not a rollout
		filepath.Join(root, "history.jsonl"),                            // not under a rollout folder
	}
	for _, f := range files {
		touch(t, f)
	}
	got, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{files[3], files[0], files[2]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Discover =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDiscoverMissingRoot(t *testing.T) {
	got, err := Discover(filepath.Join(t.TempDir(), "absent"))
	if err != nil || len(got) != 0 {
		t.Fatalf("Discover = %v, %v; want nothing and no error", got, err)
	}
}

func TestDefaultRoot(t *testing.T) {
	t.Setenv("CODEX_HOME", "/opt/codex-home")
	if got := DefaultRoot(); got != "/opt/codex-home" {
		t.Errorf("with CODEX_HOME: %q", got)
	}
	t.Setenv("CODEX_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if got := DefaultRoot(); got != filepath.Join("/home/someone", ".codex") {
		t.Errorf("without CODEX_HOME: %q", got)
	}
}

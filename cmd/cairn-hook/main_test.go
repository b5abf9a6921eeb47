package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookPath(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "cairn"), []byte("not executable"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "cairn")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, path, want string }{
		{"the first directory holding an executable", other + string(filepath.ListSeparator) + dir, exe},
		{"a file that is not executable is passed over", other, ""},
		{"nothing on an empty path", "", ""},
	}
	for _, c := range cases {
		if got := lookPath("cairn", c.path); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := lookPath("sub", dir); got != "" {
		t.Errorf("a directory is not an executable: %q", got)
	}
}

func TestRunWithFeedsThePayload(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	sh := "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	payload := make([]byte, 1<<20) // more than a pipe holds
	for i := range payload {
		payload[i] = byte('a' + i%26)
	}
	if err := runWith(sh, []string{sh, "-c", `cat > "$0"; [ "$CAIRN_HOOK_HERE" = 1 ]`, out}, append(os.Environ(), "CAIRN_HOOK_HERE=1"), payload); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil || string(got) != string(payload) {
		t.Fatalf("the child read %d bytes (%v), want %d", len(got), err, len(payload))
	}
	if err := runWith(sh, []string{sh, "-c", `[ "$CAIRN_HOOK_HERE" = 1 ]`}, os.Environ(), nil); err == nil {
		t.Fatal("the child was told the resident process sent the call back")
	}
	if err := runWith(sh, []string{sh, "-c", "exit 3"}, os.Environ(), nil); err == nil {
		t.Fatal("a failing child is not an error")
	}
}

func TestCairnEnvDropsGOMAXPROCS(t *testing.T) {
	env := []string{"HOME=/h", "GOMAXPROCS=1", "CAIRN_HOME=/c", "GOMAXPROCSX=2"}
	got := cairnEnv(env)
	if strings.Join(got, " ") != "HOME=/h CAIRN_HOME=/c GOMAXPROCSX=2" {
		t.Fatalf("cairnEnv = %q", got)
	}
	if env[1] != "GOMAXPROCS=1" {
		t.Fatalf("cairnEnv changed its argument: %q", env)
	}
}

//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServer starts a scripted model for one test and stops it after.
// With CAIRN_E2E_REQUESTS=DIR, every request it recorded is written under
// DIR/<test>/, to read what each agent really sent.
func startServer(t *testing.T, steps ...Step) *Server {
	t.Helper()
	s, err := Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		if dir := os.Getenv("CAIRN_E2E_REQUESTS"); dir != "" {
			if err := dumpRequests(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")), s); err != nil {
				t.Errorf("keep the requests: %v", err)
			}
		}
	})
	return s
}

// dumpRequests writes each recorded request body to dir, named by its
// order, path and the script step it answered.
func dumpRequests(dir string, s *Server) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range s.Requests() {
		step := fmt.Sprintf("step%d", r.Step)
		if r.Side {
			step = "side"
		}
		name := fmt.Sprintf("%02d-%s-%s-%s.json", r.Seq, r.Method, strings.ReplaceAll(strings.Trim(r.Path, "/"), "/", "_"), step)
		if err := os.WriteFile(filepath.Join(dir, name), r.Body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestAgents is one user's two days with three agents, in order: each
// step builds on what the earlier ones stored, so the first failure of a
// step that others need stops the run.
func TestAgents(t *testing.T) {
	start := time.Now()
	w := newWorld(t)
	t.Logf("agents installed, cairn built: %s", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		// Leave no detached cairn behind, whatever failed.
		_ = settle(w.real, 30*time.Second)
		// With CAIRN_E2E_REQUESTS, cairn's store is kept beside the
		// requests: HOME=DIR/home cairn ... reads it.
		if dir := os.Getenv("CAIRN_E2E_REQUESTS"); dir != "" {
			for _, sub := range []string{".local/share/cairn", ".config/cairn"} {
				src := filepath.Join(w.home, sub)
				if _, err := os.Stat(src); err == nil {
					if err := copyTree(src, filepath.Join(dir, "home", sub)); err != nil {
						t.Errorf("keep cairn's store: %v", err)
					}
				}
			}
		}
	})
	steps := []struct {
		name   string
		needed bool // later steps depend on it
		run    func(t *testing.T)
	}{
		{"setup/claude-code", true, w.setupClaude},
		{"setup/codex", true, w.setupCodex},
		{"setup/opencode", true, w.setupOpenCode},
		{"day1/claude-code", true, w.claudeDay1},
		{"day2/codex", false, w.codexDay2},
		{"day2/claude-code", false, w.claudeRecall},
		{"day2/opencode", false, w.openCodeRecall},
		{"private/claude-code", false, func(t *testing.T) { w.private(t, "claude-code") }},
		{"private/codex", false, func(t *testing.T) { w.private(t, "codex") }},
		{"private/opencode", false, func(t *testing.T) { w.private(t, "opencode") }},
		{"mcp-list/claude-code", false, w.claudeChecks},
		{"mcp-list/codex", false, w.codexChecks},
		{"mcp-list/opencode", false, w.openCodeChecks},
	}
	for _, s := range steps {
		t0 := time.Now()
		ok := t.Run(s.name, s.run)
		// A step that failed half-way may have left detached imports
		// running; the next step must not see them land in its store.
		if err := settle(w.real, 45*time.Second); err != nil {
			t.Errorf("after %s: %v", s.name, err)
		}
		t.Logf("STEP %s: %s", s.name, time.Since(t0).Round(time.Millisecond))
		if !ok && s.needed {
			t.Fatalf("%s failed: the steps after it need it", s.name)
		}
	}
	t.Logf("TOTAL %s", time.Since(start).Round(time.Millisecond))
}

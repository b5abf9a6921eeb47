package app

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/gateway"
)

// TestGatewayLimits: a body over the limit answers 413, a token past its
// burst 429 (another token is not slowed), and neither reaches the store.
func TestGatewayLimits(t *testing.T) {
	for _, gs := range gatewayStores() {
		t.Run(gs.name, func(t *testing.T) {
			g := newGatewayEnv(t, gs.open(t), gateway.Options{MaxBody: 4 << 10, Rate: 0.001, Burst: 3})
			a, b := g.account("a", false), g.account("b", false)
			code, body := g.call(a, "POST", "/v1/notes", gateway.NoteBody{Text: strings.Repeat("x", 8<<10), Cwd: "/w"})
			if code != http.StatusRequestEntityTooLarge {
				t.Fatalf("large body: %d %s", code, body)
			}
			for range 2 {
				g.call(a, "GET", "/v1/health", nil)
			}
			if code, body := g.call(a, "GET", "/v1/health", nil); code != http.StatusTooManyRequests {
				t.Fatalf("past the burst: %d %s", code, body)
			}
			if code, body := g.call(b, "GET", "/v1/health", nil); code != http.StatusOK {
				t.Fatalf("another token: %d %s", code, body)
			}
		})
	}
}

// TestHookWithGatewayDown: in remote mode a hook whose gateway does not
// answer prints nothing, exits 0 and logs why.
func TestHookWithGatewayDown(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	t.Setenv("CAIRN_URL", "http://"+addr)
	t.Setenv("CAIRN_TOKEN", "cairn_"+strings.Repeat("a", 52))
	in := `{"session_id":"s1","cwd":"` + home + `","prompt":"what is the deploy target?","hook_event_name":"UserPromptSubmit"}`
	var out, errOut bytes.Buffer
	code := Main(context.Background(), []string{"hook", "claude-code", "UserPromptSubmit"}, strings.NewReader(in), &out, &errOut)
	if code != 0 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	logs, _ := filepath.Glob(filepath.Join(home, "**", "hooks.log"))
	if more, _ := filepath.Glob(filepath.Join(home, "hooks.log")); len(more) > 0 {
		logs = append(logs, more...)
	}
	found := false
	for _, p := range logs {
		b, _ := os.ReadFile(p)
		found = found || strings.Contains(string(b), "did not answer")
	}
	if !found {
		t.Fatalf("no hooks.log entry naming the gateway under %s (found %v)", home, logs)
	}
	if _, err := os.Stat(filepath.Join(home, "cairn.db")); err == nil {
		t.Fatalf("remote mode opened a local store")
	}
}

package app

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
)

// TestGatewayTurns: turns sent one by one make one session with its turns
// in order; a turn sent again replaces itself; secrets are redacted before
// the turn log or the store sees them; another account naming the same
// session id gets a session of its own.
func TestGatewayTurns(t *testing.T) {
	for _, gs := range gatewayStores() {
		t.Run(gs.name, func(t *testing.T) {
			st, dataDir := gs.open(t), t.TempDir()
			srv := newGateway(st, config.Default(), dataDir, gateway.Options{Rate: -1})
			hs := httptest.NewServer(srv.Handler())
			t.Cleanup(func() { hs.Close(); srv.Close() })
			g := &gatewayEnv{t: t, url: hs.URL, st: st, srv: srv, http: hs.Client()}
			alice, bob := g.account("alice", false), g.account("bob", false)
			place := &memory.Place{Worktree: "/work/shop", Project: "/work/shop/.git"}
			secret := "ghp_" + strings.Repeat("Q7w", 12)
			at := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
			turns := []gateway.TurnBody{
				{Request: "the ledger service deploys with " + secret, Answer: "Deploying the ledger with the given token.", At: at},
				{Request: "and the cache is valkey now", Answer: "Switched the cache to valkey.", At: at.Add(time.Minute)},
				{Request: "the ledger service deploys with " + secret, Answer: "Deploying the ledger (retried).", At: at},
			}
			for _, tb := range turns {
				tb.Provider, tb.Session, tb.Place = memory.ProviderCodex, "rollout-77", place
				var rep engine.SourceReport
				g.must(alice, "POST", "/v1/turns", tb, &rep)
				if rep.Sessions != 1 {
					t.Fatalf("turn report: %+v", rep)
				}
			}
			var s memory.Session
			g.must(alice, "GET", "/v1/sessions/rollout-77", nil, &s)
			if len(s.Turns) != 2 || !strings.Contains(s.Turns[0].Outcome, "retried") || !strings.Contains(s.Turns[1].Request, "valkey") {
				t.Fatalf("alice's session: %+v", s.Turns)
			}
			if s.Provider != memory.ProviderCodex || s.Place != *place {
				t.Errorf("session %s at %+v", s.Provider, s.Place)
			}
			if strings.Contains(s.Turns[0].Request, secret) {
				t.Errorf("the token was stored: %q", s.Turns[0].Request)
			}
			var files []string
			_ = filepath.Walk(dataDir, func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() && strings.Contains(p, string(filepath.Separator)+"turns"+string(filepath.Separator)) {
					files = append(files, p)
				}
				return nil
			})
			if len(files) != 1 {
				t.Fatalf("turn logs: %v", files)
			}
			if b, _ := os.ReadFile(files[0]); strings.Contains(string(b), secret) || !strings.Contains(string(b), "valkey") {
				t.Errorf("turn log holds the token, or not the turns: %s", b)
			}
			var res engine.SearchResult
			g.must(alice, "POST", "/v1/search", gateway.SearchBody{Query: "valkey cache", Place: place}, &res)
			if len(res.Hits) == 0 {
				t.Errorf("alice's search misses her turn")
			}
			// bob names alice's session: his turn is his.
			g.must(bob, "POST", "/v1/turns", gateway.TurnBody{Provider: memory.ProviderCodex, Session: "rollout-77", Request: "bob's own request",
				Answer: "ok", Place: place}, nil)
			g.must(alice, "GET", "/v1/sessions/rollout-77", nil, &s)
			if len(s.Turns) != 2 {
				t.Errorf("bob's turn changed alice's session: %+v", s.Turns)
			}
			var bs memory.Session
			g.must(bob, "GET", "/v1/sessions/rollout-77", nil, &bs)
			if len(bs.Turns) != 1 || bs.Turns[0].Request != "bob's own request" {
				t.Errorf("bob's session: %+v", bs.Turns)
			}
			for _, bad := range []gateway.TurnBody{
				{Provider: "cursor", Session: "x", Request: "r", Place: place},
				{Provider: memory.ProviderCodex, Request: "r", Place: place},
				{Provider: memory.ProviderCodex, Session: "x", Place: place},
				{Provider: memory.ProviderCodex, Session: "x", Request: "r"},
			} {
				if code, b := g.call(alice, "POST", "/v1/turns", bad); code != 400 {
					t.Errorf("turn %+v: %d %s, want 400", bad, code, b)
				}
			}
		})
	}
}

package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/remote"
)

// TestGatewayLoad drives the gateway on loopback with concurrent remote
// clients, one write (a note) to every two recalls, for a fixed time, then
// reads back every write the gateway acknowledged. It fails on any error
// or any lost write, never on speed; the figures are logged for
// BENCHMARKS.md. CAIRN_GATEWAY_LOAD sets the duration (default 2s) and
// CAIRN_GATEWAY_CLIENTS the clients (default 8).
func TestGatewayLoad(t *testing.T) {
	dur := 2 * time.Second
	if v := os.Getenv("CAIRN_GATEWAY_LOAD"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		dur = d
	}
	clients := 8
	if v := os.Getenv("CAIRN_GATEWAY_CLIENTS"); v != "" {
		fmt.Sscan(v, &clients)
	}
	for _, gs := range gatewayStores() {
		t.Run(gs.name, func(t *testing.T) { runLoad(t, gs.open(t), dur, clients) })
	}
}

type loadResult struct {
	lat    []time.Duration
	errs   int
	writes map[int64]string // acknowledged: id → text
}

func runLoad(t *testing.T, st teamStore, dur time.Duration, clients int) {
	g := newGatewayEnv(t, st, gateway.Options{Rate: -1})
	toks := []string{g.account("load-a", false), g.account("load-b", false)}
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	place := memory.Place{Worktree: "/work/load", Project: "/work/load"}
	results := make([]loadResult, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := remote.New(remote.Options{URL: g.url, Token: toks[i%2], Transport: http.DefaultTransport,
				Resolve: func(string) (memory.Place, error) { return place, nil }})
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			r := &results[i]
			r.writes = map[int64]string{}
			for n := 0; ctx.Err() == nil; n++ {
				// Each call gets its own deadline: the run's end must not
				// turn a call in flight into an error.
				cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
				t0 := time.Now()
				if n%3 == 0 {
					text := fmt.Sprintf("deploy lane %x through stage %x", rand.Uint64(), rand.Uint64())
					res, err := c.Remember(cctx, text, "load", "", false, "/work/load")
					if err == nil {
						// A restatement is acknowledged with the row it
						// reinforced: that row must be readable.
						r.writes[res.Statement.ID] = res.Statement.Object
					} else {
						r.errs++
						t.Logf("write: %v", err)
					}
				} else if _, err := c.Recall(cctx, engine.RecallRequest{Query: fmt.Sprintf("stage lane %d deploy", n), Cwd: "/work/load",
					Provider: memory.ProviderClaudeCode, Session: fmt.Sprintf("load-%d-%d", i, n)}); err != nil {
					r.errs++
					t.Logf("recall: %v", err)
				}
				r.lat = append(r.lat, time.Since(t0))
				ccancel()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var lat []time.Duration
	errs, writes := 0, 0
	for _, r := range results {
		lat = append(lat, r.lat...)
		errs += r.errs
		writes += len(r.writes)
	}
	slices.Sort(lat)
	if len(lat) == 0 {
		t.Fatal("no request completed")
	}
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	t.Logf("gateway load (%s): %d clients, %s: %d requests (%d writes), %.0f req/s, p50 %s, p99 %s, errors %d",
		storeKind(st), clients, elapsed.Round(time.Millisecond), len(lat), writes,
		float64(len(lat))/elapsed.Seconds(), pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), errs)
	if errs > 0 {
		t.Errorf("%d requests failed", errs)
	}
	// Every acknowledged write is there, for its own account only.
	for i, r := range results {
		tok := toks[i%2]
		for id, text := range r.writes {
			var s memory.Statement
			g.must(tok, "GET", fmt.Sprintf("/v1/statements/%d", id), nil, &s)
			if s.Object != text || !s.Current() {
				t.Errorf("acknowledged write %d lost or changed: %+v", id, s)
			}
		}
	}
}

func storeKind(st teamStore) string {
	h, err := st.Health(context.Background())
	if err != nil {
		return "unknown"
	}
	return h.Kind
}

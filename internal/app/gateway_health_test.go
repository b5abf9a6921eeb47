package app

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/cairn-memory/cairn/internal/gateway"
)

// TestGatewayHealthShowsStoreWideFiguresToOperatorsOnly: row counts cover
// every account and the path is the server's, so an account's token sees
// only that the store is sound.
func TestGatewayHealthShowsStoreWideFiguresToOperatorsOnly(t *testing.T) {
	for _, st := range gatewayStores() {
		t.Run(st.name, func(t *testing.T) {
			g := newGatewayEnv(t, st.open(t), gateway.Options{})
			agent := g.account("team-a", false)
			ops := g.account("ops", true)
			for _, c := range []struct {
				token    string
				wantRows bool
			}{{agent, false}, {ops, true}} {
				code, body := g.call(c.token, http.MethodGet, "/v1/health", nil)
				if code != http.StatusOK {
					t.Fatalf("health: %d %s", code, body)
				}
				var h struct {
					Status string
					Store  struct {
						Path      string           `json:"path"`
						Integrity string           `json:"integrity"`
						Rows      map[string]int64 `json:"rows"`
					} `json:"store"`
				}
				if err := json.Unmarshal(body, &h); err != nil {
					t.Fatal(err)
				}
				if h.Status != "ok" || h.Store.Integrity != "ok" {
					t.Errorf("health is not ok: %s", body)
				}
				if got := len(h.Store.Rows) > 0; got != c.wantRows {
					t.Errorf("operator %v: row counts shown %v: %s", c.wantRows, got, body)
				}
				if !c.wantRows && h.Store.Path != "" {
					t.Errorf("an agent token learns the server's path: %s", body)
				}
			}
		})
	}
}

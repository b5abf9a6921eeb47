package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/postgres/pgtest"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// gatewayStore is one store a gateway test runs on.
type gatewayStore struct {
	name string
	open func(t *testing.T) teamStore
}

// gatewayStores are SQLite always, and PostgreSQL when CAIRN_TEST_POSTGRES
// holds a DSN: every gateway test runs through each.
func gatewayStores() []gatewayStore {
	out := []gatewayStore{{"sqlite", func(t *testing.T) teamStore {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}}}
	if os.Getenv("CAIRN_TEST_POSTGRES") != "" {
		out = append(out, gatewayStore{"postgres", openTestPostgres})
	}
	return out
}

// openTestPostgres opens the gateway's PostgreSQL store the way `cairn
// serve --db postgres://…` does (openPostgres), on a schema of the test's
// own: the application role's DSN serves, the owner's migrates.
func openTestPostgres(t *testing.T) teamStore {
	ownerDSN, appDSN, appRole := pgtest.Schema(t)
	if appRole == "" {
		t.Skip("SKIPPED LOUDLY: CAIRN_TEST_POSTGRES_APP is not set, so the gateway was NOT tested on PostgreSQL: it serves as the application role (docs/postgres.md)")
	}
	t.Setenv("CAIRN_POSTGRES_OWNER", ownerDSN)
	st, err := openPostgres(context.Background(), appDSN)
	if err != nil {
		t.Fatalf("CAIRN_TEST_POSTGRES is set but the store does not open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// gatewayEnv is a gateway on loopback over a real store.
type gatewayEnv struct {
	t    *testing.T
	url  string
	st   teamStore
	srv  *gateway.Server
	http *http.Client
}

func newGatewayEnv(t *testing.T, st teamStore, o gateway.Options) *gatewayEnv {
	t.Helper()
	srv := newGateway(st, config.Default(), t.TempDir(), o)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return &gatewayEnv{t: t, url: hs.URL, st: st, srv: srv, http: hs.Client()}
}

// account creates an account and an agent token for it (and an operator
// token when operator is set).
func (g *gatewayEnv) account(name string, operator bool) string {
	g.t.Helper()
	acc := gateway.Accounts{Store: g.st}
	if _, err := acc.Create(context.Background(), name); err != nil {
		g.t.Fatal(err)
	}
	secret, _, err := acc.Issue(context.Background(), name, "test", operator)
	if err != nil {
		g.t.Fatal(err)
	}
	return secret
}

// call sends one request and returns the status and body.
func (g *gatewayEnv) call(token, method, path string, body any) (int, []byte) {
	g.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			g.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, g.url+path, rd)
	if err != nil {
		g.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := g.http.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// must sends a request that has to succeed and decodes its answer.
func (g *gatewayEnv) must(token, method, path string, body, out any) {
	g.t.Helper()
	code, b := g.call(token, method, path, body)
	if code >= 300 {
		g.t.Fatalf("%s %s: %d %s", method, path, code, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			g.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

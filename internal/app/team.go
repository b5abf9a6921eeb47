package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/remote"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// teamStore is a store a gateway can run on: every engine port, the
// accounts and tokens, and the operator purge.
type teamStore interface {
	engine.Store
	engine.Purger
	gateway.AccountStore
}

// openTeamStore opens db: a postgres:// URL or a SQLite file ("" is this
// machine's store).
func openTeamStore(ctx context.Context, f *cli.Factory, db string) (teamStore, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		return openPostgres(ctx, db)
	}
	if db == "" {
		db = f.Paths().DB
	}
	return sqlite.Open(ctx, db)
}

// sharedStore lets many engines use one store: closing an engine leaves
// the store open for the others; the gateway closes it once.
type sharedStore struct{ teamStore }

func (sharedStore) Close() error { return nil }

// team implements the CLI's gateway commands.
type team struct{ f *cli.Factory }

func (t team) Accounts(ctx context.Context, db string) (gateway.Accounts, io.Closer, error) {
	if t.remoteMode() && db == "" {
		return gateway.Accounts{}, nil, errServeRemote
	}
	st, err := openTeamStore(ctx, t.f, db)
	if err != nil {
		return gateway.Accounts{}, nil, err
	}
	return gateway.Accounts{Store: st}, st, nil
}

func (t team) Purge(ctx context.Context, db, account string) (memory.PurgeCounts, error) {
	st, err := openTeamStore(ctx, t.f, db)
	if err != nil {
		return memory.PurgeCounts{}, err
	}
	defer st.Close()
	acct := memory.LocalAccount
	if account != "" {
		a, err := st.AccountByName(ctx, account)
		if err != nil {
			return memory.PurgeCounts{}, err
		}
		acct = a.ID
	}
	return engine.New(sharedStore{st}, engine.Options{Account: acct}).Purge(ctx)
}

// Remote is the gateway client when CAIRN_URL and CAIRN_TOKEN are set.
func (t team) Remote() (*remote.Client, error) {
	u, tok := t.f.Getenv("CAIRN_URL"), t.f.Getenv("CAIRN_TOKEN")
	if u == "" && tok == "" {
		return nil, nil
	}
	if u == "" || tok == "" {
		return nil, memory.Errorf(memory.CodeInvalid, "remote mode needs both CAIRN_URL and CAIRN_TOKEN")
	}
	// What each transcript upload sent is recorded in the data dir, which
	// in remote mode holds no store.
	return remoteClient(u, tok, filepath.Join(t.f.Paths().DataDir, "remote"))
}

// errServeRemote refuses the gateway's own commands on a client.
var errServeRemote = memory.Errorf(memory.CodeInvalid,
	"CAIRN_URL and CAIRN_TOKEN are set, so this cairn is a client of a gateway: serving and account or token admin run on the gateway's machine, "+
		"against its store; unset CAIRN_URL and CAIRN_TOKEN there")

// remoteMode reports whether CAIRN_URL or CAIRN_TOKEN is set.
func (t team) remoteMode() bool {
	return t.f.Getenv("CAIRN_URL") != "" || t.f.Getenv("CAIRN_TOKEN") != ""
}

// accountDir holds one account's memory files and uploads under the data
// dir.
func accountDir(dataDir string, acct memory.AccountID) string {
	return filepath.Join(dataDir, "accounts", strconv.FormatInt(int64(acct), 10))
}

// newGateway builds a gateway over st whose engines keep their files
// under dataDir.
func newGateway(st teamStore, cfg config.Config, dataDir string, o gateway.Options) *gateway.Server {
	o.Accounts = st
	o.UploadDir = filepath.Join(dataDir, "uploads")
	o.Open = func(_ context.Context, acct memory.AccountID, resolve engine.PlaceResolver) (gateway.Engine, error) {
		return engine.New(sharedStore{st}, engine.Options{Config: cfg, Resolve: resolve, Readers: readers(),
			Vaults: vaultOpener(accountDir(dataDir, acct)), Account: acct}), nil
	}
	return gateway.New(o)
}

func (t team) Serve(ctx context.Context, o cli.ServeOptions) error {
	if t.remoteMode() {
		return errServeRemote
	}
	l, err := t.f.Config()
	if err != nil {
		return err
	}
	st, err := openTeamStore(ctx, t.f, o.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(t.f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := newGateway(st, l.Config, t.f.Paths().DataDir, gateway.Options{Logger: log, Version: t.f.Version.Version,
		Rate: o.RatePerSecond, Burst: o.Burst, MaxBody: o.MaxBodyBytes,
		WorkEvery: time.Duration(o.WorkEverySeconds) * time.Second, Timeout: time.Duration(o.TimeoutSeconds) * time.Second})
	defer srv.Close()
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return memory.Wrap(memory.CodeInvalid, "listen on "+o.Addr, err)
	}
	scheme := "http"
	if o.TLSCert != "" {
		scheme = "https"
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); scheme == "http" && !net.ParseIP(host).IsLoopback() {
		log.Warn("serving plain HTTP beyond this machine: tokens cross the network in clear; use --tls-cert/--tls-key or a TLS proxy (docs/gateway.md)")
	}
	fmt.Fprintf(o.Out, "cairn gateway on %s://%s (API /v1/, MCP /mcp, memory screen /ui/)\n", scheme, ln.Addr())
	hs := &http.Server{Handler: withUI(srv, gateway.Accounts{Store: st}, t.f.Version.Version, log), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	srv.Start(ctx)
	done := make(chan error, 1)
	go func() {
		if o.TLSCert != "" {
			done <- hs.ServeTLS(ln, o.TLSCert, o.TLSKey)
		} else {
			done <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return memory.Wrap(memory.CodeInternal, "serve", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := hs.Shutdown(sctx)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		return err
	}
}

// RefreshPlannerStats passes the background round's statistics refresh to
// a store that keeps planner statistics of its own (SQLite's).
func (s sharedStore) RefreshPlannerStats(ctx context.Context) error {
	if p, ok := s.teamStore.(engine.PlannerStats); ok {
		return p.RefreshPlannerStats(ctx)
	}
	return nil
}

package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/webui"
)

// withUI mounts the memory screen beside the gateway: /ui/ signs people in
// with their API token and shows their account through the gateway's own
// engines; everything else is the gateway.
func withUI(gw *gateway.Server, accts gateway.Accounts, version string, log *slog.Logger) http.Handler {
	ui := webui.New(webui.Options{Authenticate: accts.Authenticate, Logger: log, Version: version,
		Open: func(ctx context.Context, acct memory.AccountID) (webui.Engine, error) {
			e, err := gw.Engine(ctx, acct)
			if err != nil {
				return nil, err
			}
			we, ok := e.(webui.Engine)
			if !ok {
				return nil, memory.Errorf(memory.CodeInternal, "this account's engine (%T) cannot serve the memory screen", e)
			}
			return we, nil
		}})
	mux := http.NewServeMux()
	mux.Handle(webui.Prefix, ui.Handler())
	mux.Handle("/", gw.Handler())
	return mux
}

// linkTTL is how long a one-time sign-in link works.
const linkTTL = 10 * time.Minute

func (t team) UI(ctx context.Context, o cli.UIOptions) error {
	if t.remoteMode() {
		return memory.Errorf(memory.CodeInvalid, "CAIRN_URL is set: this machine's memory lives on the gateway; open %s/ui/ in a browser and sign in with your token",
			t.f.Getenv("CAIRN_URL"))
	}
	eng, err := t.f.Engine(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	log := slog.New(slog.NewTextHandler(t.f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ui := webui.New(webui.Options{Logger: log, Version: t.f.Version.Version,
		Open: func(_ context.Context, acct memory.AccountID) (webui.Engine, error) {
			if acct != memory.LocalAccount {
				return nil, memory.Errorf(memory.CodeUnauthorized, "this server shows this machine's memory only")
			}
			return eng, nil
		}})
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return memory.Wrap(memory.CodeInvalid, "listen on "+o.Addr, err)
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		log.Warn("the memory screen is reachable beyond this machine over plain HTTP; prefer 127.0.0.1")
	}
	link := "http://" + ln.Addr().String() + ui.LoginLink(memory.LocalAccount, "this machine", linkTTL)
	fmt.Fprintf(o.Out, "cairn memory screen: %s\nThe link signs one browser in, once, within %s. Ctrl-C stops the server.\n", link, linkTTL)
	if !o.NoOpen {
		openBrowser(link)
	}
	hs := &http.Server{Handler: ui.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return memory.Wrap(memory.CodeInternal, "serve the memory screen", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// openBrowser starts the desktop's browser on link when there is one; a
// machine without one still has the printed link.
func openBrowser(link string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", link)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", link)
	default:
		if _, err := exec.LookPath("xdg-open"); err != nil {
			return
		}
		cmd = exec.Command("xdg-open", link)
	}
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}

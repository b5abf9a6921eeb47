package resident

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSocketPathFitsTheKernel(t *testing.T) {
	short := SocketPath("/home/u/.local/share/cairn")
	if short != "/home/u/.local/share/cairn/run/hook.sock" {
		t.Fatalf("short data dir: %s", short)
	}
	long := "/" + strings.Repeat("deep/", 40) + "cairn"
	p := SocketPath(long)
	if len(p) > maxSocketPath || !strings.HasPrefix(p, os.TempDir()) {
		t.Fatalf("long data dir gave %s (%d bytes)", p, len(p))
	}
	if p == SocketPath(long+"2") {
		t.Fatal("two data dirs share a socket")
	}
}

func serve(t *testing.T, h Handler, opts Options) (string, chan error) {
	t.Helper()
	sock := SocketPath(t.TempDir())
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), l, h, opts) }()
	return sock, done
}

func TestServerAnswersAndStops(t *testing.T) {
	sock, done := serve(t, func(_ context.Context, r Request) (Answer, bool) {
		if r.Kind == Stop {
			return Answer{Code: Done}, true
		}
		return Answer{Code: Done, Stdout: append([]byte(strings.Join(r.Args, " ")+":"), r.Stdin...)}, false
	}, Options{})
	st, err := os.Stat(sock)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v mode %v", err, st)
	}
	if _, err := Listen(sock); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second server on the same dir: %v", err)
	}
	c, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Call(Request{Kind: Hook, Args: []string{"codex", "Stop"}, Stdin: []byte("payload")}, time.Minute)
	if err != nil || string(a.Stdout) != "codex Stop:payload" {
		t.Fatalf("answer %q, %v", a.Stdout, err)
	}
	c, _ = Dial(sock)
	if _, err := c.Call(Request{Kind: Stop}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatalf("the socket outlived its server: %v", err)
	}
	if _, err := Dial(sock); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("dial after stop: %v", err)
	}
	// The lock is free again: a new server may start.
	l, err := Listen(sock)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	l.Close()
}

func TestServerEndsWhenIdle(t *testing.T) {
	_, done := serve(t, func(context.Context, Request) (Answer, bool) { return Answer{}, false }, Options{Idle: 50 * time.Millisecond})
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("an idle server kept running")
	}
}

func TestServerDropsGarbage(t *testing.T) {
	var logged []error
	ch := make(chan struct{}, 1)
	sock, _ := serve(t, func(context.Context, Request) (Answer, bool) { return Answer{Code: Done}, false },
		Options{Log: func(err error) { logged = append(logged, err); ch <- struct{}{} }})
	c, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.c.Write([]byte("GET / HTTP/1.1\r\n\r\n"))
	_ = c.c.(interface{ CloseWrite() error }).CloseWrite()
	<-ch
	if len(logged) != 1 || !strings.Contains(logged[0].Error(), "not cairn's protocol") {
		t.Fatalf("logged %v", logged)
	}
	c.Close()
	if _, err := os.Stat(filepath.Dir(sock)); err != nil {
		t.Fatal(err)
	}
}

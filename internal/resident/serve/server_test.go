package serve

import (
	"context"
	"errors"
	"github.com/cairn-memory/cairn/internal/resident"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T, h Handler, opts Options) (string, chan error) {
	t.Helper()
	sock := resident.SocketPath(t.TempDir())
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), l, h, opts) }()
	return sock, done
}

func TestServerAnswersAndStops(t *testing.T) {
	sock, done := start(t, func(_ context.Context, r resident.Request) (resident.Answer, func(), bool) {
		if r.Kind == resident.Stop {
			return resident.Answer{Code: resident.Done}, nil, true
		}
		return resident.Answer{Code: resident.Done, Stdout: append([]byte(strings.Join(r.Args, " ")+":"), r.Stdin...)}, nil, false
	}, Options{})
	st, err := os.Stat(sock)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v mode %v", err, st)
	}
	if _, err := Listen(sock); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second server on the same dir: %v", err)
	}
	c, err := resident.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Call(resident.Request{Kind: resident.Hook, Args: []string{"codex", "resident.Stop"}, Stdin: []byte("payload")}, time.Minute)
	if err != nil || string(a.Stdout) != "codex resident.Stop:payload" {
		t.Fatalf("answer %q, %v", a.Stdout, err)
	}
	c, _ = resident.Dial(sock)
	if _, err := c.Call(resident.Request{Kind: resident.Stop}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatalf("the socket outlived its server: %v", err)
	}
	if _, err := resident.Dial(sock); !errors.Is(err, resident.ErrNotRunning) {
		t.Fatalf("dial after stop: %v", err)
	}
	// The lock is free again: a new server may start.
	l, err := Listen(sock)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	l.Close()
}

// What a handler leaves for after its answer runs once the caller has the
// answer: here it waits for the caller to say so, which would never happen
// if it ran first.
func TestServerRunsThenAfterAnswering(t *testing.T) {
	got := make(chan struct{})
	ran := make(chan struct{})
	sock, _ := start(t, func(context.Context, resident.Request) (resident.Answer, func(), bool) {
		return resident.Answer{Code: resident.Done, Stdout: []byte("block")}, func() {
			<-got
			close(ran)
		}, false
	}, Options{})
	c, err := resident.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Call(resident.Request{Kind: resident.Hook, Args: []string{"claude-code", "UserPromptSubmit"}}, 10*time.Second)
	if err != nil || string(a.Stdout) != "block" {
		t.Fatalf("answer %q, %v", a.Stdout, err)
	}
	close(got)
	select {
	case <-ran:
	case <-time.After(time.Minute):
		t.Fatal("the work left for after the answer never ran")
	}
}

func TestServerEndsWhenIdle(t *testing.T) {
	_, done := start(t, func(context.Context, resident.Request) (resident.Answer, func(), bool) {
		return resident.Answer{}, nil, false
	}, Options{Idle: 50 * time.Millisecond})
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
	sock, _ := start(t, func(context.Context, resident.Request) (resident.Answer, func(), bool) {
		return resident.Answer{Code: resident.Done}, nil, false
	},
		Options{Log: func(err error) { logged = append(logged, err); ch <- struct{}{} }})
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.Write([]byte("GET / HTTP/1.1\r\n\r\n"))
	_ = c.(*net.UnixConn).CloseWrite()
	<-ch
	if len(logged) != 1 || !strings.Contains(logged[0].Error(), "not cairn's protocol") {
		t.Fatalf("logged %v", logged)
	}
	c.Close()
	if _, err := os.Stat(filepath.Dir(sock)); err != nil {
		t.Fatal(err)
	}
}

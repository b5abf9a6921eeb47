package resident

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// listen is a bare Unix listener standing in for a server that misbehaves
// in ways the real one does not.
func listen(t *testing.T) (string, *net.UnixListener) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return sock, ln
}

func TestCallGivesUpAtItsDeadline(t *testing.T) {
	sock, ln := listen(t)
	held := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			_, _ = io.Copy(io.Discard, c) // reads the request, never answers
			held <- c
		}
	}()
	c, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	_, err = c.Call(Request{Kind: Status}, 150*time.Millisecond)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a server that never answers: %v, want a deadline error", err)
	}
	if waited := time.Since(t0); waited < 150*time.Millisecond {
		t.Fatalf("gave up after %s, before its deadline", waited)
	}
	(<-held).Close()
}

func TestCallSendsMoreThanTheSocketHolds(t *testing.T) {
	sock, ln := listen(t)
	// Larger than a Unix socket's send buffer, read slowly: the write
	// blocks and resumes rather than failing or cutting the request.
	stdin := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		time.Sleep(50 * time.Millisecond)
		r, err := ReadRequest(c)
		if err != nil {
			_ = WriteAnswer(c, Answer{Code: Failed, Message: err.Error()})
			return
		}
		_ = WriteAnswer(c, Answer{Code: Done, Stdout: r.Stdin[len(r.Stdin)-16:], Message: string(rune('0' + len(r.Stdin)>>20))})
	}()
	c, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Call(Request{Kind: Hook, Stdin: stdin}, time.Minute)
	if err != nil || a.Code != Done || string(a.Stdout) != "0123456789abcdef" || a.Message != "1" {
		t.Fatalf("answer %+v, %v", a, err)
	}
}

func TestCallSeesAServerThatHangsUp(t *testing.T) {
	sock, ln := listen(t)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(Request{Kind: Status}, time.Minute); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a server that hung up: %v, want a read error", err)
	}
}

func TestDialWithNoServer(t *testing.T) {
	if _, err := Dial(filepath.Join(t.TempDir(), "none.sock")); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("dial of a missing socket: %v", err)
	}
}

// Package serve is the resident hook server's side of the resident wire:
// it listens on the Unix socket, checks each caller, and hands requests to
// a handler. It is apart from the wire so that cairn-hook, which only
// dials, links no networking package (and so no C library: a static
// binary starts in about half the time here).
package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/filelock"
	"github.com/cairn-memory/cairn/internal/resident"
)

// ErrRunning: another server holds the data dir's lock.
var ErrRunning = errors.New("a resident server is already running")

// Listener is a server's socket and the lock that makes it the only one.
type Listener struct {
	ln     *net.UnixListener
	unlock func()
	path   string
}

// Listen takes the lock beside sock and listens there. The folder is made
// private to the user and the socket readable by the user only; on Linux
// each connection's peer is checked as well.
func Listen(sock string) (*Listener, error) {
	dir := filepath.Dir(sock)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, err
	}
	unlock, ok, err := filelock.Try(sock + ".lock")
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", sock+".lock", err)
	}
	if !ok {
		return nil, ErrRunning
	}
	// Holding the lock, any socket file left is a dead server's.
	_ = os.Remove(sock)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		unlock()
		return nil, err
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		unlock()
		return nil, err
	}
	return &Listener{ln: ln, unlock: unlock, path: sock}, nil
}

// Path is the socket's path.
func (l *Listener) Path() string { return l.path }

// Close removes the socket and releases the lock.
func (l *Listener) Close() error {
	err := l.ln.Close()
	l.unlock()
	return err
}

// Handler answers one request. then, when not nil, runs once the answer
// is sent (work the caller need not wait for); stop asks the server to
// exit once the answer is sent.
type Handler func(ctx context.Context, r resident.Request) (a resident.Answer, then func(), stop bool)

// Options tune Run.
type Options struct {
	// Idle ends the server after this long without a request (0: never).
	Idle time.Duration
	// ReadTimeout bounds reading a request once connected.
	ReadTimeout time.Duration
	// Log receives what went wrong with a connection; nil drops it.
	Log func(error)
}

// Run answers connections until ctx ends, the server has been idle for
// opts.Idle, or a handler asks it to stop. It closes l and waits for the
// requests in flight before it returns.
func Run(ctx context.Context, l *Listener, h Handler, opts Options) error {
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = 5 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		last = time.Now()
	)
	touch := func() { mu.Lock(); last = time.Now(); mu.Unlock() }
	go func() {
		<-ctx.Done()
		l.ln.Close()
	}()
	if opts.Idle > 0 {
		go func() {
			t := time.NewTicker(min(opts.Idle/4+time.Millisecond, 30*time.Second))
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					mu.Lock()
					idle := time.Since(last) >= opts.Idle
					mu.Unlock()
					if idle {
						cancel()
						return
					}
				}
			}
		}()
	}
	logf := func(err error) {
		if opts.Log != nil {
			opts.Log(err)
		}
	}
	var err error
	for {
		c, aerr := l.ln.AcceptUnix()
		if aerr != nil {
			if ctx.Err() == nil {
				err = aerr
			}
			break
		}
		touch()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			growStack()
			if perr := checkPeer(c); perr != nil {
				logf(perr)
				return
			}
			_ = c.SetReadDeadline(time.Now().Add(opts.ReadTimeout))
			r, rerr := resident.ReadRequest(c)
			if rerr != nil {
				logf(rerr)
				return
			}
			_ = c.SetReadDeadline(time.Time{})
			a, then, stop := h(ctx, r)
			touch()
			if werr := resident.WriteAnswer(c, a); werr != nil {
				logf(werr)
			}
			if then != nil {
				then()
			}
			if stop {
				cancel()
			}
		}()
	}
	cancel()
	wg.Wait()
	l.Close()
	return err
}

// handlerStack is the stack a handler's goroutine gets before it starts. A
// recall runs deep (SQLite's virtual machine is Go here), and a goroutine
// starting at 8 KiB copied its stack four or five times a request as it
// grew; grown in one step while still empty, nothing is copied.
const handlerStack = 128 << 10

// growStack needs a frame of handlerStack bytes, so the runtime sizes the
// stack for it at once.
//
//go:noinline
func growStack() {
	var frame [handlerStack]byte
	useFrame(frame[:])
}

// useFrame keeps the frame from being optimized away.
//
//go:noinline
func useFrame(b []byte) { b[0], b[len(b)-1] = 1, 1 }

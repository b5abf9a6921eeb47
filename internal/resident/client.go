package resident

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// ErrNotRunning: no server listens on the socket; nothing was sent.
var ErrNotRunning = errors.New("no resident server")

// Conn is a connection to a server, dialled before the request is ready so
// that a caller with no server can run the hook itself with its input
// untouched.
type Conn struct{ f *os.File }

// Dial connects to the server at sock. Any failure is ErrNotRunning: a
// missing socket, a stale one, or a server whose queue is full.
//
// It dials with syscall rather than package net: net pulls in the C
// resolver, so a binary that imports it links the C library dynamically,
// and cairn-hook's start cost doubled.
func Dial(sock string) (*Conn, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, ErrNotRunning
	}
	syscall.CloseOnExec(fd)
	// Non-blocking: a server that does not accept leaves the connect
	// pending (EAGAIN) instead of stalling the hook, and the file below
	// joins the runtime's poller, so deadlines work.
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, ErrNotRunning
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		syscall.Close(fd)
		return nil, ErrNotRunning
	}
	return &Conn{f: os.NewFile(uintptr(fd), sock)}, nil
}

// Call sends r and waits up to timeout for the answer, then closes the
// connection.
func (c *Conn) Call(r Request, timeout time.Duration) (Answer, error) {
	defer c.f.Close()
	if err := c.f.SetDeadline(time.Now().Add(timeout)); err != nil {
		return Answer{}, err
	}
	if err := WriteRequest(c.f, r); err != nil {
		return Answer{}, err
	}
	// The server reads the request to its end before it answers.
	if rc, err := c.f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _ = syscall.Shutdown(int(fd), syscall.SHUT_WR) })
	}
	return ReadAnswer(c.f)
}

// Close drops a connection that will not be used.
func (c *Conn) Close() error { return c.f.Close() }

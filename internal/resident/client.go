package resident

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// ErrNotRunning: no server listens on the socket; nothing was sent.
var ErrNotRunning = errors.New("no resident server")

// Conn is a connection to a server, dialled before the request is ready so
// that a caller with no server can run the hook itself with its input
// untouched.
//
// It is a bare blocking descriptor with kernel send and receive timeouts,
// not an *os.File: a file joins the runtime's poller, and making the poller
// (epoll, an eventfd, their registrations) and parking on it cost a hook
// process more than its whole exchange with the server.
type Conn struct{ fd int }

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
	// Non-blocking while connecting: a server that does not accept leaves
	// the connect pending (EAGAIN) instead of stalling the hook.
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, ErrNotRunning
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		syscall.Close(fd)
		return nil, ErrNotRunning
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, ErrNotRunning
	}
	return &Conn{fd: fd}, nil
}

// Call sends r and waits up to timeout for the answer, then closes the
// connection. A server that does not answer in time gives an error that
// is os.ErrDeadlineExceeded.
func (c *Conn) Call(r Request, timeout time.Duration) (Answer, error) {
	defer c.Close()
	s := &stream{fd: c.fd, deadline: time.Now().Add(timeout)}
	if err := WriteRequest(s, r); err != nil {
		return Answer{}, err
	}
	// The server reads the request to its end before it answers.
	_ = syscall.Shutdown(c.fd, syscall.SHUT_WR)
	return ReadAnswer(s)
}

// Close drops a connection that will not be used.
func (c *Conn) Close() error {
	if c.fd < 0 {
		return nil
	}
	err := syscall.Close(c.fd)
	c.fd = -1
	return err
}

// stream reads and writes a blocking socket until a deadline, which each
// call turns into the kernel's timeout for what is left of it.
type stream struct {
	fd       int
	deadline time.Time
}

func (s *stream) Read(p []byte) (int, error) {
	for {
		if err := s.arm(syscall.SO_RCVTIMEO); err != nil {
			return 0, err
		}
		n, err := syscall.Read(s.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, os.ErrDeadlineExceeded
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: "resident socket", Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (s *stream) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		if err := s.arm(syscall.SO_SNDTIMEO); err != nil {
			return done, err
		}
		n, err := syscall.Write(s.fd, p[done:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return done, os.ErrDeadlineExceeded
		case err != nil:
			return done, &os.PathError{Op: "write", Path: "resident socket", Err: err}
		}
		done += n
	}
	return done, nil
}

// arm sets the socket's timeout for opt to what is left before the
// deadline. A zero timeval means no timeout to the kernel, so what is left
// is at least a microsecond.
func (s *stream) arm(opt int) error {
	left := time.Until(s.deadline)
	if left <= 0 {
		return os.ErrDeadlineExceeded
	}
	tv := syscall.NsecToTimeval(max(left.Nanoseconds(), int64(time.Microsecond)))
	if err := syscall.SetsockoptTimeval(s.fd, syscall.SOL_SOCKET, opt, &tv); err != nil {
		return &os.PathError{Op: "set timeout", Path: "resident socket", Err: err}
	}
	return nil
}

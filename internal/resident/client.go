package resident

import (
	"errors"
	"net"
	"time"
)

// ErrNotRunning: no server listens on the socket; nothing was sent.
var ErrNotRunning = errors.New("no resident server")

// Conn is a connection to a server, dialled before the request is ready so
// that a caller with no server can run the hook itself with its input
// untouched.
type Conn struct{ c net.Conn }

// Dial connects to the server at sock. Any failure is ErrNotRunning: a
// missing socket, a stale one, or a server that does not accept in time.
func Dial(sock string) (*Conn, error) {
	c, err := net.DialTimeout("unix", sock, 200*time.Millisecond)
	if err != nil {
		return nil, ErrNotRunning
	}
	return &Conn{c: c}, nil
}

// Call sends r and waits up to timeout for the answer, then closes the
// connection.
func (c *Conn) Call(r Request, timeout time.Duration) (Answer, error) {
	defer c.c.Close()
	if err := c.c.SetDeadline(time.Now().Add(timeout)); err != nil {
		return Answer{}, err
	}
	if err := WriteRequest(c.c, r); err != nil {
		return Answer{}, err
	}
	if uc, ok := c.c.(*net.UnixConn); ok {
		_ = uc.CloseWrite()
	}
	return ReadAnswer(c.c)
}

// Close drops a connection that will not be used.
func (c *Conn) Close() error { return c.c.Close() }

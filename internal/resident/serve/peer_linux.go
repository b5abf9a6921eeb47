package serve

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// checkPeer refuses a connection from another user: the socket's mode
// already says so, and the kernel's word on the peer makes sure.
func checkPeer(c *net.UnixConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("resident peer: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("resident peer: refused uid %d", cred.Uid)
	}
	return nil
}

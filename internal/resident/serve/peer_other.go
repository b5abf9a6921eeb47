//go:build !linux

package serve

import "net"

// checkPeer relies on the socket's mode and its private folder where the
// kernel's peer credentials are not read.
func checkPeer(*net.UnixConn) error { return nil }

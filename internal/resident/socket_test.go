package resident

import (
	"os"
	"strings"
	"testing"
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

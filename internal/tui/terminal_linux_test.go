package tui_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// probeEnv makes the test binary exit as soon as every package's init has
// run (TestMain), so a test can watch what those inits do to a terminal.
const probeEnv = "CAIRN_TUI_INIT_ONLY"

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) == "1" {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestImportingTheTUIQueriesNoTerminal: every cairn command links this
// package, so no package it pulls in may talk to the terminal at init.
// bubbletea v1 did (OSC 11 and a cursor report from its init): each
// command then waited up to 5 s on a terminal that does not answer, and
// swallowed what the user typed meanwhile. The test binary, holding the
// same packages, runs on a pseudo-terminal and must write nothing.
func TestImportingTheTUIQueriesNoTerminal(t *testing.T) {
	master, slave := openPTY(t)
	cmd := exec.Command(os.Args[0])
	// A terminal that would be queried: no CI variable (termenv skips
	// queries under CI), an ordinary TERM, and the pty as the controlling
	// terminal of the child's own session, so it is in the foreground.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, "TERM=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, probeEnv+"=1", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		// Reading ends with EIO once the child has closed the terminal.
		_, _ = io.Copy(&out, master)
		close(read)
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the init-only run failed: %v\n%q", err, out.String())
	}
	<-read
	if out.Len() != 0 {
		t.Fatalf("package inits wrote to the terminal (a query, if it starts with ESC): %q", out.String())
	}
}

// openPTY opens a pseudo-terminal pair.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, slave
}

//go:debug updatemaxprocs=0
//go:debug decoratemappings=0

// Command cairn-hook is the small program the clients run for each hook.
// It hands the call to cairn's resident process over a Unix socket and
// prints its answer; with no resident process it runs `cairn hook` itself,
// which answers and starts one. It links only the standard library and
// cairn's wire package, so it starts in a few milliseconds where the full
// binary's package initialization alone takes tens.
//
// Its runtime skips what a one-shot process does not need: watching the
// cgroup's CPU limit for changes, and naming each memory mapping. Each
// costs system calls, and a system call or page fault costs microseconds
// on the virtual machines hooks often run on.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/cairn-memory/cairn/internal/paths"
	"github.com/cairn-memory/cairn/internal/resident"
)

// callTimeout is past `cairn hook`'s own 8 s bound: the process answers
// (with nothing, at worst) before it.
const callTimeout = 9 * time.Second

func main() {
	args := os.Args[1:]
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cairn-hook CLIENT EVENT [--session S] [--cwd DIR] [--prompt P]  (installed by `cairn setup`)")
		os.Exit(2)
	}
	dataDir := paths.Resolve("", os.Getenv).DataDir
	if residentAllowed(os.Getenv("CAIRN_HOOKS_RESIDENT")) {
		if conn, err := resident.Dial(resident.SocketPath(dataDir)); err == nil {
			os.Exit(viaResident(conn, args, dataDir))
		}
	}
	// No resident process: cairn answers itself, reading the untouched
	// input, and starts one for the next hook.
	runCairn(args, nil, dataDir)
}

// residentAllowed mirrors the config key's environment override; the
// config file's value needs no reading here, since with it off no resident
// process runs to be found.
func residentAllowed(v string) bool {
	switch v {
	case "false", "0", "off", "no":
		return false
	}
	return true
}

func viaResident(conn *resident.Conn, args []string, dataDir string) int {
	payload, err := io.ReadAll(os.Stdin)
	if err != nil {
		conn.Close()
		logf(dataDir, "hook %v: read the client's payload: %v", args, err)
		return 0
	}
	if len(payload) > resident.MaxMessage/2 {
		conn.Close()
		runCairn(args, payload, dataDir)
	}
	dir, _ := os.Getwd()
	a, err := conn.Call(resident.Request{Kind: resident.Hook, Exe: cairnPath(), Args: args, Env: os.Environ(), Dir: dir, Stdin: payload}, callTimeout)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The client is about to give up on this hook: asking again would
		// only make it wait longer.
		logf(dataDir, "hook %v: the resident process did not answer in %s", args, callTimeout)
		return 0
	case err != nil:
		// It went away mid-call (replaced, or stopped): answer here.
		runCairn(args, payload, dataDir)
	case a.Code == resident.Done:
		if _, err := os.Stdout.Write(a.Stdout); err != nil {
			logf(dataDir, "hook %v: write the answer: %v", args, err)
		}
	case a.Code == resident.RunYourself:
		runCairn(args, payload, dataDir)
	default:
		logf(dataDir, "hook %v: resident process: %s", args, a.Message)
	}
	return 0
}

// cairnPath is the full binary installed beside this one, else the one on
// PATH.
func cairnPath() string {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "cairn")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	if p, err := exec.LookPath("cairn"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	return ""
}

// runCairn becomes `cairn hook ARGS…`: in place when the input is
// untouched, as a child fed the payload already read otherwise. It does
// not return.
func runCairn(args []string, payload []byte, dataDir string) {
	exe := cairnPath()
	if exe == "" {
		logf(dataDir, "hook %v: no cairn binary beside cairn-hook or on PATH", args)
		os.Exit(0)
	}
	argv := append([]string{exe, "hook"}, args...)
	if payload == nil {
		err := syscall.Exec(exe, argv, os.Environ())
		logf(dataDir, "hook %v: run %s: %v", args, exe, err)
		os.Exit(0)
	}
	cmd := exec.Command(exe, argv[1:]...)
	// The resident process sent this call back: cairn is not to ask it
	// again.
	cmd.Env = append(os.Environ(), "CAIRN_HOOK_HERE=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(payload), os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		logf(dataDir, "hook %v: run %s: %v", args, exe, err)
	}
	os.Exit(0)
}

// logf leaves a line in the hooks' log, as cairn does for a hook's
// internal error; the client and the model see nothing.
func logf(dataDir, format string, a ...any) {
	dir := filepath.Join(dataDir, "logs")
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "hooks.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s error: cairn-hook: %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, a...))
}

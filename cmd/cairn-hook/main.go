//go:debug updatemaxprocs=0
//go:debug decoratemappings=0

// Command cairn-hook is the small program the clients run for each hook.
// It hands the call to cairn's resident process over a Unix socket and
// prints its answer; with no resident process it runs `cairn hook` itself,
// which answers and starts one. It links only the standard library and
// cairn's wire package, so it starts in a few milliseconds where the full
// binary's package initialization alone takes tens. Nor does it link fmt,
// os/exec or encoding/binary (nor, through them, reflect): their
// initialization was a tenth of its start.
//
// Its runtime skips what a one-shot process does not need: watching the
// cgroup's CPU limit for changes, and naming each memory mapping. Each
// costs system calls, and a system call or page fault costs microseconds
// on the virtual machines hooks often run on.
package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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
		os.Stderr.WriteString("usage: cairn-hook CLIENT EVENT [--session S] [--cwd DIR] [--prompt P]  (installed by `cairn setup`)\n")
		os.Exit(2)
	}
	dataDir := paths.Resolve("", os.Getenv).DataDir
	if !residentAllowed(os.Getenv("CAIRN_HOOKS_RESIDENT")) {
		runCairn(args, nil, dataDir, false)
	}
	// The request is whole before the socket is dialled: the resident
	// process then finds it waiting when it accepts, where a connection
	// made first had it wake once to accept and again for the request.
	// With no resident process, cairn answers in a child fed the payload
	// and starts one for the next hook.
	payload, err := io.ReadAll(os.Stdin)
	if err != nil {
		logLine(dataDir, args, "read the client's payload: "+err.Error())
		os.Exit(0)
	}
	if len(payload) > resident.MaxMessage/2 {
		runCairn(args, payload, dataDir, true)
	}
	dir, _ := os.Getwd()
	req := resident.Request{Kind: resident.Hook, Exe: cairnPath(), Args: args, Env: os.Environ(), Dir: dir, Stdin: payload}
	conn, err := resident.Dial(resident.SocketPath(dataDir))
	if err != nil {
		runCairn(args, payload, dataDir, false)
	}
	os.Exit(viaResident(conn, req, dataDir))
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

func viaResident(conn *resident.Conn, req resident.Request, dataDir string) int {
	args := req.Args
	a, err := conn.Call(req, callTimeout)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The client is about to give up on this hook: asking again would
		// only make it wait longer.
		logLine(dataDir, args, "the resident process did not answer in "+callTimeout.String())
		return 0
	case err != nil:
		// It went away mid-call (replaced, or stopped): answer here.
		runCairn(args, req.Stdin, dataDir, true)
	case a.Code == resident.Done:
		if _, err := os.Stdout.Write(a.Stdout); err != nil {
			logLine(dataDir, args, "write the answer: "+err.Error())
		}
	case a.Code == resident.RunYourself:
		runCairn(args, req.Stdin, dataDir, true)
	default:
		logLine(dataDir, args, "resident process: "+a.Message)
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
	return lookPath("cairn", os.Getenv("PATH"))
}

// lookPath finds an executable file named name in the directories of
// path, as a shell would; "" when none holds one.
func lookPath(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}

// runCairn becomes `cairn hook ARGS…`: in place when the input is
// untouched, as a child fed the payload already read otherwise. here tells
// the child the resident process sent the call back, so it answers without
// asking again; a child not told so starts a resident process when none
// runs. It does not return.
func runCairn(args []string, payload []byte, dataDir string, here bool) {
	exe := cairnPath()
	if exe == "" {
		logLine(dataDir, args, "no cairn binary beside cairn-hook or on PATH")
		os.Exit(0)
	}
	argv := append([]string{exe, "hook"}, args...)
	env := cairnEnv(os.Environ())
	if payload == nil {
		err := syscall.Exec(exe, argv, env)
		logLine(dataDir, args, "run "+exe+": "+err.Error())
		os.Exit(0)
	}
	if here {
		env = append(env, "CAIRN_HOOK_HERE=1")
	}
	if err := runWith(exe, argv, env, payload); err != nil {
		logLine(dataDir, args, "run "+exe+": "+err.Error())
	}
	os.Exit(0)
}

// cairnEnv is env for a cairn this process starts: without GOMAXPROCS,
// which setup sets for cairn-hook alone (setup.HookClientEnv). A hook
// process of cairn's own answers faster on every processor, and the
// resident process and background work it may start would inherit one.
func cairnEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			out = append(out, kv)
		}
	}
	return out
}

// runWith runs exe as a child with env, reading payload on its standard
// input and writing to this process's output, and waits for it.
func runWith(exe string, argv, env []string, payload []byte) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	p, err := os.StartProcess(exe, argv, &os.ProcAttr{
		Env:   env,
		Files: []*os.File{r, os.Stdout, os.Stderr},
	})
	r.Close()
	if err != nil {
		w.Close()
		return err
	}
	// A child that stops reading early (it failed) closes the pipe: the
	// write's error is the child's to report, in its exit status.
	_, _ = w.Write(payload)
	w.Close()
	st, err := p.Wait()
	if err != nil {
		return err
	}
	if !st.Success() {
		return errors.New(st.String())
	}
	return nil
}

// logLine leaves a line in the hooks' log, as cairn does for a hook's
// internal error; the client and the model see nothing.
func logLine(dataDir string, args []string, msg string) {
	dir := filepath.Join(dataDir, "logs")
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "hooks.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	f.WriteString(time.Now().UTC().Format(time.RFC3339) + " error: cairn-hook: hook [" + strings.Join(args, " ") + "]: " + msg + "\n")
}

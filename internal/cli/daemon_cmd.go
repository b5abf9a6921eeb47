package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/resident"
	"github.com/cairn-memory/cairn/internal/resident/serve"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newDaemonCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "daemon",
		Short: "The resident process that answers hooks (started by the first hook; see hooks.resident)",
		Long: `A hook that opens the store, reads it cold and closes it costs tens of
milliseconds on every prompt. With hooks.resident on (the default), the
first hook with no resident process answers itself and starts one; later
hooks hand their call to it over a Unix socket readable by you alone
(` + "`cairn-hook`" + ` is the small client the clients run). It exits after
hooks.resident_idle without a hook, and as soon as the cairn binary, the
config file or the store is replaced.`,
	}
	run := &cobra.Command{
		Use:   "run",
		Short: "Run the resident process in the foreground",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return f.runDaemon(cmd.Context()) },
	}
	var asJSON bool
	status := &cobra.Command{
		Use:   "status",
		Short: "Say whether a resident process runs, and what it has served",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			a, err := f.callDaemon(resident.Status)
			if errors.Is(err, resident.ErrNotRunning) {
				if asJSON {
					return printJSON(f.IO.Out, DaemonStatus{Running: false, Socket: residentSocket(f)})
				}
				fmt.Fprintln(f.IO.Out, "no resident process: the next hook starts one (hooks.resident)")
				return nil
			} else if err != nil {
				return err
			}
			var s DaemonStatus
			if err := json.Unmarshal(a.Stdout, &s); err != nil {
				return fmt.Errorf("resident status: %w", err)
			}
			if asJSON {
				return printJSON(f.IO.Out, s)
			}
			fmt.Fprintf(f.IO.Out, "resident process %d on %s since %s: %d hooks served, %d sent back\n",
				s.PID, s.Socket, s.Started.Format(time.RFC3339), s.Served, s.SentBack)
			if s.Recent > 0 {
				fmt.Fprintf(f.IO.Out, "answered the last %d in %.1f ms (p50), %.1f ms (p95)\n", s.Recent, s.AnswerP50Ms, s.AnswerP95Ms)
			}
			return nil
		},
	}
	addJSONFlag(status, &asJSON)
	stop := &cobra.Command{
		Use:   "stop",
		Short: "Stop the resident process (the next hook starts a new one)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := f.callDaemon(resident.Stop)
			if errors.Is(err, resident.ErrNotRunning) {
				fmt.Fprintln(f.IO.Out, "no resident process")
				return nil
			} else if err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, "stopped")
			return nil
		},
	}
	cmd.AddCommand(run, status, stop)
	return cmd
}

// DaemonStatus is what `cairn daemon status --json` prints.
type DaemonStatus struct {
	Running  bool      `json:"running"`
	PID      int       `json:"pid,omitempty"`
	Socket   string    `json:"socket"`
	Started  time.Time `json:"started,omitzero"`
	Served   int64     `json:"served"`
	SentBack int64     `json:"sent_back"`
	Idle     string    `json:"idle_exit,omitempty"`
	// Recent hooks answered, and how long the process took over them
	// (from the request read to the answer ready): a hook's cost apart
	// from its client's start and exit.
	Recent      int     `json:"recent_answers,omitempty"`
	AnswerP50Ms float64 `json:"answer_p50_ms,omitempty"`
	AnswerP95Ms float64 `json:"answer_p95_ms,omitempty"`
	// Procs is the process's GOMAXPROCS: 1 unless the user set one.
	Procs int `json:"procs,omitempty"`
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func residentSocket(f *Factory) string { return resident.SocketPath(f.Paths().DataDir) }

func (f *Factory) callDaemon(k resident.Kind) (resident.Answer, error) {
	conn, err := resident.Dial(residentSocket(f))
	if err != nil {
		return resident.Answer{}, err
	}
	return conn.Call(resident.Request{Kind: k}, 10*time.Second)
}

// startResident starts a resident process for the next hook, at most
// once in 30 seconds: a process that cannot start must not cost every
// hook a spawn.
func (f *Factory) startResident() {
	sock := resident.SocketPath(f.Paths().DataDir)
	stamp := sock + ".started"
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < 30*time.Second {
		return
	}
	if err := os.MkdirAll(filepath.Dir(stamp), 0o700); err != nil {
		f.LogHook(err)
		return
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		f.LogHook(err)
		return
	}
	now := time.Now()
	_ = os.Chtimes(stamp, now, now)
	if err := f.Spawn("daemon", "run"); err != nil {
		f.LogHook(fmt.Errorf("start the resident process: %w", err))
	}
}

// daemon is the resident process: one engine, kept open, answering the
// hooks of the clients of this data dir.
type daemon struct {
	f       *Factory
	cfg     config.Config
	eng     *engine.Engine // nil in remote mode
	exe     string
	exeInfo os.FileInfo
	cfgInfo os.FileInfo // nil when there is no config file
	dbInfo  os.FileInfo
	env     map[string]string
	started time.Time
	sock    string
	// gc collects between answers (nil: the user set GOGC or GOMEMLIMIT).
	gc *idleGC

	served, sentBack atomic.Int64
	answers          latencyWindow
	slots            chan struct{}
	workMu           sync.Mutex
	workChecked      time.Time
}

func (f *Factory) runDaemon(ctx context.Context) error {
	l, err := f.Config()
	if err != nil {
		return err
	}
	if !l.Config.Hooks.Resident {
		return memory.Errorf(memory.CodeInvalid, "hooks.resident is off: hooks answer themselves")
	}
	f.Hook = true
	// One processor: a hook's work is one goroutine at a time, and with
	// more the runtime woke another thread, on another core, for every
	// short-lived helper goroutine a query starts (modernc's interrupt
	// watcher, database/sql's): at 1M parts an answer took 3.8 ms p50 on
	// one against 4.9–5.8 on two (BENCHMARKS.md, hook, tenth pass). A
	// GOMAXPROCS the user set is kept.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	p := f.Paths()
	d := &daemon{f: f, cfg: l.Config, started: time.Now(), slots: make(chan struct{}, 4), sock: resident.SocketPath(p.DataDir), gc: newIdleGC()}
	if d.exe, err = os.Executable(); err != nil {
		return err
	}
	if d.exeInfo, err = os.Stat(d.exe); err != nil {
		return err
	}
	d.cfgInfo, _ = os.Stat(p.ConfigFile)
	d.env = d.relevantEnv(os.Environ())
	ln, err := serve.Listen(d.sock)
	if errors.Is(err, serve.ErrRunning) {
		fmt.Fprintln(f.IO.Out, "a resident process already runs for", p.DataDir)
		return nil
	} else if err != nil {
		return err
	}
	if rc, err := f.remote(); err != nil {
		ln.Close()
		return err
	} else if rc != nil {
		rc.Close()
	} else {
		if d.eng, err = f.Engine(ctx); err != nil {
			ln.Close()
			return err
		}
		defer d.eng.Close()
		if d.dbInfo, err = os.Stat(p.DB); err != nil {
			ln.Close()
			return err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A replaced binary, config or store ends the process promptly, even
	// with no hook to notice it: the next hook starts a fresh one.
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if why := d.stale(); why != "" {
					cancel()
					return
				}
			}
		}
	}()
	return serve.Run(ctx, ln, d.handle, serve.Options{Idle: l.Config.Hooks.Idle.D(), Log: f.LogHook})
}

// stale says why this process no longer matches what a hook would load,
// or "".
func (d *daemon) stale() string {
	if st, err := os.Stat(d.exe); err != nil || !os.SameFile(st, d.exeInfo) || st.ModTime() != d.exeInfo.ModTime() || st.Size() != d.exeInfo.Size() {
		return "the cairn binary changed"
	}
	st, err := os.Stat(d.f.Paths().ConfigFile)
	switch {
	case (err == nil) != (d.cfgInfo != nil):
		return "the config file appeared or went away"
	case err == nil && (st.ModTime() != d.cfgInfo.ModTime() || st.Size() != d.cfgInfo.Size()):
		return "the config file changed"
	}
	if d.dbInfo != nil {
		if st, err := os.Stat(d.f.Paths().DB); err != nil || !os.SameFile(st, d.dbInfo) {
			return "the store was removed or replaced"
		}
	}
	return ""
}

// relevantEnv is the part of an environment that changes what a hook
// loads: cairn's own variables (the per-call preset aside), the data and
// config locations, and the model keys the configuration names.
func (d *daemon) relevantEnv(env []string) map[string]string {
	keys := map[string]bool{"HOME": true, "XDG_DATA_HOME": true, "XDG_CONFIG_HOME": true,
		d.cfg.Models.OpenAIKeyEnv: true, d.cfg.Models.AnthropicEnv: true, d.cfg.Embeddings.KeyEnv: true}
	out := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "CAIRN_PRESET", "CAIRN_ONESHOT", "CAIRN_HOOK_HERE", "CAIRN_HOOKS_RESIDENT", "CAIRN_HOOKS_RESIDENT_IDLE":
			// Per call, or about this process itself: they change no answer.
			continue
		}
		if keys[k] || strings.HasPrefix(k, "CAIRN_") {
			out[k] = v
		}
	}
	return out
}

// envDiffers names the first variable in which a caller's environment
// differs from the process's own, or "".
func (d *daemon) envDiffers(env []string) string {
	theirs := d.relevantEnv(env)
	for k, v := range d.env {
		if w, ok := theirs[k]; !ok || w != v {
			return k
		}
	}
	for k := range theirs {
		if _, ok := d.env[k]; !ok {
			return k
		}
	}
	return ""
}

func (d *daemon) handle(ctx context.Context, r resident.Request) (resident.Answer, func(), bool) {
	switch r.Kind {
	case resident.Status:
		n, p50, p95 := d.answers.percentiles()
		b, _ := json.Marshal(DaemonStatus{Running: true, PID: os.Getpid(), Socket: d.sock, Started: d.started,
			Served: d.served.Load(), SentBack: d.sentBack.Load(), Idle: d.cfg.Hooks.Idle.String(),
			Recent: n, AnswerP50Ms: millis(p50), AnswerP95Ms: millis(p95), Procs: runtime.GOMAXPROCS(0)})
		return resident.Answer{Code: resident.Done, Stdout: b}, nil, false
	case resident.Stop:
		return resident.Answer{Code: resident.Done}, nil, true
	}
	back := func(why string, stop bool) (resident.Answer, func(), bool) {
		d.sentBack.Add(1)
		return resident.Answer{Code: resident.RunYourself, Message: why}, nil, stop
	}
	t0 := time.Now()
	if why := d.stale(); why != "" {
		return back(why, true)
	}
	if st, err := os.Stat(r.Exe); err != nil || !os.SameFile(st, d.exeInfo) {
		return back("this process runs "+d.exe+", not "+r.Exe, false)
	}
	if k := d.envDiffers(r.Env); k != "" {
		return back("the caller's environment differs in "+k, false)
	}
	fs := pflag.NewFlagSet("hook", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addHookFlags(fs)
	if err := fs.Parse(r.Args); err != nil || fs.NArg() != 2 {
		return resident.Answer{Code: resident.Failed, Message: fmt.Sprintf("hook arguments %q: want CLIENT EVENT [--session S] [--cwd D] [--prompt P]", r.Args)}, nil, false
	}
	c, err := parseHookCall(fs.Args(), fs)
	if err != nil {
		return resident.Answer{Code: resident.Failed, Message: err.Error()}, nil, false
	}
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return back("shutting down", false)
	}
	// Receipts wait until the answer is sent; the slot is held until they
	// are written.
	var saves []func() error
	then := func() {
		defer func() { <-d.slots }()
		for _, save := range saves {
			if err := save(); err != nil {
				d.f.LogHook(fmt.Errorf("hook %s %s: %w", c.client, c.event, err))
			}
		}
		d.workDue(ctx)
		d.gc.afterAnswer()
	}
	d.served.Add(1)
	env := map[string]string{}
	for _, kv := range r.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	var out bytes.Buffer
	c.in, c.out, c.dir = bytes.NewReader(r.Stdin), &out, r.Dir
	c.getenv = func(k string) string { return env[k] }
	c.later = func(save func() error) { saves = append(saves, save) }
	hctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	if err := d.f.runHook(hctx, c, d.eng); err != nil {
		d.f.LogHook(fmt.Errorf("hook %s %s: %w", c.client, c.event, err))
		out.Reset()
	}
	d.answers.add(time.Since(t0))
	return resident.Answer{Code: resident.Done, Stdout: out.Bytes()}, then, false
}

// workDue does what opening the store does for a hook process: when
// background work is due, a detached `cairn worker --once` runs it. The
// check runs at most once a minute.
func (d *daemon) workDue(ctx context.Context) {
	if d.eng == nil {
		return
	}
	d.workMu.Lock()
	defer d.workMu.Unlock()
	if time.Since(d.workChecked) < time.Minute {
		return
	}
	d.workChecked = time.Now()
	if due, err := d.eng.WorkDue(ctx); err == nil && due {
		if err := d.f.StartWorker(); err != nil {
			d.f.LogHook(err)
		}
	}
}

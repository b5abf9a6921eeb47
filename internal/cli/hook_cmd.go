package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/hook"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/resident"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// hookTimeout bounds a hook: past it the client would have given up, and
// the prompt must never wait on memory.
const hookTimeout = 8 * time.Second

// hookCall is one hook call: the client, the event, the OpenCode plugin's
// flags, and where its input comes from and its output goes.
type hookCall struct {
	provider             memory.Provider
	client, event        string
	session, cwd, prompt string
	in                   io.Reader
	out                  io.Writer
	getenv               func(string) string
	dir                  string // the caller's working directory
	// later takes a block's receipt write to run once the answer is sent
	// (the resident process); nil writes it before answering.
	later func(save func() error)
}

func newHookCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook CLIENT EVENT",
		Short: "Answer a client's hook (installed by `cairn setup`; reads the client's JSON on stdin)",
		Long: `hook is what the clients call: Claude Code (SessionStart, UserPromptSubmit,
Stop, SessionEnd), Codex (SessionStart, UserPromptSubmit, Stop) and cairn's
OpenCode plugin (system, idle). A hook never blocks or alters the prompt:
on any internal error it prints nothing, logs the error under the data
dir, and exits 0.

With hooks.resident on (the default) a hook hands its call to cairn's
resident process (` + "`cairn daemon`" + `), which keeps the store open; the first
hook with none running answers itself and starts one.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), hookTimeout)
			defer cancel()
			dir, _ := os.Getwd()
			c, err := parseHookCall(args, cmd.Flags())
			if err == nil {
				c.in, c.out, c.getenv, c.dir = f.IO.In, f.IO.Out, f.Getenv, dir
				err = f.hookOrForward(ctx, c, cmd.Flags())
			}
			if err != nil {
				// Say nothing to the model; leave a trace for the user.
				f.LogHook(fmt.Errorf("hook %s: %w", hookName(args), err))
			}
			return nil
		},
	}
	addHookFlags(cmd.Flags())
	return cmd
}

func addHookFlags(fs *pflag.FlagSet) {
	fs.String("session", "", "the session id (OpenCode plugin calls)")
	fs.String("cwd", "", "the session's directory (OpenCode plugin calls)")
	fs.String("prompt", "", "the latest request (OpenCode plugin calls)")
}

func hookName(args []string) string {
	if len(args) >= 2 {
		return args[0] + " " + args[1]
	}
	return fmt.Sprint(args)
}

// parseHookCall reads CLIENT EVENT and the plugin's flags.
func parseHookCall(args []string, fs *pflag.FlagSet) (hookCall, error) {
	c := hookCall{client: args[0], event: args[1]}
	switch c.client {
	case "claude-code", "claude":
		c.provider = memory.ProviderClaudeCode
	case "codex":
		c.provider = memory.ProviderCodex
	case "opencode":
		c.provider = memory.ProviderOpenCode
	default:
		return c, memory.Errorf(memory.CodeInvalid, "unknown client %q: use claude-code, codex or opencode", c.client)
	}
	c.session, _ = fs.GetString("session")
	c.cwd, _ = fs.GetString("cwd")
	c.prompt, _ = fs.GetString("prompt")
	return c, nil
}

// hookOrForward hands the call to the resident process when one runs,
// answers it here otherwise, and then starts one for the next hook.
func (f *Factory) hookOrForward(ctx context.Context, c hookCall, fs *pflag.FlagSet) error {
	l, err := f.Config()
	if err != nil {
		return err
	}
	// CAIRN_HOOK_HERE: cairn-hook asked the resident process, which sent
	// the call back.
	if !l.Config.Hooks.Resident || f.Getenv("CAIRN_HOOK_HERE") == "1" {
		return f.runHook(ctx, c, nil)
	}
	sock := resident.SocketPath(f.Paths().DataDir)
	if conn, err := resident.Dial(sock); err == nil {
		payload, err := io.ReadAll(c.in)
		if err != nil {
			conn.Close()
			return fmt.Errorf("read the client's payload: %w", err)
		}
		exe, _ := os.Executable()
		args := []string{c.client, c.event}
		fs.Visit(func(fl *pflag.Flag) { args = append(args, "--"+fl.Name+"="+fl.Value.String()) })
		a, err := conn.Call(resident.Request{Kind: resident.Hook, Exe: exe, Args: args, Env: os.Environ(), Dir: c.dir, Stdin: payload}, hookTimeout)
		switch {
		case err != nil:
			return fmt.Errorf("resident process: %w", err)
		case a.Code == resident.Done:
			_, err = c.out.Write(a.Stdout)
			return err
		case a.Code == resident.Failed:
			return fmt.Errorf("resident process: %s", a.Message)
		}
		// It will not serve this call: answer it here.
		c.in = bytes.NewReader(payload)
		return f.runHook(ctx, c, nil)
	}
	err = f.runHook(ctx, c, nil)
	f.startResident()
	return err
}

// runHook answers one call. eng is the resident process's engine, nil in
// a hook process of its own, which opens the store for this call only.
func (f *Factory) runHook(ctx context.Context, c hookCall, eng *engine.Engine) error {
	if !f.Hook { // the resident process set it once, before serving
		f.Hook = true // maintenance goes to a detached process
	}
	l, err := f.Config()
	if err != nil {
		return err
	}
	d := hook.Deps{Spawn: f.Spawn, Getenv: c.getenv, EveryPrompt: l.Recall.EveryPrompt, Log: f.LogHook, Later: c.later}
	// Remote mode: the gateway recalls and imports (each upload of the
	// turn's transcript, at Stop, carries the session); a gateway that
	// does not answer within the hook's deadline costs the prompt nothing.
	// Only OpenCode's idle still spawns: a detached `cairn import` exports
	// the session and uploads it.
	if rc, err := f.remote(); err != nil {
		return err
	} else if rc != nil {
		defer rc.Close()
		d.Engine = rc
		if c.provider != memory.ProviderOpenCode {
			d.Spawn = nil
		}
	} else if eng != nil {
		d.Engine = eng
	} else {
		own, err := f.Engine(ctx)
		if err != nil {
			return err
		}
		defer own.Close()
		d.Engine = own
	}
	if c.provider == memory.ProviderOpenCode {
		cwd := c.cwd
		if cwd == "" {
			cwd = c.dir
		}
		return hook.RunOpenCode(ctx, c.event, c.session, cwd, c.prompt, c.out, d)
	}
	in, err := hook.ReadInput(c.in)
	if err != nil {
		return fmt.Errorf("read the client's payload: %w", err)
	}
	return hook.Run(ctx, c.provider, c.event, in, c.out, d)
}

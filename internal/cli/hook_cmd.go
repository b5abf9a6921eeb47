package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-memory/cairn/internal/hook"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

// hookTimeout bounds a hook: past it the client would have given up, and
// the prompt must never wait on memory.
const hookTimeout = 8 * time.Second

func newHookCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook CLIENT EVENT",
		Short: "Answer a client's hook (installed by `cairn setup`; reads the client's JSON on stdin)",
		Long: `hook is what the clients call: Claude Code (SessionStart, UserPromptSubmit,
Stop, SessionEnd), Codex (SessionStart, UserPromptSubmit, Stop) and cairn's
OpenCode plugin (system, idle). A hook never blocks or alters the prompt:
on any internal error it prints nothing, logs the error under the data
dir, and exits 0.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, event := args[0], args[1]
			var provider memory.Provider
			switch client {
			case "claude-code", "claude":
				provider = memory.ProviderClaudeCode
			case "codex":
				provider = memory.ProviderCodex
			case "opencode":
				provider = memory.ProviderOpenCode
			default:
				return memory.Errorf(memory.CodeInvalid, "unknown client %q: use claude-code, codex or opencode", client)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), hookTimeout)
			defer cancel()
			if err := runHook(ctx, f, provider, event, cmd); err != nil {
				// Say nothing to the model; leave a trace for the user.
				f.LogHook(fmt.Errorf("hook %s %s: %w", client, event, err))
			}
			return nil
		},
	}
	cmd.Flags().String("session", "", "the session id (OpenCode plugin calls)")
	cmd.Flags().String("cwd", "", "the session's directory (OpenCode plugin calls)")
	cmd.Flags().String("prompt", "", "the latest request (OpenCode plugin calls)")
	return cmd
}

func runHook(ctx context.Context, f *Factory, provider memory.Provider, event string, cmd *cobra.Command) error {
	f.Hook = true // maintenance goes to a detached process
	l, err := f.Config()
	if err != nil {
		return err
	}
	d := hook.Deps{Spawn: f.Spawn, Getenv: f.Getenv, EveryPrompt: l.Recall.EveryPrompt, Log: f.LogHook}
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
		if provider != memory.ProviderOpenCode {
			d.Spawn = nil
		}
	} else {
		eng, err := f.Engine(ctx)
		if err != nil {
			return err
		}
		defer eng.Close()
		d.Engine = eng
	}
	if provider == memory.ProviderOpenCode {
		session, _ := cmd.Flags().GetString("session")
		cwd, _ := cmd.Flags().GetString("cwd")
		prompt, _ := cmd.Flags().GetString("prompt")
		return hook.RunOpenCode(ctx, event, session, cwdOr(cwd), prompt, f.IO.Out, d)
	}
	in, err := hook.ReadInput(f.IO.In)
	if err != nil {
		return fmt.Errorf("read the client's payload: %w", err)
	}
	return hook.Run(ctx, provider, event, in, f.IO.Out, d)
}

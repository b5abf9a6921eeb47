package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

// Engine is what the hooks need from the engine.
type Engine interface {
	Standing(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error)
	Recall(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error)
	Receipts(ctx context.Context, provider memory.Provider, session string, limit int) ([]memory.Receipt, error)
	Import(ctx context.Context, req engine.ImportRequest) ([]engine.SourceReport, error)
}

// Deps are a hook's surroundings.
type Deps struct {
	Engine Engine
	// Spawn starts a detached cairn process with these arguments and
	// returns at once.
	Spawn func(args ...string) error
	// Getenv reads the client's environment (CAIRN_PRESET, …).
	Getenv func(string) string
	// EveryPrompt recalls on every prompt instead of the first only.
	EveryPrompt bool
	// Log records what went wrong without costing the client its block
	// (a receipt not saved); nil drops it.
	Log func(error)
	// Later takes a block's receipt write to run after the answer is sent
	// (engine.RecallRequest.Later); nil writes it first.
	Later func(save func() error)
}

// note logs a block's unsaved receipt.
func (d Deps) note(res engine.RecallResult) {
	if res.ReceiptError != "" && d.Log != nil {
		d.Log(errors.New(res.ReceiptError))
	}
}

// Run handles one hook call of a client. Output goes to out in the form
// the client expects; nothing is written on failure.
func Run(ctx context.Context, client memory.Provider, event string, in Input, out io.Writer, d Deps) error {
	if in.Cwd == "" {
		return fmt.Errorf("hook %s %s: the payload names no cwd", client, event)
	}
	base := engine.RecallRequest{
		Cwd: in.Cwd, Provider: client, Session: in.SessionID, Preset: d.Getenv("CAIRN_PRESET"),
		Subagent: in.AgentID != "", OneShot: oneShot(client, d.Getenv), Channel: recall.HookContext, Later: d.Later,
	}
	switch event {
	case "SessionStart":
		base.Start = true
		res, err := d.Engine.Standing(ctx, base)
		if err != nil {
			return err
		}
		d.note(res)
		return writeContext(out, event, res.Block.Text)
	case "UserPromptSubmit":
		if strings.TrimSpace(in.Prompt) == "" {
			return nil
		}
		base.Query = in.Prompt
		res, skip, err := recallPrompt(ctx, d.Engine, base, !d.EveryPrompt && in.SessionID != "")
		if err != nil || skip {
			return err
		}
		d.note(res)
		return writeContext(out, event, res.Block.Text)
	case "Stop", "SubagentStop":
		if in.TranscriptPath == "" {
			return nil
		}
		// The finished turn is captured now, with the answer the client
		// reports (its transcript may not hold it yet).
		_, err := d.Engine.Import(ctx, engine.ImportRequest{Provider: client, Paths: []string{in.TranscriptPath},
			LastAnswer: in.LastAnswer, Session: in.SessionID, Force: true})
		return err
	case "SessionEnd":
		if in.TranscriptPath == "" || d.Spawn == nil {
			return nil
		}
		// The client gives every SessionEnd hook 1.5 s in all: import in a
		// detached process and return at once.
		return d.Spawn("import", "--"+string(client)+"="+in.TranscriptPath)
	}
	return nil
}

// recallPrompt recalls for a prompt. With firstOnly, a session that
// already had a block gets none (skip).
func recallPrompt(ctx context.Context, e Engine, req engine.RecallRequest, firstOnly bool) (res engine.RecallResult, skip bool, err error) {
	if firstOnly {
		if fr, ok := e.(firstRecaller); ok {
			return fr.RecallFirst(ctx, req)
		}
		if done, err := recalledBefore(ctx, e, req.Provider, req.Session); err != nil || done {
			return res, true, err
		}
	}
	res, err = e.Recall(ctx, req)
	return res, false, err
}

// firstRecaller is an Engine that tells a session's first request from
// later ones in the read it recalls with (the local engine; a gateway's
// client asks apart).
type firstRecaller interface {
	RecallFirst(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, bool, error)
}

// recalledBefore reports whether this session already got a recall block:
// by default only the first prompt gets one, which keeps the prompt cache
// warm.
func recalledBefore(ctx context.Context, e Engine, client memory.Provider, session string) (bool, error) {
	rs, err := e.Receipts(ctx, client, session, 20)
	if err != nil {
		return false, err
	}
	for _, r := range rs {
		if r.Kind == string(recall.Request) {
			return true, nil
		}
	}
	return false, nil
}

// oneShot recognises non-interactive runs (claude -p, codex exec), which
// read memory but do not learn by default. Claude Code marks them in
// CLAUDE_CODE_ENTRYPOINT; Codex gives a hook no sign, so cairn's own
// CAIRN_ONESHOT=1 can say it.
func oneShot(client memory.Provider, getenv func(string) string) bool {
	if getenv("CAIRN_ONESHOT") == "1" {
		return true
	}
	if client == memory.ProviderClaudeCode {
		ep := getenv("CLAUDE_CODE_ENTRYPOINT")
		return strings.HasPrefix(ep, "sdk")
	}
	return false
}

// writeContext prints the block as the clients' additionalContext; an
// empty block prints nothing.
func writeContext(out io.Writer, event, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	b, err := json.Marshal(map[string]any{
		"hookSpecificOutput": map[string]string{"hookEventName": event, "additionalContext": text},
	})
	if err != nil {
		return err
	}
	_, err = out.Write(append(b, '\n'))
	return err
}

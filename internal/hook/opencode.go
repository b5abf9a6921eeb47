package hook

import (
	"context"
	"io"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

// RunOpenCode handles the calls of cairn's OpenCode plugin: "system"
// prints the block to add to the system prompt (the standing block, then
// the recall block of the session's latest request if the plugin passes
// one); "idle" imports the session, which OpenCode exports on request.
func RunOpenCode(ctx context.Context, event, session, cwd, prompt string, out io.Writer, d Deps) error {
	base := engine.RecallRequest{Cwd: cwd, Provider: memory.ProviderOpenCode, Session: session, Preset: d.Getenv("CAIRN_PRESET"),
		Channel: recall.HookContext, Later: d.Later}
	switch event {
	case "system":
		base.Start = true
		res, err := d.Engine.Standing(ctx, base)
		if err != nil {
			return err
		}
		text := res.Block.Text
		if prompt != "" {
			base.Start, base.Query = false, prompt
			if r, err := d.Engine.Recall(ctx, base); err == nil && r.Block.Text != "" {
				text += "\n" + r.Block.Text
			}
		}
		if text != "" {
			_, err = io.WriteString(out, text)
		}
		return err
	case "idle":
		if session == "" || d.Spawn == nil {
			return nil
		}
		return d.Spawn("import", "--opencode="+session)
	}
	return nil
}

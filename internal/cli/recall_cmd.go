package cli

import (
	"fmt"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newRecallCmd(f *Factory) *cobra.Command {
	var standing, asJSON bool
	var session, provider, cwd, preset string
	cmd := &cobra.Command{
		Use:   "recall [REQUEST]",
		Short: "Show the memory block an agent would get for a request (or at a session's start)",
		Example: `  cairn recall "why did we pick a Map over lru-cache?"
  cairn recall --standing --cwd ~/src/shop
  cairn recall "where did I leave off" --session 7d1c2a9e --provider claude-code --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			q := strings.Join(args, " ")
			if !standing && strings.TrimSpace(q) == "" {
				return memory.Errorf(memory.CodeInvalid, "give a request to recall for, or --standing for the session-start block")
			}
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			req := engine.RecallRequest{Query: q, Cwd: cwdOr(cwd), Provider: memory.Provider(provider), Session: session, Preset: preset, Start: standing}
			var res engine.RecallResult
			if standing {
				res, err = eng.Standing(cmd.Context(), req)
			} else {
				res, err = eng.Recall(cmd.Context(), req)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, res)
			}
			w := f.IO.Out
			if !res.Decision.Read {
				fmt.Fprintf(w, "no block: %s\n", res.Decision.Reason)
				return nil
			}
			if res.Block.Text == "" {
				fmt.Fprintln(w, "no block: memory holds nothing to show at a session's start here")
				return nil
			}
			fmt.Fprintln(w, res.Block.Text)
			fmt.Fprintf(w, "%s %s · %d rows · ~%d tokens · %d chars", f.IO.Bold("status"), res.Block.Status, len(res.Block.Lines), res.Block.Tokens, len([]rune(res.Block.Text)))
			if len(res.Block.Dropped) > 0 {
				fmt.Fprintf(w, " · %d dropped for the budget", len(res.Block.Dropped))
			}
			fmt.Fprintln(w)
			return nil
		},
	}
	cmd.Flags().BoolVar(&standing, "standing", false, "the block shown at a session's start")
	cmd.Flags().StringVar(&session, "session", "", "the client's session id (excludes its own rows and what its standing block sent)")
	cmd.Flags().StringVar(&provider, "provider", "", "the session's client: claude-code, codex, opencode")
	cmd.Flags().StringVar(&cwd, "cwd", "", "directory to recall for (default: the current one)")
	cmd.Flags().StringVar(&preset, "preset", "", "a preset for this session (as CAIRN_PRESET would give it)")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func newReceiptsCmd(f *Factory) *cobra.Command {
	var session, provider string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "receipts",
		Short: "What each recall sent: ids, layers, scores, tokens and the exact text",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			rs, err := eng.Receipts(cmd.Context(), memory.Provider(provider), session, limit)
			if err != nil {
				return err
			}
			if asJSON {
				if rs == nil {
					rs = []memory.Receipt{}
				}
				return printJSON(f.IO.Out, rs)
			}
			if len(rs) == 0 {
				fmt.Fprintln(f.IO.Out, "no receipts yet: nothing has been recalled")
			}
			for _, r := range rs {
				refs := make([]string, 0, len(r.Items))
				for _, it := range r.Items {
					refs = append(refs, fmt.Sprintf("%s(%s %.2f)", it.Ref, it.Layer, it.Score))
				}
				fmt.Fprintf(f.IO.Out, "#%d %s %s %s session %s: %s, ~%d tokens: %s\n", r.ID, when(r.CreatedAt), r.Kind, r.Provider, shortID(r.SessionRef), r.Status, r.Tokens, strings.Join(refs, " "))
				if r.Request != "" {
					fmt.Fprintln(f.IO.Out, f.IO.Dim(indent("   request: ", snippet(r.Request, 160))))
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "only this session's receipts")
	cmd.Flags().StringVar(&provider, "provider", "", "the session's client")
	cmd.Flags().IntVarP(&limit, "limit", "n", 50, "at most this many")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func shortID(s string) string {
	if s == "" {
		return "-"
	}
	return short(s)
}

func newSessionCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "session", Short: "Session settings"}
	var provider string
	var asJSON bool
	preset := &cobra.Command{
		Use:   "preset SESSION PRESET",
		Short: "Set a running session's preset: memory-on, recall-only, private, learn-only or default",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := f.Engine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			p, err := eng.SetSessionPreset(cmd.Context(), memory.Provider(provider), args[0], args[1])
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, map[string]string{"session": args[0], "provider": provider, "preset": string(p)})
			}
			fmt.Fprintf(f.IO.Out, "session %s (%s) now runs %s\n", args[0], provider, orDefault(string(p)))
			return nil
		},
	}
	preset.Flags().StringVar(&provider, "provider", "claude-code", "the session's client")
	addJSONFlag(preset, &asJSON)
	cmd.AddCommand(preset)
	return cmd
}

func newPresetCmd(f *Factory) *cobra.Command {
	var cwd string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "preset PRESET",
		Short: "Set the preset of the next session started in a directory",
		Example: `  cairn preset private --cwd ~/src/secret-project
  CAIRN_PRESET=private claude     # the same, for one client run`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := f.Engine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			place, p, err := eng.SetPlacePreset(cmd.Context(), cwdOr(cwd), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, map[string]string{"worktree": place.Worktree, "preset": string(p)})
			}
			fmt.Fprintf(f.IO.Out, "the next session started in %s runs %s\n", place.Worktree, orDefault(string(p)))
			return nil
		},
	}
	cmd.Flags().StringVar(&cwd, "cwd", "", "directory (default: the current one)")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func orDefault(p string) string {
	if p == "" {
		return "the default preset"
	}
	return p
}

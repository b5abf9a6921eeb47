package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
	"github.com/spf13/cobra"
)

// defaultRoot is the value a client flag takes when given with no value.
const defaultRoot = "\x00default"

// ImportOptions holds `cairn import`'s inputs.
type ImportOptions struct {
	IO         *IOStreams
	Factory    *Factory
	Paths      []string
	Clients    map[memory.Provider]string // client → dir ("" = its default location)
	Force      bool
	JSON       bool
	OpenCodeDB string            // an opencode.db to read directly, read-only
	ClientIDs  []memory.Provider // the order the client flags were given in
}

func newImportCmd(f *Factory, runF func(context.Context, *ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{IO: f.IO, Factory: f}
	var cc, cx, oc, ocdb string
	cmd := &cobra.Command{
		Use:   "import [PATH...]",
		Short: "Import client transcripts into memory (redacted)",
		Long: `import reads Claude Code, Codex and OpenCode transcripts into cairn's raw
layer (L0), redacting secrets before anything is stored. Name a client to
read its standard location (or give a directory after =), or name files and
directories and let cairn detect each format. Re-running is cheap: files
that did not change are skipped, files that grew add only their new turns,
and a half-written last line is left for the next run.`,
		Example: `  cairn import --claude-code
  cairn import --codex=$HOME/.codex
  cairn import --opencode            # runs 'opencode export' for each session
  cairn import ~/Downloads/rollout-2026-05-11T11-26-55-*.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			opts.Clients = map[memory.Provider]string{}
			for _, c := range []struct {
				flag string
				p    memory.Provider
				v    string
			}{{"claude-code", memory.ProviderClaudeCode, cc}, {"codex", memory.ProviderCodex, cx}, {"opencode", memory.ProviderOpenCode, oc}} {
				if cmd.Flags().Changed(c.flag) {
					dir := c.v
					if dir == defaultRoot {
						dir = ""
					}
					opts.Clients[c.p] = dir
					opts.ClientIDs = append(opts.ClientIDs, c.p)
				}
			}
			if cmd.Flags().Changed("opencode-db") {
				opts.OpenCodeDB = ocdb
				if ocdb == defaultRoot {
					opts.OpenCodeDB = ""
				}
				if opts.OpenCodeDB == "" {
					opts.OpenCodeDB = defaultOpenCodeDB(f.Getenv)
				}
			}
			if len(opts.Paths) == 0 && len(opts.Clients) == 0 && opts.OpenCodeDB == "" {
				return memory.Errorf(memory.CodeInvalid, "nothing to import: name a client (--claude-code, --codex, --opencode) or give paths")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runImport(cmd.Context(), opts)
		},
	}
	for _, c := range []struct {
		name string
		p    *string
		help string
	}{
		{"claude-code", &cc, "import Claude Code sessions (default ~/.claude/projects)"},
		{"codex", &cx, "import Codex rollouts (default ~/.codex)"},
		{"opencode", &oc, "import OpenCode sessions via 'opencode export', or a storage dir / export file"},
	} {
		cmd.Flags().StringVar(c.p, c.name, "", c.help)
		cmd.Flags().Lookup(c.name).NoOptDefVal = defaultRoot
	}
	cmd.Flags().StringVar(&ocdb, "opencode-db", "", "read OpenCode's own opencode.db directly, read-only (opt-in: the host's store is the host's)")
	cmd.Flags().Lookup("opencode-db").NoOptDefVal = defaultRoot
	cmd.Flags().BoolVar(&opts.Force, "force", false, "re-read files even when they did not change")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

// ImportOutput is the JSON form of an import.
type ImportOutput struct {
	Sources []engine.SourceReport `json:"sources"`
	Totals  ImportTotals          `json:"totals"`
}

// ImportTotals sums the sources.
type ImportTotals struct {
	Sources   int            `json:"sources"`
	Unchanged int            `json:"unchanged"`
	Failed    int            `json:"failed"`
	Sessions  int            `json:"sessions"`
	Added     int            `json:"turns_added"`
	Updated   int            `json:"turns_updated"`
	Parts     int            `json:"parts_written"`
	Skipped   int            `json:"skipped_lines"`
	Bytes     int64          `json:"bytes"`
	Stages    engine.Stages  `json:"stages"`
	Reasons   map[string]int `json:"skip_reasons,omitempty"`
}

func runImport(ctx context.Context, o *ImportOptions) error {
	eng, err := o.Factory.Memory(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	var reqs []engine.ImportRequest
	for _, p := range o.ClientIDs {
		r := engine.ImportRequest{Provider: p, Force: o.Force}
		if d := o.Clients[p]; d != "" {
			r.Paths = []string{d}
		}
		reqs = append(reqs, r)
	}
	if len(o.Paths) > 0 {
		reqs = append(reqs, engine.ImportRequest{Paths: o.Paths, Force: o.Force})
	}
	if o.OpenCodeDB != "" {
		reqs = append(reqs, engine.ImportRequest{Provider: memory.ProviderOpenCode, Paths: []string{transcript.OpenCodeDBPrefix + o.OpenCodeDB}, Force: o.Force})
	}
	bar := newProgress(o.IO, !o.JSON)
	out := ImportOutput{Sources: []engine.SourceReport{}}
	for _, r := range reqs {
		r.Progress = func(done, total int, rep engine.SourceReport) {
			bar.clear()
			if !o.JSON {
				printSourceReport(o.IO, rep)
			}
			bar.show(done, total)
		}
		reps, err := eng.Import(ctx, r)
		out.Sources = append(out.Sources, reps...)
		if err != nil {
			bar.clear()
			return err
		}
	}
	bar.clear()
	out.Totals = total(out.Sources)
	if o.JSON {
		return printJSON(o.IO.Out, out)
	}
	t := out.Totals
	fmt.Fprintf(o.IO.Out, "%s %d sources (%d unchanged, %d failed): %d sessions, %d turns added, %d updated, %d parts, %d lines skipped\n",
		o.IO.Bold("imported"), t.Sources, t.Unchanged, t.Failed, t.Sessions, t.Added, t.Updated, t.Parts, t.Skipped)
	if t.Failed > 0 {
		return memory.Errorf(memory.CodeInternal, "%d source(s) failed to import; see the lines marked failed above", t.Failed)
	}
	return nil
}

func total(reps []engine.SourceReport) ImportTotals {
	var t ImportTotals
	for _, r := range reps {
		t.Sources++
		if r.Unchanged {
			t.Unchanged++
		}
		if r.Error != "" {
			t.Failed++
		}
		t.Sessions += r.Sessions
		t.Added += r.Added
		t.Updated += r.Updated
		t.Parts += r.Parts
		t.Bytes += r.Bytes
		t.Stages.Add(r.Stages)
		for reason, n := range r.Skipped {
			t.Skipped += n
			if t.Reasons == nil {
				t.Reasons = map[string]int{}
			}
			t.Reasons[reason] += n
		}
	}
	return t
}

func printSourceReport(io *IOStreams, r engine.SourceReport) {
	w := io.Out
	switch {
	case r.Error != "":
		fmt.Fprintf(w, "%s %s %s: %s\n", io.Red("failed"), r.Provider, r.Source, r.Error)
		return
	case r.Unchanged:
		fmt.Fprintf(w, "%s %s %s\n", io.Dim("unchanged"), r.Provider, r.Source)
		return
	}
	fmt.Fprintf(w, "%s %s %s: %d session(s), %d turns (+%d new, %d updated), %d parts, %d lines",
		io.Green("imported"), r.Provider, r.Source, r.Sessions, r.Turns, r.Added, r.Updated, r.Parts, r.Lines)
	if r.Redactions > 0 {
		fmt.Fprintf(w, ", %d secrets redacted", r.Redactions)
	}
	if len(r.Skipped) > 0 {
		reasons := make([]string, 0, len(r.Skipped))
		n := 0
		for k, v := range r.Skipped {
			reasons = append(reasons, fmt.Sprintf("%s: %d", k, v))
			n += v
		}
		sort.Strings(reasons)
		fmt.Fprintf(w, ", skipped %d (%s)", n, strings.Join(reasons, ", "))
	}
	if r.Pending {
		fmt.Fprint(w, ", last line still being written (read next time)")
	}
	fmt.Fprintln(w)
}

// defaultOpenCodeDB is where OpenCode ≥ 1.2 keeps its sessions.
func defaultOpenCodeDB(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "opencode", "opencode.db")
	}
	return filepath.Join(getenv("HOME"), ".local", "share", "opencode", "opencode.db")
}

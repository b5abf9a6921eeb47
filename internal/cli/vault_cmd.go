package cli

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/filelock"
	"github.com/cairn-memory/cairn/internal/memory"
)

func newConsolidateCmd(f *Factory) *cobra.Command {
	var asJSON, ifDue bool
	cmd := &cobra.Command{
		Use:   "consolidate",
		Short: "Extract due sessions, then consolidate the memory files now",
		Long: `Runs phase 1 (per-session extraction) for every due session, then phase 2:
publishes the selected recaps, reads the vault's diff since the last
consolidation (your hand edits included), rewrites MEMORY.md, the skills and
memory_summary.md, and records a baseline. Only one consolidation runs at a
time across cairn processes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.Engine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			var out struct {
				Phase1 engine.Phase1Report   `json:"phase1"`
				Phase2 []engine.Phase2Report `json:"phase2"`
			}
			if out.Phase1, err = eng.ExtractDue(cmd.Context()); err != nil {
				return err
			}
			if out.Phase2, err = eng.Consolidate(cmd.Context(), !ifDue); err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, out)
			}
			p1 := out.Phase1
			fmt.Fprintf(f.IO.Out, "phase 1: %d sessions extracted, %d taught nothing, %d skipped, %d to retry, %d failed\n",
				p1.Extracted, p1.Empty, p1.Skipped, p1.Retried, p1.Failed)
			for _, r := range out.Phase2 {
				printPhase2(f, r)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&ifDue, "if-due", false, "skip a version consolidated less than phase2.interval ago")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func printPhase2(f *Factory, r engine.Phase2Report) {
	if !r.Ran {
		fmt.Fprintf(f.IO.Out, "%s: not run: %s\n", r.Version, r.Why)
		return
	}
	state := "updated"
	if r.NoOp {
		state = "no change"
	}
	fmt.Fprintf(f.IO.Out, "%s (%s): %s; %d recaps published, %d unlisted, %d pruned; %d changed files read; hand edits: %d retracted, %d new notes, %d superseded, %d dropped\n",
		r.Version, r.Mode, state, r.Published, r.Unlisted, r.Pruned, r.Changes, r.Retracted, r.NewNotes, r.Superseded, r.Dropped)
}

func newWorkerCmd(f *Factory) *cobra.Command {
	var once, asJSON bool
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run the background work: promotion, extraction and consolidation",
		Long: `Runs cairn's background loops until interrupted: due candidates are promoted,
idle sessions extracted, and the memory files consolidated when due. With
--once it runs one round and exits (hooks start it so, detached). Stops
cleanly on SIGINT or SIGTERM, finishing nothing half-way: an interrupted
pass leaves the last baseline in place.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if once {
				release, ok, err := filelock.Try(f.workerLock())
				if err != nil {
					return err
				}
				if !ok {
					printWork(f, engine.WorkReport{Busy: true})
					return nil
				}
				defer release()
			}
			// The round maintains under its lease; opening the store must
			// not do it first, outside the lease.
			f.Worker = true
			eng, err := f.Engine(ctx)
			if err != nil {
				return err
			}
			defer eng.Close()
			for {
				rep, err := eng.WorkOnce(ctx)
				if ctx.Err() != nil {
					return nil
				}
				if err != nil {
					if once {
						return err
					}
					fmt.Fprintf(f.IO.ErrOut, "cairn worker: %v\n", err)
				} else if asJSON {
					if err := printJSON(f.IO.Out, rep); err != nil {
						return err
					}
				} else if !rep.Busy || once {
					printWork(f, rep)
				}
				if once {
					return nil
				}
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(every):
				}
			}
		},
	}
	cmd.Flags().BoolVar(&once, "once", false, "run one round and exit")
	cmd.Flags().DurationVar(&every, "every", time.Minute, "time between rounds")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func printWork(f *Factory, r engine.WorkReport) {
	if r.Busy {
		fmt.Fprintln(f.IO.Out, "another cairn process is running the background work")
		return
	}
	m, p := r.Maintenance, r.Phase1
	fmt.Fprintf(f.IO.Out, "%s promoted %d; extracted %d (%d empty, %d skipped, %d retry, %d failed)\n",
		time.Now().Format("15:04:05"), m.Promoted, p.Extracted, p.Empty, p.Skipped, p.Retried, p.Failed)
	for _, x := range r.Phase2 {
		printPhase2(f, x)
	}
}

func newVaultCmd(f *Factory) *cobra.Command {
	var version string
	cmd := &cobra.Command{
		Use:   "vault",
		Short: "Read the memory files: ls, cat, grep, status",
		Long: `The vault is the folder of memory files cairn keeps under the data dir
(MEMORY.md, memory_summary.md, skills/, rollout_summaries/, raw_memories.md,
extensions/). You may edit it by hand: the next consolidation reads your
changes. These commands read it.`,
	}
	cmd.PersistentFlags().StringVar(&version, "version", "", "memory version: v1 or v2 (default: the one in force)")
	open := func(ctx context.Context) (Memory, engine.VaultFiles, error) {
		eng, err := f.Memory(ctx)
		if err != nil {
			return nil, nil, err
		}
		vf, err := eng.Vault(ctx, version)
		if err != nil {
			eng.Close()
			return nil, nil, err
		}
		return eng, vf, nil
	}
	var asJSON, regex bool
	ls := &cobra.Command{
		Use:   "ls [DIR]",
		Short: "List the vault's files",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, vf, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			paths, err := vf.List(cmd.Context(), firstArg(args))
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, paths)
			}
			for _, p := range paths {
				fmt.Fprintln(f.IO.Out, p)
			}
			return nil
		},
	}
	addJSONFlag(ls, &asJSON)
	cat := &cobra.Command{
		Use:   "cat PATH",
		Short: "Print a vault file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, vf, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			b, err := vf.Read(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if err := eng.VaultFileRead(cmd.Context(), args[0]); err != nil {
				fmt.Fprintf(f.IO.ErrOut, "cairn: could not count the use of %s: %v\n", args[0], err)
			}
			_, err = f.IO.Out.Write(b)
			return err
		},
	}
	grep := &cobra.Command{
		Use:   "grep PATTERN",
		Short: "Search the vault's files (literal and case-insensitive unless --regex)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, vf, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			ms, err := vf.Grep(cmd.Context(), args[0], regex, 0)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, ms)
			}
			for _, m := range ms {
				fmt.Fprintf(f.IO.Out, "%s:%d: %s\n", m.Path, m.Line, m.Text)
			}
			if len(ms) == 0 {
				return memory.Errorf(memory.CodeNotFound, "no line of the vault matches %q", args[0])
			}
			return nil
		},
	}
	grep.Flags().BoolVar(&regex, "regex", false, "PATTERN is a regular expression (RE2)")
	addJSONFlag(grep, &asJSON)
	status := &cobra.Command{
		Use:   "status",
		Short: "What changed since the last consolidation, and when the next one runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			st, err := eng.VaultStatus(cmd.Context(), version)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, st)
			}
			if st.Root != "" {
				fmt.Fprintf(f.IO.Out, "%s vault at %s\n", st.Version, st.Root)
			} else {
				fmt.Fprintf(f.IO.Out, "%s vault (the gateway's)\n", st.Version)
			}
			if st.LastPass.IsZero() {
				fmt.Fprintln(f.IO.Out, "never consolidated")
			} else {
				fmt.Fprintf(f.IO.Out, "last consolidation %s; next due %s\n", st.LastPass.Local().Format(time.DateTime), st.NextPass.Local().Format(time.DateTime))
			}
			fmt.Fprintf(f.IO.Out, "%d baselines; %d files changed since the last one\n", st.Baselines, len(st.Changes))
			for _, c := range st.Changes {
				fmt.Fprintf(f.IO.Out, "  %-8s %s\n", c.Kind, c.Path)
			}
			return nil
		},
	}
	addJSONFlag(status, &asJSON)
	cmd.AddCommand(ls, cat, grep, status)
	return cmd
}

func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

func newResetCmd(f *Factory) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "reset",
		Short: "Wipe the memory files (both versions) and the extraction state",
		Long: `Deletes every memory file and its history (vault/ and memories_v2/ under the
data dir) and forgets every extraction, so the next consolidation rebuilds
from your sessions and statements. Sessions, their flags and the statements
stay; use "cairn forget" for those. Asks for confirmation unless --yes.
Refuses when the data dir or a vault is a symbolic link.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir := f.Paths().DataDir
			if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return memory.Errorf(memory.CodeInvalid, "the data dir %s is a symbolic link; reset refuses to delete through it", dir)
			}
			if !yes {
				fmt.Fprintf(f.IO.ErrOut, "This deletes every memory file under %s and its history. Type \"reset\" to go on: ", dir)
				line, _ := bufio.NewReader(f.IO.In).ReadString('\n')
				if strings.TrimSpace(line) != "reset" {
					return memory.Errorf(memory.CodeInvalid, "not confirmed; nothing was deleted")
				}
			}
			eng, err := f.Engine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			if err := eng.ResetMemory(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, "memory files and extraction state wiped; the next consolidation starts afresh")
			return nil
		},
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask for confirmation")
	return cmd
}

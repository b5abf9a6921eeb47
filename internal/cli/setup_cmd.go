package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/setup"
	"github.com/spf13/cobra"
)

// SetupOptions holds `cairn setup`'s inputs.
type SetupOptions struct {
	IO        *IOStreams
	Factory   *Factory
	Client    string
	Project   bool
	User      bool
	Dir       string
	Cairn     string
	DryRun    bool
	Uninstall bool
	Trust     bool
	JSON      bool
}

func newSetupCmd(f *Factory) *cobra.Command {
	opts := &SetupOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "setup claude-code|codex|opencode",
		Short: "Wire cairn into a client: its hooks (or plugin) and the cairn MCP server",
		Long: `setup edits the client's own configuration files so that it calls cairn:
hooks (a plugin for OpenCode) that show memory and learn from sessions, and
the "cairn" MCP server. Only cairn's entries are touched; everything else in
those files stays as it was, a file that needs no change is not rewritten,
and every file that changes is backed up first as
<file>.cairn-backup-<UTC time>. Running it again changes nothing; a cairn
entry with an old path is updated in place.

  claude-code  hooks in ~/.claude/settings.json (CLAUDE_CONFIG_DIR honoured),
               MCP server in ~/.claude.json; with --project:
               .claude/settings.json and .mcp.json
  codex        hooks in $CODEX_HOME/hooks.json (default ~/.codex), MCP server
               in $CODEX_HOME/config.toml; with --project: .codex/ in the
               project. Codex runs hooks only once trusted: review them with
               /hooks in codex, or pass --trust to record that trust now
               (asks the installed codex for the hooks' hashes)
  opencode     plugin ~/.config/opencode/plugins/cairn.js (XDG_CONFIG_HOME
               honoured), MCP server in opencode.json; with --project:
               .opencode/plugins/cairn.js and opencode.json

The clients run this binary by its absolute path (symlinks resolved), or the
one given with --cairn. CAIRN_HOME is baked in only when you pass --home:
then hook commands start with CAIRN_HOME=... and the MCP server gets it in its
environment; run setup again without --home to take it out.

--uninstall removes exactly cairn's entries: hooks that run "cairn hook",
the "cairn" MCP server, the plugin file (and, for Codex, the trust records of
removed hooks). Event lists, groups and objects left empty by that removal
are removed too; a file left holding nothing is deleted (with a backup).`,
		Example: `  cairn setup claude-code
  cairn setup codex --dry-run
  cairn setup codex --trust
  cairn setup opencode --project
  cairn setup claude-code --uninstall`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Client = args[0]
			return runSetup(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.User, "user", false, "edit your own configuration, for every project (the default)")
	cmd.Flags().BoolVar(&opts.Project, "project", false, "edit the project's configuration (usually committed and shared)")
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "the project directory (default: the top of the current git checkout, else the current directory)")
	cmd.Flags().StringVar(&opts.Cairn, "cairn", "", "the cairn binary the clients should run (default: this one)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would change, write nothing")
	cmd.Flags().BoolVar(&opts.Uninstall, "uninstall", false, "remove cairn's entries instead")
	cmd.Flags().BoolVar(&opts.Trust, "trust", false, "codex: record that you trust cairn's hooks (needs codex on PATH)")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runSetup(ctx context.Context, o *SetupOptions) error {
	f := o.Factory
	if o.User && o.Project {
		return memory.Errorf(memory.CodeInvalid, "--user and --project: choose one")
	}
	so := setup.Options{
		Client:    o.Client,
		Scope:     setup.ScopeUser,
		DryRun:    o.DryRun,
		Uninstall: o.Uninstall,
		Trust:     o.Trust,
		Getenv:    f.Getenv,
		Now:       time.Now,
	}
	if so.Client == "claude" {
		so.Client = setup.ClaudeCode
	}
	if o.Project {
		so.Scope = setup.ScopeProject
	}
	dir, err := projectDir(o.Dir)
	if err != nil {
		return err
	}
	so.Dir = dir
	cairn, note, err := cairnBinary(o.Cairn, o.Uninstall)
	if err != nil {
		return err
	}
	so.Cairn = cairn
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	// The small hook client, when installed beside cairn, is what the
	// clients run: it starts in milliseconds and hands the call to the
	// resident process (cairn daemon).
	if hc := filepath.Join(filepath.Dir(cairn), "cairn-hook"); !o.Uninstall {
		if st, err := os.Stat(hc); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			so.HookClient = hc
		} else if so.Client != setup.OpenCode {
			notes = append(notes, "no cairn-hook beside "+cairn+": each hook runs the full binary (install it with `go install ./cmd/cairn ./cmd/cairn-hook` for faster hooks)")
		}
	}
	if f.Home != "" {
		if so.Home, err = filepath.Abs(f.Home); err != nil {
			return memory.Wrap(memory.CodeInvalid, "setup", err)
		}
	} else if h := f.Getenv("CAIRN_HOME"); h != "" && !o.Uninstall {
		notes = append(notes, fmt.Sprintf("CAIRN_HOME=%s is set here but not baked in: the client will use its own environment; pass --home to bake it in", h))
	}
	if so.Client == setup.Codex && o.Trust {
		if path, err := exec.LookPath("codex"); err == nil {
			so.CodexApp = setup.CodexAppServer{Path: path, Version: f.Version.Version}
		}
	}
	rep, err := setup.Run(ctx, so)
	rep.Notes = append(notes, rep.Notes...)
	if err != nil && !rep.Changed() {
		return err
	}
	// Files may have been written before a later step (--trust) failed:
	// say what changed, then the error.
	if o.JSON {
		if perr := printJSON(o.IO.Out, rep); perr != nil {
			return perr
		}
	} else {
		printSetup(o.IO, rep)
	}
	return err
}

// projectDir is --dir, or the top of the current git checkout, or the
// current directory.
func projectDir(dir string) (string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", memory.Wrap(memory.CodeInvalid, "setup", err)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", memory.Wrap(memory.CodeInternal, "setup", err)
	}
	if p, err := gitdir.Resolve(wd); err == nil && p.Worktree != "" {
		return p.Worktree, nil
	}
	return wd, nil
}

// cairnBinary is the binary the clients will run: --cairn, or this
// process's executable with symlinks resolved. A binary that `go run`
// built in a temporary directory is refused (it is gone after the run),
// except to uninstall.
func cairnBinary(flag string, uninstall bool) (path, note string, err error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", "", memory.Wrap(memory.CodeInvalid, "setup", err)
		}
		if _, err := os.Stat(abs); err != nil {
			note = fmt.Sprintf("%s does not exist yet: the clients will fail to run it until it does", abs)
		}
		return abs, note, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", "", memory.Errorf(memory.CodeInternal, "cannot tell where this cairn binary is (%v); pass --cairn /path/to/cairn", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if !uninstall && strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", "", memory.Errorf(memory.CodeInvalid, "this cairn is a temporary `go run` build (%s); install it (go install) and run setup from the installed binary, or pass --cairn", exe)
	}
	return exe, "", nil
}

func printSetup(io *IOStreams, r setup.Report) {
	w := io.Out
	verb := "setup"
	if r.Uninstall {
		verb = "uninstall"
	}
	head := fmt.Sprintf("cairn %s %s (%s scope)", verb, r.Client, r.Scope)
	if r.DryRun {
		head += io.Dim(" — dry run, nothing written")
	}
	fmt.Fprintln(w, io.Bold(head))
	for _, f := range r.Files {
		state := f.Action
		if f.Action == setup.ActionUnchanged {
			state = "no change"
		}
		line := fmt.Sprintf("  %s: %s", f.Path, state)
		if f.Backup != "" {
			line += io.Dim(" (backup " + f.Backup + ")")
		}
		fmt.Fprintln(w, line)
		for _, c := range f.Changes {
			mark := map[setup.Op]string{setup.OpAdded: io.Green("+"), setup.OpUpdated: "~", setup.OpRemoved: io.Red("-")}[c.Op]
			text := fmt.Sprintf("    %s %s %s", mark, c.Op, c.What)
			if c.Detail != "" {
				text += io.Dim(": " + c.Detail)
			}
			fmt.Fprintln(w, text)
		}
	}
	if !r.Changed() {
		if r.Uninstall {
			fmt.Fprintln(w, "nothing of cairn's was there: no change")
		} else {
			fmt.Fprintln(w, "already set up: no change")
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, io.Bold("note: ")+n)
	}
}

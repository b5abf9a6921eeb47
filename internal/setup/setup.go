package setup

import (
	"context"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// The clients setup knows, by the name the command takes.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	OpenCode   = "opencode"
)

// Clients lists them in the order they are shown.
var Clients = []string{ClaudeCode, Codex, OpenCode}

// Scope is whose configuration is edited.
type Scope string

// The scopes.
const (
	// ScopeUser edits the user's own configuration: every project.
	ScopeUser Scope = "user"
	// ScopeProject edits the project's configuration, which is usually
	// committed and shared.
	ScopeProject Scope = "project"
)

// Options are the inputs of Run and Status.
type Options struct {
	Client string // ClaudeCode, Codex or OpenCode
	Scope  Scope  // ScopeUser when empty
	// Dir is the project directory: where project files go, and the
	// directory Codex is asked about for --trust.
	Dir string
	// Cairn is the absolute path of the cairn binary the clients will run.
	Cairn string
	// HookClient is the absolute path of cairn-hook, the small client that
	// hands a hook to cairn's resident process; empty runs `cairn hook`.
	HookClient string
	// Home is baked into every command as CAIRN_HOME when not empty;
	// only an explicit --home should set it.
	Home      string
	DryRun    bool
	Uninstall bool
	// Trust records Codex's trust in cairn's hooks (Codex only).
	Trust bool
	// Getenv reads HOME, CLAUDE_CONFIG_DIR, CODEX_HOME and XDG_CONFIG_HOME.
	Getenv func(string) string
	Now    func() time.Time
	// CodexApp answers for the installed Codex; nil when Codex is not
	// installed. Only --trust uses it.
	CodexApp CodexHooks
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o Options) scope() Scope {
	if o.Scope == "" {
		return ScopeUser
	}
	return o.Scope
}

func (o Options) check() error {
	switch o.Client {
	case ClaudeCode, Codex, OpenCode:
	default:
		return memory.Errorf(memory.CodeInvalid, "unknown client %q: use claude-code, codex or opencode", o.Client)
	}
	switch o.scope() {
	case ScopeUser:
	case ScopeProject:
		if o.Dir == "" || !filepath.IsAbs(o.Dir) {
			return memory.Errorf(memory.CodeInvalid, "project scope needs the project's absolute directory")
		}
	default:
		return memory.Errorf(memory.CodeInvalid, "unknown scope %q: use user or project", o.Scope)
	}
	if o.Getenv == nil {
		return memory.Errorf(memory.CodeInvalid, "setup needs the environment")
	}
	if !o.Uninstall && !filepath.IsAbs(o.Cairn) {
		return memory.Errorf(memory.CodeInvalid, "the cairn binary path %q is not absolute; pass --cairn /absolute/path", o.Cairn)
	}
	if o.Home != "" && !filepath.IsAbs(o.Home) {
		return memory.Errorf(memory.CodeInvalid, "the home %q is not absolute", o.Home)
	}
	if o.Trust && o.Client != Codex {
		return memory.Errorf(memory.CodeInvalid, "--trust is for codex only: Claude Code and OpenCode run hooks without a trust step")
	}
	if o.Trust && o.Uninstall {
		return memory.Errorf(memory.CodeInvalid, "--trust and --uninstall do not go together")
	}
	return nil
}

// Run sets a client up (or, with Uninstall, removes cairn from it). It
// plans every file first and writes nothing if any of them cannot be
// edited; with DryRun it only reports.
func Run(ctx context.Context, o Options) (Report, error) {
	rep := Report{Client: o.Client, Scope: o.scope(), Uninstall: o.Uninstall, DryRun: o.DryRun, Cairn: o.Cairn, Home: o.Home, Files: []FileReport{}, Notes: []string{}}
	if err := o.check(); err != nil {
		return rep, err
	}
	p, err := pathsFor(o)
	if err != nil {
		return rep, err
	}
	var pl plan
	switch o.Client {
	case ClaudeCode:
		pl, err = planClaude(o, p)
	case Codex:
		pl, err = planCodex(o, p)
	case OpenCode:
		pl, err = planOpenCode(o, p)
	}
	if err != nil {
		return rep, err
	}
	if err := pl.write(o, &rep); err != nil {
		return rep, err
	}
	if o.Trust {
		if err := trustCodex(ctx, o, p, &rep); err != nil {
			return rep, err
		}
	}
	if rep.Changed() && !o.DryRun {
		pl.notes = append(pl.notes, "restart running "+clientName(o.Client)+" sessions so they load the change")
	}
	rep.Notes = append(rep.Notes, pl.notes...)
	return rep, nil
}

// plan is the files one run changes, and what to tell the user.
type plan struct {
	edits []*fileEdit
	notes []string
}

func (pl plan) write(o Options, rep *Report) error {
	now := o.now()
	for _, e := range pl.edits {
		if o.DryRun {
			rep.addFile(e.report())
			continue
		}
		fr, err := e.apply(now)
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "setup "+o.Client, err)
		}
		rep.addFile(fr)
	}
	return nil
}

// addFile adds a file's report, merging a second edit of the same file.
func (r *Report) addFile(f FileReport) {
	for i := range r.Files {
		if r.Files[i].Path != f.Path {
			continue
		}
		cur := &r.Files[i]
		cur.Changes = append(cur.Changes, f.Changes...)
		if cur.Action == ActionUnchanged {
			cur.Action = f.Action
		}
		if cur.Backup == "" {
			cur.Backup = f.Backup
		}
		return
	}
	r.Files = append(r.Files, f)
}

func clientName(c string) string {
	switch c {
	case ClaudeCode:
		return "Claude Code"
	case Codex:
		return "Codex"
	}
	return "OpenCode"
}

// invalidFile is the error for a config file cairn cannot edit.
func invalidFile(path string, err error) error {
	return memory.Errorf(memory.CodeInvalid, "%s cannot be edited: %v; nothing was changed", path, err)
}

// modes are the permissions of what setup creates: user files stay
// private (they hold other tools' secrets too), project files are
// ordinary files.
func (o Options) modes() (file, dir fs.FileMode) {
	if o.scope() == ScopeProject {
		return 0o644, 0o755
	}
	return 0o600, 0o700
}

package engine

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// VaultFiles is one memory version's folder of files with its change
// history: what consolidation publishes, diffs and baselines. Paths are
// relative, slash-separated; a missing file is a not_found error.
type VaultFiles interface {
	Read(ctx context.Context, path string) ([]byte, error)
	Write(ctx context.Context, path string, data []byte) error
	Remove(ctx context.Context, path string) error
	// List returns the files under dir ("" for all), recursively.
	List(ctx context.Context, dir string) ([]string, error)
	// Diff is what changed since the last baseline.
	Diff(ctx context.Context) ([]distill.Change, error)
	// Baseline records the files as they are now; it returns the commit.
	Baseline(ctx context.Context, message string) (string, error)
	// Baselines counts the baselines made so far.
	Baselines(ctx context.Context) (int, error)
	// Summary returns memory_summary.md, cheaply when it did not change.
	Summary(ctx context.Context) (string, error)
	// Grep returns the lines matching pattern (literal, any case, unless
	// regex), at most limit.
	Grep(ctx context.Context, pattern string, regex bool, limit int) ([]VaultMatch, error)
}

// VaultMatch is one line a vault search found.
type VaultMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// VaultOpener opens the folder of a memory version (v1 or v2).
type VaultOpener func(version string) (VaultFiles, error)

// vaults caches the opened folders, one per version.
type vaults struct {
	open VaultOpener
	mu   sync.Mutex
	byV  map[string]VaultFiles
}

// vault returns the folder of a version, opening it once; nil, nil when
// the engine runs without a vault.
func (e *Engine) vault(version string) (VaultFiles, error) {
	if e.vaults.open == nil {
		return nil, nil
	}
	e.vaults.mu.Lock()
	defer e.vaults.mu.Unlock()
	if v, ok := e.vaults.byV[version]; ok {
		return v, nil
	}
	v, err := e.vaults.open(version)
	if err != nil {
		return nil, err
	}
	if e.vaults.byV == nil {
		e.vaults.byV = map[string]VaultFiles{}
	}
	e.vaults.byV[version] = v
	return v, nil
}

// HasVault reports whether memory files are kept.
func (e *Engine) HasVault() bool { return e.vaults.open != nil }

// Vault returns the folder of a memory version ("" for the one in force).
func (e *Engine) Vault(ctx context.Context, version string) (VaultFiles, error) {
	if version == "" {
		vs, err := e.Versions(ctx)
		if err != nil {
			return nil, err
		}
		version = vs[0]
	}
	if version != distill.V1 && version != distill.V2 {
		return nil, memory.Errorf(memory.CodeInvalid, "unknown memory version %q; use v1 or v2", version)
	}
	v, err := e.vault(version)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, memory.Errorf(memory.CodeUnavailable, "this cairn runs without memory files")
	}
	return v, nil
}

// summaryText is the vault summary for the standing block's slot: the
// version in force's memory_summary.md without its format line, and only
// when that line is right (a file of another format is not shown).
func (e *Engine) summaryText(ctx context.Context) string {
	vs, err := e.Versions(ctx)
	if err != nil {
		return ""
	}
	v, err := e.vault(vs[0])
	if err != nil {
		return ""
	}
	s, err := v.Summary(ctx)
	if err != nil || !distill.SummaryValid(s) {
		return ""
	}
	_, rest, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(rest)
}

// VaultFileRead counts a read of a vault file as a use: a recap read
// (by a person or an agent's tool) keeps its extraction ranked and
// unpruned.
func (e *Engine) VaultFileRead(ctx context.Context, path string) error {
	slug, ok := recapSlug(path)
	if !ok {
		return nil
	}
	return e.store.MarkExtractionsUsed(ctx, e.acct, []string{slug})
}

// recapSlug reads the slug of a recap's path.
func recapSlug(path string) (string, bool) {
	slug, ok := strings.CutPrefix(strings.TrimPrefix(path, "./"), "rollout_summaries/")
	if !ok {
		return "", false
	}
	slug, ok = strings.CutSuffix(slug, ".md")
	return slug, ok && slug != "" && !strings.Contains(slug, "/")
}

// VaultStatus is what the vault screen and `cairn vault status` show.
type VaultStatus struct {
	Version   string           `json:"version"`
	Root      string           `json:"root,omitempty"`
	Baselines int              `json:"baselines"`
	Changes   []distill.Change `json:"changes"`
	LastPass  time.Time        `json:"last_pass,omitzero"`
	NextPass  time.Time        `json:"next_pass,omitzero"`
}

// VaultStatus reports a version's folder: its changes since the last
// baseline and when consolidation last ran and runs next.
func (e *Engine) VaultStatus(ctx context.Context, version string) (VaultStatus, error) {
	vf, err := e.Vault(ctx, version)
	if err != nil {
		return VaultStatus{}, err
	}
	if version == "" {
		vs, _ := e.Versions(ctx)
		version = vs[0]
	}
	st := VaultStatus{Version: version}
	if r, ok := vf.(interface{ Root() string }); ok {
		st.Root = r.Root()
	}
	if st.Baselines, err = vf.Baselines(ctx); err != nil {
		return st, err
	}
	if st.Changes, err = vf.Diff(ctx); err != nil {
		return st, err
	}
	for i := range st.Changes {
		st.Changes[i].Before, st.Changes[i].After = nil, nil
	}
	set, err := e.store.Settings(ctx, e.acct)
	if err != nil {
		return st, err
	}
	if t, err := time.Parse(time.RFC3339Nano, set[lastPassKey(version)]); err == nil {
		st.LastPass = t
		st.NextPass = t.Add(time.Duration(e.cfg.Phase2.Interval))
	}
	return st, nil
}

// VaultRead reads a file of the version in force and counts the use.
func (e *Engine) VaultRead(ctx context.Context, path string) (string, error) {
	vf, err := e.Vault(ctx, "")
	if err != nil {
		return "", err
	}
	b, err := vf.Read(ctx, path)
	if err != nil {
		return "", err
	}
	return string(b), e.VaultFileRead(ctx, path)
}

// VaultList lists the files of the version in force under dir.
func (e *Engine) VaultList(ctx context.Context, dir string) ([]string, error) {
	vf, err := e.Vault(ctx, "")
	if err != nil {
		return nil, err
	}
	return vf.List(ctx, dir)
}

// VaultGrep searches the files of the version in force.
func (e *Engine) VaultGrep(ctx context.Context, pattern string, regex bool, limit int) ([]VaultMatch, error) {
	vf, err := e.Vault(ctx, "")
	if err != nil {
		return nil, err
	}
	return vf.Grep(ctx, pattern, regex, limit)
}

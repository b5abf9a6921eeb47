package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// maxSubagents bounds how many child sessions one ExportSession follows.
const maxSubagents = 256

// stderrTail is how much of the CLI's stderr an error quotes.
const stderrTail = 4 << 10

// DefaultRoot is OpenCode's data directory: $XDG_DATA_HOME/opencode, else
// ~/.local/share/opencode (OpenCode uses the XDG layout on every system).
// It holds opencode.db and, before 1.2, storage/. "" when there is no home.
func DefaultRoot() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "opencode")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "opencode")
}

// ExportSession runs `opencode export <id>` and parses what it prints. It
// then exports, the same way, each subagent session the session's task
// calls ran (their ids are in the task results), since `opencode session
// list` does not list them; a child that fails to export is counted in
// Stats. opencodeBin "" means "opencode" on PATH. Cancelling ctx kills
// the subprocess. The error of a failed run quotes the end of its stderr.
func ExportSession(ctx context.Context, opencodeBin, id string) (transcript.Result, error) {
	if !validID(id) {
		return transcript.Result{}, memory.Errorf(memory.CodeInvalid, "%q is not an OpenCode session id", id)
	}
	res, children, err := exportOne(ctx, opencodeBin, id)
	if err != nil {
		return res, err
	}
	seen := map[string]bool{id: true}
	for len(children) > 0 && len(seen) <= maxSubagents {
		c := children[0]
		children = children[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		r, more, err := exportOne(ctx, opencodeBin, c)
		if err != nil {
			if ctx.Err() != nil {
				return res, err
			}
			res.Stats.Skip("subagent session not exported")
			continue
		}
		res.Sessions = append(res.Sessions, r.Sessions...)
		res.Stats.Merge(r.Stats)
		children = append(children, more...)
	}
	return res, nil
}

func exportOne(ctx context.Context, bin, id string) (transcript.Result, []string, error) {
	out, err := runCLI(ctx, bin, "", "export", id)
	if err != nil {
		return transcript.Result{}, nil, err
	}
	res, children, err := parseExport(bytes.NewReader(skipBanner(out)))
	if err != nil {
		return res, nil, memory.Wrap(memory.CodeInternal, "opencode export "+id, err)
	}
	return res, children, nil
}

// skipBanner drops lines before the first one that opens a JSON object,
// in case a version prints a notice on stdout before the export.
func skipBanner(out []byte) []byte {
	for len(out) > 0 {
		trimmed := bytes.TrimLeft(out, " \t\r\n")
		if len(trimmed) == 0 || trimmed[0] == '{' || trimmed[0] == '[' {
			return trimmed
		}
		nl := bytes.IndexByte(out, '\n')
		if nl < 0 {
			return out
		}
		out = out[nl+1:]
	}
	return out
}

// SessionRef is one entry of `opencode session list --format json`.
type SessionRef struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Directory string    `json:"directory"`
	ProjectID string    `json:"project_id"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
}

// ListSessions runs `opencode session list --format json` in dir ("" for
// the current directory). OpenCode lists only the sessions of the project
// dir belongs to (its git root commit, or "global"), most recently updated
// first, and never subagent sessions; ExportSession finds those. An empty
// project prints nothing, which gives no refs and no error.
func ListSessions(ctx context.Context, opencodeBin, dir string) ([]SessionRef, error) {
	out, err := runCLI(ctx, opencodeBin, dir, "session", "list", "--format", "json")
	if err != nil {
		return nil, err
	}
	out = skipBanner(out)
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	var raw []struct {
		ID        string  `json:"id"`
		Title     string  `json:"title"`
		Directory string  `json:"directory"`
		ProjectID string  `json:"projectId"`
		Created   float64 `json:"created"`
		Updated   float64 `json:"updated"`
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "opencode session list", fmt.Errorf("decode: %w", err))
	}
	refs := make([]SessionRef, 0, len(raw))
	for _, r := range raw {
		if !validID(r.ID) {
			continue
		}
		refs = append(refs, SessionRef{ID: r.ID, Title: r.Title, Directory: r.Directory, ProjectID: r.ProjectID,
			Created: msTime(r.Created), Updated: msTime(r.Updated)})
	}
	return refs, nil
}

// runCLI runs the OpenCode CLI and returns its stdout.
func runCLI(ctx context.Context, bin, dir string, args ...string) ([]byte, error) {
	if bin == "" {
		bin = "opencode"
	}
	op := "opencode " + strings.Join(args, " ")
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	stderr := &tail{max: stderrTail}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	// A grandchild that keeps the pipes open must not hang us once the
	// CLI itself has exited or been killed.
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: %w", op, ctx.Err())
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return nil, &memory.Error{Code: memory.CodeUnavailable, Op: op, Err: err,
			Message: fmt.Sprintf("cannot run %s: install OpenCode or give the path to its binary", bin)}
	}
	msg := strings.TrimSpace(stripANSI(stderr.String()))
	if msg == "" {
		msg = "no output on stderr"
	}
	return nil, &memory.Error{Code: memory.CodeUnavailable, Op: op, Err: fmt.Errorf("%w: %s", err, msg)}
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.buf) }

// stripANSI removes terminal colour sequences (OpenCode colours "Error:").
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

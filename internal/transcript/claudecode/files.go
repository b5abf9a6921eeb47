package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/transcript"
)

const (
	agentPrefix  = "agent-"
	jsonlExt     = ".jsonl"
	subagentsDir = "subagents"
	// headLines bounds the lines read to learn a subagent file's session.
	headLines = 16
)

// DefaultRoot is where Claude Code keeps transcripts:
// $CLAUDE_CONFIG_DIR/projects, or ~/.claude/projects. It is "" when
// neither can be known.
func DefaultRoot() string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "projects")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".claude", "projects")
}

// Discover lists the session files under root, sorted. Subagent files are
// read with their parent session and not listed, except orphans whose
// parent session file is missing (a 2.1 <session>/subagents/agent-*.jsonl
// without <session>.jsonl, or a 2.0 sibling agent-*.jsonl whose sessionId
// names no file beside it). A missing root is no error: nothing to import.
func Discover(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		name := d.Name()
		if d.IsDir() || !strings.HasSuffix(name, jsonlExt) {
			return nil
		}
		if !strings.HasPrefix(name, agentPrefix) {
			if filepath.Base(filepath.Dir(path)) != subagentsDir {
				out = append(out, path)
			}
			return nil
		}
		if isCompactionFile(name) {
			return nil
		}
		if parent := parentFile(path); parent == "" || !exists(parent) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claudecode: discover %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}

// parentFile names the session file a subagent file belongs to, or "" if
// that cannot be told.
func parentFile(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) == subagentsDir {
		return filepath.Dir(dir) + jsonlExt
	}
	sid := headSessionID(path)
	if sid == "" || strings.ContainsAny(sid, `/\`) {
		return ""
	}
	return filepath.Join(dir, sid+jsonlExt)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isCompactionFile(name string) bool {
	return strings.HasPrefix(name, agentPrefix+compactionAgent)
}

// headSessionID returns the first sessionId in a file's first lines.
func headSessionID(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	lr := transcript.NewLineReader(f)
	for range headLines {
		line, err := lr.Next()
		if err != nil {
			return ""
		}
		var v struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(line, &v) == nil && v.SessionID != "" {
			return v.SessionID
		}
	}
	return ""
}

// ParseFile reads a session file and the subagent transcripts that belong
// to it: <session>/subagents/agent-*.jsonl (2.1) and sibling
// agent-*.jsonl files whose lines carry this session's id (2.0). Given a
// subagent file, it reads that file alone. Result.Files lists every file
// read, with its size and time as of opening; only that many bytes are
// read, so a line appended meanwhile waits for the next run.
func ParseFile(ctx context.Context, path string) (transcript.Result, error) {
	name := filepath.Base(path)
	stem := strings.TrimSuffix(name, jsonlExt)
	if strings.HasPrefix(name, agentPrefix) {
		opt := Options{AgentID: strings.TrimPrefix(stem, agentPrefix)}
		if dir := filepath.Dir(path); filepath.Base(dir) == subagentsDir {
			opt.SessionID = filepath.Base(filepath.Dir(dir))
		}
		var res transcript.Result
		err := readInto(ctx, &res, path, opt)
		return res, err
	}

	var res transcript.Result
	if err := readInto(ctx, &res, path, Options{SessionID: stem}); err != nil {
		return res, err
	}
	ids := map[string]bool{stem: true}
	for _, s := range res.Sessions {
		if !s.Subagent && s.ExternalID != "" {
			ids[s.ExternalID] = true
		}
	}
	agents, err := subagentFiles(path, stem, ids)
	if err != nil {
		return res, err
	}
	for _, a := range agents {
		if err := readInto(ctx, &res, a, Options{SessionID: stem, AgentID: strings.TrimSuffix(strings.TrimPrefix(filepath.Base(a), agentPrefix), jsonlExt)}); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed since it was listed
			}
			return res, err
		}
	}
	return res, nil
}

// subagentFiles lists the subagent files of the session file at path.
func subagentFiles(path, stem string, ids map[string]bool) ([]string, error) {
	dir := filepath.Dir(path)
	var out []string
	sub := filepath.Join(dir, stem, subagentsDir)
	nested, err := os.ReadDir(sub)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("claudecode: list %s: %w", sub, err)
	}
	for _, d := range nested {
		if isAgentFile(d) {
			out = append(out, filepath.Join(sub, d.Name()))
		}
	}
	siblings, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("claudecode: list %s: %w", dir, err)
	}
	for _, d := range siblings {
		if !isAgentFile(d) {
			continue
		}
		p := filepath.Join(dir, d.Name())
		if ids[headSessionID(p)] {
			out = append(out, p)
		}
	}
	return out, nil
}

func isAgentFile(d fs.DirEntry) bool {
	name := d.Name()
	return !d.IsDir() && strings.HasPrefix(name, agentPrefix) && strings.HasSuffix(name, jsonlExt) && !isCompactionFile(name)
}

// readInto parses one file and adds what it holds to res.
func readInto(ctx context.Context, res *transcript.Result, path string, opt Options) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("claudecode: parse %s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("claudecode: parse: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("claudecode: parse %s: %w", path, err)
	}
	r, err := parse(ctx, io.LimitReader(f, info.Size()), opt)
	if err != nil {
		return fmt.Errorf("claudecode: parse %s: %w", path, err)
	}
	res.Sessions = append(res.Sessions, r.Sessions...)
	res.Stats.Merge(r.Stats)
	res.Files = append(res.Files, transcript.File{Path: path, Size: info.Size(), ModTime: info.ModTime()})
	return nil
}

package setup

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// CodexHook is one hook as the installed Codex lists it. Key and
// CurrentHash are Codex's own: trust is recorded as
// [hooks.state."<Key>"] trusted_hash = "<CurrentHash>".
type CodexHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	SourcePath  string `json:"sourcePath"`
	Source      string `json:"source"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"` // managed, untrusted, trusted or modified
}

// CodexHookList is Codex's answer for one directory.
type CodexHookList struct {
	Hooks    []CodexHook
	Warnings []string
}

// CodexHooks is what setup asks the installed Codex. Tests fake it.
type CodexHooks interface {
	ListHooks(ctx context.Context, cwd string) (CodexHookList, error)
}

// CodexAppServer asks a Codex binary through `codex app-server`, the
// JSON-RPC interface (one JSON message per line on stdio) that Codex's
// own editor integrations use: initialize, initialized, then hooks/list.
type CodexAppServer struct {
	Path    string   // the codex binary
	Env     []string // its environment; nil inherits cairn's
	Version string   // cairn's version, sent as clientInfo
}

// appServerTimeout bounds one conversation with Codex.
const appServerTimeout = 30 * time.Second

// ListHooks runs hooks/list for cwd.
func (c CodexAppServer) ListHooks(ctx context.Context, cwd string) (CodexHookList, error) {
	ctx, cancel := context.WithTimeout(ctx, appServerTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, "app-server")
	cmd.Env = c.Env
	cmd.Dir = cwd
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 8 << 10}
	cmd.WaitDelay = 2 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return CodexHookList{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return CodexHookList{}, err
	}
	if err := cmd.Start(); err != nil {
		return CodexHookList{}, fmt.Errorf("start %s app-server: %w", c.Path, err)
	}
	defer func() {
		in.Close()
		cancel()
		_ = cmd.Wait()
	}()
	rpc := &jsonRPC{in: in, out: bufio.NewReader(out)}
	version := c.Version
	if version == "" {
		version = "dev"
	}
	if _, err := rpc.call(1, "initialize", map[string]any{
		"clientInfo":   map[string]any{"name": "cairn", "title": "cairn setup", "version": version},
		"capabilities": map[string]any{"experimentalApi": true},
	}); err != nil {
		return CodexHookList{}, c.fail("initialize", err, &stderr)
	}
	if err := rpc.send(map[string]any{"method": "initialized"}); err != nil {
		return CodexHookList{}, c.fail("initialized", err, &stderr)
	}
	raw, err := rpc.call(2, "hooks/list", map[string]any{"cwds": []string{cwd}})
	if err != nil {
		return CodexHookList{}, c.fail("hooks/list", err, &stderr)
	}
	return parseHookList(raw)
}

func (c CodexAppServer) fail(method string, err error, stderr *bytes.Buffer) error {
	msg := strings.TrimSpace(stderr.String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if msg != "" {
		return fmt.Errorf("codex app-server %s: %w (%s)", method, err, msg)
	}
	return fmt.Errorf("codex app-server %s: %w", method, err)
}

// parseHookList reads hooks/list's result: {"data":[{"cwd","hooks",
// "warnings","errors"}]}.
func parseHookList(raw json.RawMessage) (CodexHookList, error) {
	var res struct {
		Data []struct {
			Hooks    []CodexHook       `json:"hooks"`
			Warnings []json.RawMessage `json:"warnings"`
			Errors   []json.RawMessage `json:"errors"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return CodexHookList{}, fmt.Errorf("read codex hooks/list result: %w", err)
	}
	var l CodexHookList
	for _, d := range res.Data {
		l.Hooks = append(l.Hooks, d.Hooks...)
		for _, w := range append(d.Warnings, d.Errors...) {
			var s string
			if json.Unmarshal(w, &s) != nil {
				s = string(w)
			}
			l.Warnings = append(l.Warnings, s)
		}
	}
	return l, nil
}

// jsonRPC speaks JSON-RPC 2.0 without the "jsonrpc" member, one message
// per line, as codex app-server does.
type jsonRPC struct {
	in  io.Writer
	out *bufio.Reader
}

func (r *jsonRPC) send(msg map[string]any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = r.in.Write(append(b, '\n'))
	return err
}

// call sends a request and returns its result, skipping notifications
// and anything else Codex says meanwhile.
func (r *jsonRPC) call(id int, method string, params any) (json.RawMessage, error) {
	if err := r.send(map[string]any{"method": method, "id": id, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := r.out.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var msg struct {
				ID     *json.RawMessage `json:"id"`
				Method string           `json:"method"`
				Result json.RawMessage  `json:"result"`
				Error  *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &msg) == nil && msg.ID != nil && msg.Method == "" && string(*msg.ID) == fmt.Sprint(id) {
				if msg.Error != nil {
					return nil, fmt.Errorf("error %d: %s", msg.Error.Code, msg.Error.Message)
				}
				return msg.Result, nil
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil, errors.New("codex closed the connection")
			}
			return nil, err
		}
	}
}

type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// trustByHand is what to do when cairn cannot record trust itself.
const trustByHand = "start codex and review cairn's hooks with /hooks"

// trustCodex records the user's trust in cairn's Codex hooks, with the
// keys and hashes the installed Codex reports for them.
func trustCodex(ctx context.Context, o Options, p paths, rep *Report) error {
	if o.DryRun && fileChanged(rep, p.codexHooks) {
		rep.Notes = append(rep.Notes, "--trust would then ask Codex for the new hooks' hashes and record them in "+p.codexUserConfig)
		return nil
	}
	if o.CodexApp == nil {
		return memory.Errorf(memory.CodeUnavailable, "--trust asks the installed Codex for its hooks' hashes, but the codex command is not on PATH; %s, or install codex and run `cairn setup codex --trust` again", trustByHand)
	}
	dir := o.Dir
	if dir == "" {
		dir = o.Getenv("HOME")
	}
	list, err := o.CodexApp.ListHooks(ctx, dir)
	if err != nil {
		return memory.Wrap(memory.CodeUnavailable, "trust codex hooks", memory.Errorf(memory.CodeUnavailable, "could not ask Codex for its hooks (%v); %s", err, trustByHand))
	}
	ours := cairnCodexHooks(list, o.Cairn, p.codexHooks)
	if len(ours) == 0 {
		msg := fmt.Sprintf("Codex does not list cairn's hooks from %s", p.codexHooks)
		if o.scope() == ScopeProject {
			msg += "; Codex reads a project's hooks only once the project is trusted: open it in codex and trust it first"
		}
		for _, w := range list.Warnings {
			msg += "; Codex says: " + w
		}
		return memory.Errorf(memory.CodeInvalid, "%s", msg)
	}
	cfg, err := loadTOML(p.codexUserConfig, 0o600, 0o700)
	if err != nil {
		return err
	}
	for _, h := range ours {
		if h.TrustStatus == "trusted" || h.TrustStatus == "managed" || h.CurrentHash == "" {
			continue
		}
		path := codexTrustPath(h.Key)
		_, existed := cfg.table(path)
		changed, err := cfg.setTable(path, []tomlKV{{"trusted_hash", h.CurrentHash}})
		if err != nil {
			return invalidFile(p.codexUserConfig, err)
		}
		if changed {
			op := OpAdded
			if existed {
				op = OpUpdated
			}
			cfg.note(Change{Op: op, What: "hook trust", Detail: h.Key})
			rep.Trusted = append(rep.Trusted, h.Key)
		}
	}
	if len(rep.Trusted) == 0 {
		rep.Notes = append(rep.Notes, "Codex already trusts cairn's hooks")
		return nil
	}
	e, err := cfg.done()
	if err != nil {
		return invalidFile(p.codexUserConfig, err)
	}
	if o.DryRun {
		rep.addFile(e.report())
		return nil
	}
	e.noBackup = fileChanged(rep, p.codexUserConfig)
	fr, err := e.apply(o.now())
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "trust codex hooks", err)
	}
	rep.addFile(fr)
	// Ask again: Codex is the judge of whether the record took.
	if again, err := o.CodexApp.ListHooks(ctx, dir); err == nil {
		for _, h := range cairnCodexHooks(again, o.Cairn, p.codexHooks) {
			if h.TrustStatus != "trusted" && h.TrustStatus != "managed" {
				rep.Notes = append(rep.Notes, fmt.Sprintf("Codex still reports %s as %s; %s", h.Key, h.TrustStatus, trustByHand))
			}
		}
	}
	return nil
}

// cairnCodexHooks picks cairn's hooks from the given hooks.json.
func cairnCodexHooks(l CodexHookList, cairn, hooksPath string) []CodexHook {
	var out []CodexHook
	for _, h := range l.Hooks {
		if isCairnCommand(h.Command, cairn, Codex) && sameFile(h.SourcePath, hooksPath) {
			out = append(out, h)
		}
	}
	return out
}

func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

func fileChanged(rep *Report, path string) bool {
	for _, f := range rep.Files {
		if f.Path == path && f.Action != ActionUnchanged {
			return true
		}
	}
	return false
}

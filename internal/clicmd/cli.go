package clicmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// Kind names the CLI.
type Kind string

// The CLIs cairn can drive.
const (
	Claude Kind = "claude"
	Codex  Kind = "codex"
)

// Options configures a Client.
type Options struct {
	Kind    Kind
	Command string // the executable; "" for the kind's name on PATH
	Model   string // "" for the CLI's default
	// Env is the environment the CLI starts from (nil: this process's);
	// CAIRN_PRESET is always replaced by private.
	Env     []string
	Timeout time.Duration // per call; 0: none beyond the context
}

// Client runs one CLI per call.
type Client struct{ o Options }

// New builds a client for a CLI.
func New(o Options) (*Client, error) {
	if o.Kind != Claude && o.Kind != Codex {
		return nil, memory.Errorf(memory.CodeInvalid, "unknown CLI %q; use claude or codex", o.Kind)
	}
	if o.Command == "" {
		o.Command = string(o.Kind)
	}
	return &Client{o: o}, nil
}

// maxOutput bounds what is read from a CLI.
const maxOutput = 16 << 20

func (c *Client) name() string { return string(c.o.Kind) + "-cli" }

// Complete runs the CLI once with the whole conversation as its prompt.
func (c *Client) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	if c.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.o.Timeout)
		defer cancel()
	}
	dir, err := os.MkdirTemp("", "cairn-model-")
	if err != nil {
		return model.Response{}, memory.Wrap(memory.CodeInternal, c.name()+" scratch dir", err)
	}
	defer os.RemoveAll(dir)
	var args []string
	var prompt string
	switch c.o.Kind {
	case Claude:
		// No built-in tools, no MCP servers (not cairn's either), nothing
		// saved: one answer from the model and its usage.
		args = []string{"-p", "--output-format", "json", "--tools", "", "--strict-mcp-config", "--no-session-persistence"}
		if req.System != "" {
			args = append(args, "--system-prompt", req.System)
		}
		prompt = render(req, false)
	case Codex:
		args = []string{"exec", "--json", "--skip-git-repo-check", "--ephemeral", "--sandbox", "read-only", "--color", "never"}
		prompt = render(req, true)
	}
	if c.o.Model != "" {
		args = append(args, "--model", c.o.Model)
	}
	if c.o.Kind == Codex {
		args = append(args, "-")
	}
	cmd := exec.CommandContext(ctx, c.o.Command, args...)
	cmd.Dir = dir
	cmd.Env = privateEnv(c.o.Env)
	cmd.Stdin = strings.NewReader(prompt)
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limited{w: &stdout, n: maxOutput}
	cmd.Stderr = &limited{w: &stderr, n: 64 << 10}
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return model.Response{}, &memory.Error{Code: memory.CodeUnavailable, Message: c.name() + ": the call timed out or was cancelled", Err: ctx.Err()}
	}
	var resp model.Response
	switch c.o.Kind {
	case Claude:
		resp, err = parseClaude(stdout.Bytes())
	case Codex:
		resp, err = parseCodex(stdout.Bytes())
	}
	if err != nil {
		if runErr != nil {
			err = fmt.Errorf("%w (exit: %v; stderr: %s)", err, runErr, lastLine(stderr.String()))
		}
		return resp, model.Unavailable(c.name(), err)
	}
	if runErr != nil && resp.Stop != model.StopRefusal {
		return resp, model.Unavailable(c.name(), fmt.Errorf("%v: %s", runErr, lastLine(stderr.String())))
	}
	if resp.Stop != model.StopRefusal && len(req.Tools) > 0 {
		if calls, ok := parseCalls(resp.Text); ok {
			// The text was the calls: kept, the next prompt would show them twice.
			resp.Calls, resp.Stop, resp.Text = calls, model.StopTools, ""
		}
	}
	return resp, nil
}

// privateEnv is env with memory switched off for the run.
func privateEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "CAIRN_PRESET=") })
	return append(out, "CAIRN_PRESET=private")
}

// parseClaude reads `claude -p --output-format json`: one result object.
func parseClaude(out []byte) (model.Response, error) {
	var v struct {
		Subtype    string                     `json:"subtype"`
		IsError    bool                       `json:"is_error"`
		Result     string                     `json:"result"`
		StopReason string                     `json:"stop_reason"`
		CostUSD    float64                    `json:"total_cost_usd"`
		ModelUsage map[string]json.RawMessage `json:"modelUsage"`
		Usage      struct {
			In          int `json:"input_tokens"`
			CacheCreate int `json:"cache_creation_input_tokens"`
			CacheRead   int `json:"cache_read_input_tokens"`
			Out         int `json:"output_tokens"`
		} `json:"usage"`
	}
	line := lastJSONLine(out)
	if line == nil {
		return model.Response{}, errors.New("claude printed no JSON result")
	}
	if err := json.Unmarshal(line, &v); err != nil {
		return model.Response{}, fmt.Errorf("claude's result is not JSON: %v", err)
	}
	r := model.Response{Text: v.Result, Stop: model.StopEnd,
		Usage: model.Usage{In: v.Usage.In + v.Usage.CacheCreate + v.Usage.CacheRead, Out: v.Usage.Out, CostUSD: v.CostUSD}}
	for m := range v.ModelUsage {
		if r.Model == "" || m < r.Model {
			r.Model = m
		}
	}
	switch {
	case v.StopReason == "refusal":
		r.Stop = model.StopRefusal
	case v.IsError:
		return r, fmt.Errorf("claude reported an error (%s): %s", v.Subtype, lastLine(v.Result))
	case v.StopReason == "max_tokens":
		r.Stop = model.StopLength
	}
	return r, nil
}

// parseCodex reads `codex exec --json`: one event per line; the agent's
// last message is the answer, turn.completed carries the usage.
func parseCodex(out []byte) (model.Response, error) {
	var r model.Response
	r.Stop = model.StopEnd
	done := false
	for l := range bytes.SplitSeq(out, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var ev struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Item    struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
			Usage struct {
				In     int `json:"input_tokens"`
				Cached int `json:"cached_input_tokens"`
				Out    int `json:"output_tokens"`
			} `json:"usage"`
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(l, &ev) != nil {
			continue
		}
		switch ev.Type {
		case "item.completed":
			if ev.Item.Type == "agent_message" {
				r.Text = ev.Item.Text
			}
		case "turn.completed":
			// input_tokens counts the cached ones too.
			r.Usage.In += ev.Usage.In
			r.Usage.Out += ev.Usage.Out
			done = true
		case "turn.failed":
			return r, fmt.Errorf("codex turn failed: %s", ev.Error.Message)
		case "error":
			return r, fmt.Errorf("codex: %s", ev.Message)
		}
	}
	if !done {
		return r, errors.New("codex printed no completed turn")
	}
	return r, nil
}

// lastJSONLine is the last line of out that starts an object.
func lastJSONLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); len(l) > 0 && l[0] == '{' {
			return l
		}
	}
	return nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// limited writes at most n bytes and drops the rest, so a runaway CLI
// cannot fill memory.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return len(p), nil
	}
	k := min(len(p), l.n)
	l.n -= k
	if _, err := l.w.Write(p[:k]); err != nil {
		return 0, err
	}
	return len(p), nil
}

package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// FileTools are the vault file tools a consolidation model is given (the
// engine passes internal/vault's Tools behind its own write rules). Their
// errors are shown to the model as tool errors.
type FileTools interface {
	Read(ctx context.Context, path string) (string, error)
	Write(ctx context.Context, path, content string) (string, error)
	List(ctx context.Context, dir string) (string, error)
	Search(ctx context.Context, query string) (string, error)
}

// ConsolidationJob is one model pass over one version's vault.
type ConsolidationJob struct {
	Version     string
	Mode        distill.Mode
	Changes     []distill.Change // the diff since the last baseline, before this pass wrote anything
	RawMemories string           // raw_memories.md (V1)
	Files       []string         // the vault's files now
	// Previous are the maintained files as they were before this pass
	// (the last pass's result with any hand edits), by path: the
	// deterministic rebuild on disk does not carry what a model wrote.
	Previous      map[string]string
	SummaryTokens int // V1 cap of memory_summary.md
	SummaryBytes  int // V2 cap
	Tools         FileTools
}

// Consolidator is phase 2 with a model: an agent loop whose only tools
// are the vault's. It implements the engine's Consolidator port; the
// engine checks what it wrote and falls back to the deterministic files
// when it fails.
type Consolidator struct {
	Chat     Chat
	MaxSteps int // model calls per pass (0: 24)
}

// Bounds of what is inlined in the first message; the rest is one
// read_file away.
const (
	diffMax = 40000
	rawMax  = 40000
)

// Steps counts what one pass did, for its report.
type Steps struct {
	Calls  int // model calls
	Tools  int // tool calls run
	Errors int // tool calls that failed (refused paths among them)
	Final  string
}

// Consolidate runs the loop until the model stops calling tools.
func (c Consolidator) Consolidate(ctx context.Context, job ConsolidationJob) (Steps, error) {
	var st Steps
	maxSteps := orDefault(c.MaxSteps, 24)
	req := Request{System: consolidateInstructions(job), Tools: vaultTools(), MaxTokens: 8192,
		Messages: []Message{{Role: RoleUser, Text: consolidateMessage(job)}}}
	for st.Calls < maxSteps {
		resp, err := c.Chat.Complete(ctx, req)
		st.Calls++
		if err != nil {
			return st, err
		}
		if resp.Stop == StopRefusal {
			return st, Refused("model", cut(resp.Text, 200))
		}
		req.Messages = append(req.Messages, Message{Role: RoleAssistant, Text: resp.Text, Calls: resp.Calls})
		if len(resp.Calls) == 0 {
			if resp.Stop == StopLength {
				return st, Invalid("the answer was cut at the token limit")
			}
			st.Final = cut(strings.TrimSpace(resp.Text), 500)
			return st, nil
		}
		results := make([]Result, 0, len(resp.Calls))
		for _, call := range resp.Calls {
			text, err := runTool(ctx, job.Tools, call)
			st.Tools++
			r := Result{CallID: call.ID, Name: call.Name, Text: text}
			if err != nil {
				st.Errors++
				r.Text, r.IsError = "error: "+toolError(err), true
			}
			results = append(results, r)
		}
		req.Messages = append(req.Messages, Message{Role: RoleTool, Results: results})
	}
	return st, &memory.Error{Code: memory.CodeUnavailable, Message: fmt.Sprintf("consolidation model did not finish within %d calls", maxSteps), Err: ErrInvalidOutput}
}

// toolError is the text of a tool failure for the model.
func toolError(err error) string {
	if m := memory.ErrorMessage(err); m != "" {
		return m
	}
	return err.Error()
}

// Tool names offered to the model.
const (
	toolRead   = "read_file"
	toolWrite  = "write_file"
	toolList   = "list_files"
	toolSearch = "search_files"
)

func vaultTools() []Tool {
	obj := func(req []string, props map[string]any) map[string]any {
		r := make([]any, len(req))
		for i, s := range req {
			r[i] = s
		}
		return map[string]any{"type": "object", "properties": props, "required": r, "additionalProperties": false}
	}
	str := func(d string) map[string]any { return map[string]any{"type": "string", "description": d} }
	return []Tool{
		{Name: toolRead, Description: "Read one file of the vault.", Params: obj([]string{"path"}, map[string]any{"path": str("path relative to the vault")})},
		{Name: toolWrite, Description: "Replace one file of the vault with new content (the whole file).",
			Params: obj([]string{"path", "content"}, map[string]any{"path": str("path relative to the vault"), "content": str("the file's full new text")})},
		{Name: toolList, Description: "List the files under a folder of the vault (\"\" for all) with their sizes.",
			Params: obj([]string{"dir"}, map[string]any{"dir": str("folder relative to the vault, or \"\"")})},
		{Name: toolSearch, Description: "Find the lines of the vault's files that contain a phrase (any case).",
			Params: obj([]string{"query"}, map[string]any{"query": str("the phrase")})},
	}
}

// runTool runs one call; bad arguments are an error for the model.
func runTool(ctx context.Context, t FileTools, c Call) (string, error) {
	var a struct {
		Path    *string `json:"path"`
		Content *string `json:"content"`
		Dir     *string `json:"dir"`
		Query   *string `json:"query"`
	}
	args := c.Args
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return "", memory.Errorf(memory.CodeInvalid, "the arguments of %s are not a JSON object", c.Name)
	}
	need := func(p *string, name string) (string, error) {
		if p == nil {
			return "", memory.Errorf(memory.CodeInvalid, "%s needs %q", c.Name, name)
		}
		return *p, nil
	}
	switch c.Name {
	case toolRead:
		p, err := need(a.Path, "path")
		if err != nil {
			return "", err
		}
		return t.Read(ctx, p)
	case toolWrite:
		p, err := need(a.Path, "path")
		if err != nil {
			return "", err
		}
		body, err := need(a.Content, "content")
		if err != nil {
			return "", err
		}
		return t.Write(ctx, p, body)
	case toolList:
		d := ""
		if a.Dir != nil {
			d = *a.Dir
		}
		return t.List(ctx, d)
	case toolSearch:
		q, err := need(a.Query, "query")
		if err != nil {
			return "", err
		}
		return t.Search(ctx, q)
	}
	return "", memory.Errorf(memory.CodeInvalid, "there is no tool %q; use %s, %s, %s or %s", c.Name, toolRead, toolWrite, toolList, toolSearch)
}

func consolidateInstructions(job ConsolidationJob) string {
	part := fmt.Sprintf(consolidateV1, orDefault(job.SummaryTokens, 2500), orDefault(job.SummaryTokens, 2500)*4)
	if job.Version == distill.V2 {
		part = fmt.Sprintf(consolidateV2, orDefault(job.SummaryBytes, 10000))
	}
	return fmt.Sprintf(consolidateSystem, part)
}

// consolidateMessage is the first user message: the mode, the diff, the
// raw memories and the file list.
func consolidateMessage(job ConsolidationJob) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Mode: %s (memory %s).", job.Mode, job.Version)
	if job.Mode == distill.ModeInit {
		b.WriteString(" The memory was empty before this pass: build it from the raw memories and recaps.")
	}
	b.WriteString("\n\nChanges since the last consolidation:\n")
	b.WriteString(fence("diff", renderChanges(job.Changes)))
	if job.Version != distill.V2 && job.RawMemories != "" {
		b.WriteString("\nraw_memories.md (the selected extractions, best first):\n")
		b.WriteString(fence("raw_memories.md", cut(job.RawMemories, rawMax)))
	}
	if len(job.Previous) > 0 {
		b.WriteString("\nThe files you maintain as they were before this pass (the last pass's result, with any hand edits). " +
			"The files on disk now are the deterministic rebuild; carry over what is still supported:\n")
		left := rawMax
		for _, p := range slices.Sorted(maps.Keys(job.Previous)) {
			body := cut(job.Previous[p], max(left, 0))
			left -= len(body)
			b.WriteString(fence("previous "+p, body))
		}
	}
	b.WriteString("\nFiles in the vault now:\n")
	b.WriteString(fence("files", strings.Join(job.Files, "\n")))
	b.WriteString("\nRead the files you maintain, improve them under the rules, write them back, then stop.")
	return b.String()
}

// renderChanges writes the diff: each file with its kind and, for a
// modified file, the lines removed and added.
func renderChanges(cs []distill.Change) string {
	if len(cs) == 0 {
		return "(no changes)"
	}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s %s\n", c.Kind, c.Path)
		if c.Kind != distill.Modified {
			continue
		}
		before, after := strings.Split(string(c.Before), "\n"), strings.Split(string(c.After), "\n")
		for _, l := range before {
			if strings.TrimSpace(l) != "" && !slices.Contains(after, l) {
				b.WriteString("  - " + l + "\n")
			}
		}
		for _, l := range after {
			if strings.TrimSpace(l) != "" && !slices.Contains(before, l) {
				b.WriteString("  + " + l + "\n")
			}
		}
		if b.Len() > diffMax {
			break
		}
	}
	return cut(b.String(), diffMax)
}

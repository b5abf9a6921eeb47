package engine

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
	"github.com/cairn-memory/cairn/internal/text"
)

// ModelToolVault is a vault that can hand a model its file tools; log
// receives one line per refused path.
type ModelToolVault interface {
	ModelTools(log func(string)) (model.FileTools, error)
}

// ModelPass says what the model did in one consolidation pass.
type ModelPass struct {
	Ran      bool     `json:"ran"`
	Calls    int      `json:"calls"`
	Tools    int      `json:"tool_calls"`
	Written  []string `json:"written,omitempty"`  // files the model changed and that were kept
	Refused  []string `json:"refused,omitempty"`  // file accesses refused (logged too)
	Fallback string   `json:"fallback,omitempty"` // why the deterministic files were kept
	Skipped  bool     `json:"skipped,omitempty"`  // the daily budget was spent; the next pass tries again
	Final    string   `json:"final,omitempty"`    // the model's closing sentence
}

// maxRefusals bounds the refusals a report lists.
const maxRefusals = 20

// refineWithModel runs the consolidation model over files the
// deterministic pass already wrote. Its writes go through vault's tools
// under the rule that only the files this version maintains are written;
// when it fails, or leaves files that do not pass the checks, every file
// it wrote is put back as the deterministic pass left it.
func (e *Engine) refineWithModel(ctx context.Context, vf VaultFiles, v string, in distill.ConsolidateInput, draft distill.Output) *ModelPass {
	c := e.models.consolidator
	if c == nil {
		return nil
	}
	mp := &ModelPass{Ran: true}
	tv, ok := vf.(ModelToolVault)
	if !ok {
		mp.Fallback = "this vault offers no model tools"
		return mp
	}
	var mu sync.Mutex
	logf := func(msg string) {
		e.models.cfg.Log(msg)
		mu.Lock()
		if len(mp.Refused) < maxRefusals {
			mp.Refused = append(mp.Refused, msg)
		}
		mu.Unlock()
	}
	inner, err := tv.ModelTools(logf)
	if err != nil {
		mp.Fallback = memory.ErrorMessage(err)
		return mp
	}
	j := &journal{vf: vf, inner: inner, version: v, log: logf, before: map[string][]byte{}, existed: map[string]bool{}}
	files, err := vf.List(ctx, "")
	if err != nil {
		mp.Fallback = memory.ErrorMessage(err)
		return mp
	}
	raw := ""
	if v == distill.V1 {
		raw, _ = readText(ctx, vf, distill.RawMemoriesPath)
	}
	prev := map[string]string{}
	if in.Memory != "" {
		prev[distill.MemoryPath] = in.Memory
	}
	if in.Summary != "" {
		prev[distill.SummaryPath] = in.Summary
	}
	for name, body := range in.Skills {
		prev[distill.SkillPath(name)] = body
	}
	steps, err := c.Consolidate(ctx, model.ConsolidationJob{Version: v, Mode: in.Mode, Changes: in.Changes, RawMemories: raw,
		Files: files, Previous: prev, SummaryTokens: in.SummaryTokens, SummaryBytes: in.SummaryBytes, Tools: j})
	mp.Calls, mp.Tools, mp.Final = steps.Calls, steps.Tools, steps.Final
	if err == nil {
		err = e.checkModelFiles(ctx, vf, v, in, draft, j.written())
	}
	if err != nil {
		mp.Skipped = isBudget(err)
		mp.Fallback = memory.ErrorMessage(err)
		if mp.Fallback == "" {
			mp.Fallback = err.Error()
		}
		e.models.cfg.Log(fmt.Sprintf("consolidation (%s): model pass failed, deterministic files kept: %s", v, mp.Fallback))
		if uerr := j.undo(context.WithoutCancel(ctx)); uerr != nil {
			mp.Fallback += "; restoring failed: " + memory.ErrorMessage(uerr)
		}
		return mp
	}
	mp.Written = j.written()
	return mp
}

// checkModelFiles holds the model's files to the deterministic pass's
// rules: the summary keeps its format line and its cap, and every anchor
// names a statement or key the pass knew (a made-up anchor would point
// provenance at nothing).
func (e *Engine) checkModelFiles(ctx context.Context, vf VaultFiles, v string, in distill.ConsolidateInput, draft distill.Output, written []string) error {
	if len(written) == 0 {
		return nil
	}
	known := map[string]bool{}
	addAnchors(known, draft.Memory)
	addAnchors(known, draft.Summary)
	for _, s := range draft.Skills {
		addAnchors(known, s)
	}
	raw, _ := readText(ctx, vf, distill.RawMemoriesPath)
	addAnchors(known, raw)
	for _, s := range in.Statements {
		known[fmt.Sprintf("s:%d", s.ID)] = true
	}
	for _, p := range written {
		body, err := readText(ctx, vf, p)
		if err != nil {
			return err
		}
		if p == distill.SummaryPath {
			if !distill.SummaryValid(body) {
				return model.Invalid("memory_summary.md lost its format line")
			}
			if v == distill.V2 && in.SummaryBytes > 0 && len(body) >= in.SummaryBytes {
				return model.Invalid(fmt.Sprintf("memory_summary.md is %d bytes; the cap is %d", len(body), in.SummaryBytes))
			}
			if v != distill.V2 && in.SummaryTokens > 0 && text.EstimateTokens(body) > in.SummaryTokens {
				return model.Invalid(fmt.Sprintf("memory_summary.md is about %d tokens; the cap is %d", text.EstimateTokens(body), in.SummaryTokens))
			}
		}
		kept := map[string]bool{}
		addAnchors(kept, body)
		for tok := range kept {
			if !known[tok] {
				return model.Invalid(fmt.Sprintf("%s has an anchor %s that names nothing consolidation knows", p, tok))
			}
		}
		// Provenance kept: every anchor of the deterministic file is still
		// there (merged lines carry both ids), so a rewrite cannot drop
		// what the store holds. The summary is a signpost and may leave
		// lines out.
		draftBody, ok := draft.Memory, p == distill.MemoryPath
		if name, isSkill := cutSkill(p); isSkill {
			draftBody, ok = draft.Skills[name], true
		}
		if !ok {
			continue
		}
		want := map[string]bool{}
		addAnchors(want, draftBody)
		for _, tok := range slices.Sorted(maps.Keys(want)) {
			if !kept[tok] {
				return model.Invalid(fmt.Sprintf("%s dropped the anchor %s: a line's provenance must be kept", p, tok))
			}
		}
	}
	return nil
}

func addAnchors(known map[string]bool, body string) {
	for l := range strings.SplitSeq(body, "\n") {
		if _, a, ok := distill.ParseAnchor(l); ok {
			for _, t := range anchorTokens(a) {
				known[t] = true
			}
		}
	}
}

func anchorTokens(a distill.Anchor) []string {
	var out []string
	for _, id := range a.IDs {
		out = append(out, fmt.Sprintf("s:%d", id))
	}
	for _, k := range a.Keys {
		out = append(out, "k:"+k)
	}
	return out
}

// journal is the model's file tools behind the write rule, remembering
// each file's content before the model's first write so a failed pass
// can be undone.
type journal struct {
	vf      VaultFiles
	inner   model.FileTools
	version string
	log     func(string)

	mu      sync.Mutex
	before  map[string][]byte
	existed map[string]bool
	order   []string
}

func (j *journal) Read(ctx context.Context, p string) (string, error) { return j.inner.Read(ctx, p) }
func (j *journal) List(ctx context.Context, d string) (string, error) { return j.inner.List(ctx, d) }
func (j *journal) Search(ctx context.Context, q string) (string, error) {
	return j.inner.Search(ctx, q)
}

// Write lets through only the files the version maintains; anything else
// (inputs, new folders, paths outside) is refused and logged.
func (j *journal) Write(ctx context.Context, p, content string) (string, error) {
	clean := path.Clean(strings.TrimPrefix(p, "./"))
	if !maintained(j.version, clean) || clean != strings.TrimPrefix(p, "./") {
		j.log(fmt.Sprintf("vault: refused model write to %q: not a file consolidation maintains", cutPath(p)))
		return "", memory.Errorf(memory.CodeInvalid, "writing %q is not allowed; write only %s", cutPath(p), strings.Join(maintainedList(j.version), ", "))
	}
	j.mu.Lock()
	if _, seen := j.existed[clean]; !seen {
		old, err := j.vf.Read(ctx, clean)
		switch {
		case err == nil:
			j.before[clean], j.existed[clean] = old, true
		case memory.IsCode(err, memory.CodeNotFound):
			j.existed[clean] = false
		default:
			j.mu.Unlock()
			if memory.IsCode(err, memory.CodeInvalid) {
				// The vault refused the path itself (a symbolic link on
				// the way, say): as much a refusal as any other.
				j.log(fmt.Sprintf("vault: refused model write to %q: %s", cutPath(p), memory.ErrorMessage(err)))
			}
			return "", err
		}
		j.order = append(j.order, clean)
	}
	j.mu.Unlock()
	return j.inner.Write(ctx, clean, content)
}

// written lists the files the model wrote, in order.
func (j *journal) written() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.order)
}

// undo puts every written file back as it was.
func (j *journal) undo(ctx context.Context) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, p := range j.order {
		var err error
		if j.existed[p] {
			err = j.vf.Write(ctx, p, j.before[p])
		} else if err = j.vf.Remove(ctx, p); memory.IsCode(err, memory.CodeNotFound) {
			err = nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func maintainedList(version string) []string {
	if version == distill.V2 {
		return []string{distill.SummaryPath}
	}
	return []string{distill.MemoryPath, distill.SummaryPath, "skills/<name>/SKILL.md"}
}

// cutSkill reads the name of skills/<name>/SKILL.md.
func cutSkill(p string) (string, bool) {
	name, ok := strings.CutSuffix(strings.TrimPrefix(p, "skills/"), "/SKILL.md")
	if !ok || !strings.HasPrefix(p, "skills/") || name == "" || strings.ContainsAny(name, "/.") {
		return "", false
	}
	return name, true
}

func cutPath(p string) string {
	if len(p) > 80 {
		return p[:80] + "..."
	}
	return p
}

package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// logLines collects what the model wiring logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }
func (l *logLines) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

var statementNumber = regexp.MustCompile(`(?m)^(\d+)\. \[`)

// twoSessions writes and imports two finished sessions, eight hours old.
func twoSessions(t *testing.T, eng *engine.Engine, t0 time.Time) {
	t.Helper()
	repo := t.TempDir()
	proj := filepath.Join(t.TempDir(), "projects", "repo")
	writeLines(t, filepath.Join(proj, "s1.jsonl"), claudeLines("s1", repo, t0.Add(-9*time.Hour), []ccTurn{
		{User: "We decided to use pnpm, never npm.", Answer: "Noted, pnpm it is."},
		{User: "Please run the tests.", Answer: "All tests pass.", ToolOutput: "ok  \tgithub.com/acme/pay\t0.41s\n"},
	}))
	writeLines(t, filepath.Join(proj, "s2.jsonl"), claudeLines("s2", repo, t0.Add(-8*time.Hour), []ccTurn{
		{User: "Always run make lint before pushing.", Answer: "Will do."},
	}))
	importClaude(t, eng, filepath.Join(proj, "s1.jsonl"))
	importClaude(t, eng, filepath.Join(proj, "s2.jsonl"))
}

// validExtraction answers phase 1 for the session in the message, citing
// the first statement it lists and one number that does not exist.
func validExtraction(msg string) string {
	cite := []int{99999}
	if m := statementNumber.FindStringSubmatch(msg); m != nil {
		var n int
		_ = json.Unmarshal([]byte(m[1]), &n)
		cite = append([]int{n}, cite...)
	}
	c, _ := json.Marshal(cite)
	task := "Switch the repo to pnpm"
	if strings.Contains(msg, "make lint") {
		task = "Agree on linting before pushes"
	}
	return `{"worth_keeping":true,"slug":"` + task + `","task":"` + task + `","task_group":"tooling","outcome":"success",
		"tasks":[{"task":"` + task + `","outcome":"success","evidence":"the user confirmed"}],"keywords":["pnpm","npm","lint"],
		"preference_signals":[{"text":"the user said \"never npm\"","statements":` + string(c) + `}],
		"knowledge":[{"text":"` + "`go test ./...`" + ` passes in github.com/acme/pay","statements":[]}],"failure_shields":[],
		"rollout_summary":"The user asked for pnpm; the tests passed."}`
}

func TestModelsExtractConsolidateAndCount(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	outside := t.TempDir()

	// Extraction and turn facts: an OpenAI-compatible endpoint. The first
	// extraction answer is not JSON, so it is retried once.
	var invalidSent bool
	var mu sync.Mutex
	chat, chatURL := newModelServer(t, "/v1/chat/completions", func(_ int, body map[string]any) (int, map[string]any) {
		msg := lastUserText(body)
		switch schemaName(body) {
		case "turn_facts":
			if strings.Contains(msg, "pnpm") {
				return 200, chatReply("gpt-4.1-mini-2025-04-14", `{"facts":[{"kind":"fact","subject":"repo","predicate":"package_manager","object":"pnpm","class":"convention","category":"dependency"},{"kind":"fact","subject":"repo","predicate":"note","object":"this fact has far too many words to be kept as a slot value","class":"task","category":"misc"}]}`, 300, 40)
			}
			return 200, chatReply("gpt-4.1-mini-2025-04-14", `{"facts":[]}`, 200, 5)
		case "session_extraction":
			mu.Lock()
			first := !invalidSent
			invalidSent = true
			mu.Unlock()
			if first {
				return 200, chatReply("gpt-4.1-mini-2025-04-14", "Sure! Here is what I found: nothing structured.", 2000, 50)
			}
			if strings.HasPrefix(msg, "That answer is not valid") {
				msgs := body["messages"].([]any)
				msg, _ = msgs[len(msgs)-3].(map[string]any)["content"].(string)
			}
			return 200, chatReply("gpt-4.1-mini-2025-04-14", validExtraction(msg), 2000, 300)
		}
		return 400, map[string]any{"error": map[string]any{"message": "unexpected request"}}
	})

	// Consolidation: the Anthropic Messages API, a multi-step agent that
	// reads, tries to leave the vault four ways, then rewrites MEMORY.md.
	var handbook string
	anth, anthURL := newModelServer(t, "/v1/messages", func(n int, body map[string]any) (int, map[string]any) {
		switch n {
		case 0:
			return 200, anthropicReply([]any{
				map[string]any{"type": "text", "text": "Let me look."},
				toolUse("t_read", "read_file", map[string]any{"path": "MEMORY.md"}),
				toolUse("t_list", "list_files", map[string]any{"dir": ""}),
			}, "tool_use")
		case 1:
			handbook = resultText(toolResults(body)["t_read"])
			return 200, anthropicReply([]any{
				toolUse("t_up", "write_file", map[string]any{"path": "../outside.md", "content": "escaped"}),
				toolUse("t_abs", "write_file", map[string]any{"path": filepath.Join(outside, "abs.md"), "content": "escaped"}),
				toolUse("t_etc", "read_file", map[string]any{"path": "../../../../etc/passwd"}),
				toolUse("t_input", "write_file", map[string]any{"path": "rollout_summaries/forged.md", "content": "forged"}),
			}, "tool_use")
		case 2:
			return 200, anthropicReply([]any{
				toolUse("t_write", "write_file", map[string]any{"path": "MEMORY.md", "content": handbook + "\n- Model note: pnpm everywhere.\n"}),
			}, "tool_use")
		case 3:
			return 200, anthropicReply([]any{map[string]any{"type": "text", "text": "Merged the handbook."}}, "end_turn")
		case 4:
			return 200, anthropicReply([]any{map[string]any{"type": "text", "text": "I can't help with rewriting this file."}}, "refusal")
		}
		return 400, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": "script ran out"}}
	})

	cfg := config.Default()
	cfg.Models.Extraction = "openai:gpt-4.1-mini"
	cfg.Models.TurnFacts = "openai:gpt-4.1-mini"
	cfg.Models.BaseURL = chatURL + "/v1"
	cfg.Models.Consolidation = "anthropic:claude-sonnet-4-5"
	cfg.Models.AnthropicURL = anthURL
	cfg.Models.MaxRetries = 0
	env := map[string]string{"OPENAI_API_KEY": "sk-test-openai", "ANTHROPIC_API_KEY": "sk-ant-test"}
	eng, db := w.engine(t, "proc-a", nil)
	var logs logLines
	if err := useModels(eng, cfg, func(k string) string { return env[k] }, logs.add); err != nil {
		t.Fatal(err)
	}

	twoSessions(t, eng, t0)
	// Turn facts ran in the background round, not in the import.
	if chat.count() != 0 {
		t.Fatalf("the import called the model %d times; turn facts wait for the background round", chat.count())
	}
	if _, err := eng.Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	facts, err := db.Statements(ctx, memory.LocalAccount, memory.StatementFilter{Current: true})
	if err != nil {
		t.Fatal(err)
	}
	var pm *memory.Statement
	for i, s := range facts {
		if s.Predicate == "package_manager" {
			pm = &facts[i]
		}
		if strings.Contains(s.Object, "far too many words") {
			t.Errorf("a fact over ten words was kept: %+v", s)
		}
	}
	if pm == nil || pm.Tier != memory.TierInferred || pm.Object != "pnpm" {
		t.Fatalf("turn fact: %+v", pm)
	}

	rep, err := eng.ExtractDue(ctx)
	if err != nil || rep.Extracted != 2 || rep.Failed != 0 || rep.Retried != 0 {
		t.Fatalf("phase 1: %+v %v", rep, err)
	}
	xs, err := db.Extractions(ctx, memory.LocalAccount, distill.V1)
	if err != nil || len(xs) != 2 {
		t.Fatalf("extractions: %v %v", xs, err)
	}
	for _, x := range xs {
		if x.Model != "openai:gpt-4.1-mini" || !strings.Contains(x.RawMemory, "## Preference signals") || strings.Contains(x.RawMemory, "99999") {
			t.Errorf("extraction %s: model %q, raw memory:\n%s", x.Slug, x.Model, x.RawMemory)
		}
	}

	reps, err := eng.Consolidate(ctx, true)
	if err != nil || len(reps) != 1 || reps[0].Model == nil {
		t.Fatalf("phase 2: %+v %v", reps, err)
	}
	mp := reps[0].Model
	if mp.Fallback != "" || len(mp.Written) != 1 || mp.Written[0] != distill.MemoryPath || mp.Calls != 4 || mp.Tools != 7 {
		t.Fatalf("model pass: %+v", mp)
	}
	if len(mp.Refused) != 4 {
		t.Errorf("refused accesses: %q", mp.Refused)
	}
	if !strings.Contains(w.read(t, distill.MemoryPath), "Model note: pnpm everywhere.") {
		t.Error("the model's handbook was not kept")
	}
	// Nothing outside the vault was touched, and the input was not forged.
	if _, err := os.Stat(filepath.Join(w.dataDir, "outside.md")); err == nil {
		t.Error("the model wrote beside the vault")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("the model wrote outside: %v", ents)
	}
	if w.exists("rollout_summaries/forged.md") {
		t.Error("the model wrote an input file")
	}
	// The refusals went back to the model as tool errors, and were logged.
	res := toolResults(anth.requests[2])
	for _, id := range []string{"t_up", "t_abs", "t_etc", "t_input"} {
		if res[id]["is_error"] != true {
			t.Errorf("%s: %v", id, res[id])
		}
	}
	if got := logs.all(); strings.Count(got, "refused model") != 4 {
		t.Errorf("log:\n%s", got)
	}
	// The first request carried the diff and raw_memories.md, marked as data.
	first := anth.requests[0]["messages"].([]any)[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	if !strings.Contains(first, "<<<CAIRN-DATA raw_memories.md") || !strings.Contains(first, "added rollout_summaries/") {
		t.Errorf("first consolidation message:\n%s", first)
	}

	// A hand edit, then a model that refuses: the deterministic files stay,
	// the edit is honoured.
	w.write(t, distill.MemoryPath, w.read(t, distill.MemoryPath)+"\n- Keep the changelog in CHANGES.md.\n")
	reps, err = eng.Consolidate(ctx, true)
	if err != nil || reps[0].Model == nil || !strings.Contains(reps[0].Model.Fallback, "refused") {
		t.Fatalf("refusing model: %+v %v", reps, err)
	}
	if len(reps[0].Model.Written) != 0 {
		t.Errorf("a refused pass kept files: %v", reps[0].Model.Written)
	}
	if after := w.read(t, distill.MemoryPath); !regexp.MustCompile(`Keep the changelog in CHANGES\.md\. <!-- s:\d+ -->`).MatchString(after) {
		t.Errorf("the hand edit is not a note with its anchor after the fallback:\n%s", after)
	}

	// `cairn costs` shows every call the servers answered.
	t.Setenv("CAIRN_HOME", w.dataDir)
	code, out, errOut := run(t, "costs", "--since", "2000-01-01", "--json")
	if code != 0 {
		t.Fatalf("costs: %d %s", code, errOut)
	}
	var cr engine.CostReport
	if err := json.Unmarshal([]byte(out), &cr); err != nil {
		t.Fatal(err)
	}
	want := chat.count() + anth.count()
	if len(cr.Calls) != want {
		t.Fatalf("costs lists %d calls, the servers answered %d:\n%s", len(cr.Calls), want, out)
	}
	phases := map[string]int{}
	for _, c := range cr.Calls {
		phases[c.Phase]++
		if c.Status == model.CallOK && (c.In == 0 || !c.Priced || c.CostUSD <= 0) {
			t.Errorf("call without tokens or price: %+v", c)
		}
	}
	if phases[model.PhaseExtraction] != 3 || phases[model.PhaseConsolidation] != 5 || phases[model.PhaseTurnFacts] != 3 {
		t.Errorf("calls by phase: %v", phases)
	}
	if cr.TotalUSD <= 0 {
		t.Errorf("total %v", cr.TotalUSD)
	}
	code, out, _ = run(t, "costs", "--since", "2000-01-01")
	if code != 0 || !strings.Contains(out, "consolidation") || !strings.Contains(out, "claude-sonnet-4-5-20250929") {
		t.Errorf("costs table:\n%s", out)
	}
}

func TestModelBudgetSpentMidPass(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	chat, chatURL := newModelServer(t, "/v1/chat/completions", func(_ int, body map[string]any) (int, map[string]any) {
		return 200, chatReply("gpt-4.1-mini", validExtraction(lastUserText(body)), 100000, 1000)
	})
	cfg := config.Default()
	cfg.Models.Extraction = "openai:gpt-4.1-mini"
	cfg.Models.BaseURL = chatURL + "/v1"
	cfg.Models.DailyBudget = 0.01 // one call of 100,000 tokens at $0.40/M spends it
	cfg.Models.MaxRetries = 0
	cfg.Phase1.Parallel = 1
	eng, db := w.engineWith(t, cfg)
	if err := useModels(eng, cfg, func(string) string { return "" }, nil); err != nil {
		t.Fatal(err)
	}
	twoSessions(t, eng, t0)
	rep, err := eng.ExtractDue(ctx)
	if err != nil || rep.Extracted != 1 || rep.Deferred != 1 || rep.Failed != 0 || rep.Retried != 0 {
		t.Fatalf("phase 1 with the budget spent after one call: %+v %v", rep, err)
	}
	if chat.count() != 1 {
		t.Fatalf("the endpoint got %d calls, want 1", chat.count())
	}
	calls, err := db.ModelCalls(ctx, memory.LocalAccount, time.Time{})
	if err != nil || len(calls) != 2 || calls[0].Status != model.CallOK || calls[1].Status != model.CallSkipped {
		t.Fatalf("recorded calls: %+v %v", calls, err)
	}
	// Later the same day nothing runs; the next day the session is extracted.
	w.clock.add(time.Hour)
	if rep, err := eng.ExtractDue(ctx); err != nil || rep.Extracted != 0 {
		t.Fatalf("same day: %+v %v", rep, err)
	}
	w.clock.add(24 * time.Hour)
	if rep, err := eng.ExtractDue(ctx); err != nil || rep.Extracted != 1 || rep.Deferred != 0 {
		t.Fatalf("next day: %+v %v", rep, err)
	}
	if n, _ := db.JobAttempts(ctx, memory.LocalAccount, 2, distill.V1); n != 0 {
		t.Errorf("a deferred job counted %d failed attempts", n)
	}
}

func TestModelExtractionRetriesThenFails(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	chat, chatURL := newModelServer(t, "/v1/chat/completions", func(_ int, body map[string]any) (int, map[string]any) {
		return 200, chatReply("gpt-4.1-mini", `{"worth_keeping":true,"slug":"x","task":"x","task_group":"x","outcome":"great",`+
			`"tasks":[],"keywords":[],"preference_signals":[],"knowledge":[],"failure_shields":[],"rollout_summary":"x"}`, 10, 10)
	})
	cfg := config.Default()
	cfg.Models.Extraction = "openai:gpt-4.1-mini"
	cfg.Models.BaseURL = chatURL + "/v1"
	cfg.Models.MaxRetries = 0
	cfg.Phase1.MaxAttempts = 1
	eng, db := w.engineWith(t, cfg)
	if err := useModels(eng, cfg, func(string) string { return "" }, nil); err != nil {
		t.Fatal(err)
	}
	twoSessions(t, eng, t0)
	rep, err := eng.ExtractDue(ctx)
	if err != nil || rep.Failed != 2 || rep.Extracted != 0 {
		t.Fatalf("%+v %v", rep, err)
	}
	if chat.count() != 4 {
		t.Errorf("each session was asked %v times in all, want twice", float64(chat.count())/2)
	}
	if xs, _ := db.Extractions(ctx, memory.LocalAccount, distill.V1); len(xs) != 0 {
		t.Errorf("an invalid answer was stored: %+v", xs)
	}
}

// engineWith is vaultWorld.engine with a configuration of the test's.
func (w *vaultWorld) engineWith(t *testing.T, cfg config.Config) (*engine.Engine, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(w.dataDir, "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Now = w.clock.now
	eng := engine.New(db, engine.Options{Config: cfg, Resolve: gitdir.Resolve, Readers: readers(),
		Now: w.clock.now, Owner: "proc-a", Vaults: vaultOpener(w.dataDir)})
	t.Cleanup(func() { eng.Close() })
	return eng, db
}

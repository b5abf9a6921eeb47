package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// TestClaudeCLIExtracts runs phase 1 through the claude-cli provider with
// a scripted executable in claude's place: it answers with the JSON
// result claude -p prints, and notes the preset it ran under.
func TestClaudeCLIExtracts(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	bin := t.TempDir()
	answer := `{"worth_keeping":true,"slug":"pnpm","task":"Use pnpm","task_group":"tooling","outcome":"success","tasks":[],"keywords":["pnpm"],"preference_signals":[],"knowledge":[],"failure_shields":[],"rollout_summary":"The user chose pnpm."}`
	result := strings.ReplaceAll(answer, `"`, `\"`)
	script := "#!/bin/sh\ncat > /dev/null\nprintf '%s\\n' \"$CAIRN_PRESET\" >> " + bin + "/presets\n" +
		`echo '{"type":"result","subtype":"success","is_error":false,"result":"` + result + `","stop_reason":"end_turn","total_cost_usd":0.002,"usage":{"input_tokens":900,"output_tokens":80},"modelUsage":{"claude-haiku-4-5":{}}}'` + "\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Models.Extraction = "claude-cli:haiku"
	cfg.Models.ClaudeCommand = filepath.Join(bin, "claude")
	eng, db := w.engineWith(t, cfg)
	if err := useModels(eng, cfg, func(string) string { return "" }, nil); err != nil {
		t.Fatal(err)
	}
	twoSessions(t, eng, t0)
	rep, err := eng.ExtractDue(ctx)
	if err != nil || rep.Extracted != 2 {
		t.Fatalf("%+v %v", rep, err)
	}
	presets, _ := os.ReadFile(filepath.Join(bin, "presets"))
	if strings.Count(string(presets), "private\n") != 2 {
		t.Errorf("the CLI ran with CAIRN_PRESET %q", presets)
	}
	xs, _ := db.Extractions(ctx, memory.LocalAccount, distill.V1)
	if len(xs) != 2 || xs[0].Model != "claude-cli:haiku" {
		t.Fatalf("extractions %+v", xs)
	}
	calls, _ := db.ModelCalls(ctx, memory.LocalAccount, time.Time{})
	if len(calls) != 2 || calls[0].Provider != "claude-cli" || calls[0].Model != "claude-haiku-4-5" || calls[0].CostUSD != 0.002 {
		t.Fatalf("calls %+v", calls)
	}
}

// TestConsolidationBudgetSpentMidLoop: the budget runs out between two
// steps of the agent loop; the files it wrote are put back and the pass
// reports the skip.
func TestConsolidationBudgetSpentMidLoop(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	anth, anthURL := newModelServer(t, "/v1/messages", func(n int, body map[string]any) (int, map[string]any) {
		r := anthropicReply([]any{toolUse("t1", "write_file", map[string]any{"path": "MEMORY.md", "content": "# half-written\n"})}, "tool_use")
		r["usage"] = map[string]any{"input_tokens": 100000, "output_tokens": 1000} // $0.315 at sonnet prices
		return 200, r
	})
	cfg := config.Default()
	cfg.Models.Consolidation = "anthropic:claude-sonnet-4-5"
	cfg.Models.AnthropicURL = anthURL
	cfg.Models.DailyBudget = 0.10
	eng, _ := w.engineWith(t, cfg)
	if err := useModels(eng, cfg, func(k string) string { return map[string]string{"ANTHROPIC_API_KEY": "k"}[k] }, nil); err != nil {
		t.Fatal(err)
	}
	twoSessions(t, eng, t0)
	if _, err := eng.ExtractDue(ctx); err != nil {
		t.Fatal(err)
	}
	reps, err := eng.Consolidate(ctx, true)
	if err != nil || reps[0].Model == nil {
		t.Fatalf("%+v %v", reps, err)
	}
	mp := reps[0].Model
	if !mp.Skipped || mp.Calls != 2 || anth.count() != 1 {
		t.Fatalf("model pass %+v, server calls %d", mp, anth.count())
	}
	if strings.Contains(w.read(t, distill.MemoryPath), "half-written") {
		t.Error("the half-written handbook was kept")
	}
}

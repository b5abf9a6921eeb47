package app

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// TestOwnToolOutputIsNotKept: what cairn's own MCP tools returned to an
// agent is recalled memory; stored again it would come back in later
// searches as if it were a new memory (found by the real-clients suite).
func TestOwnToolOutputIsNotKept(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	eng, _ := clockEngine(t, filepath.Join(t.TempDir(), "cairn.db"), &now)
	repo := t.TempDir()
	lines := claudeLines("own", repo, now.Add(-time.Hour), []ccTurn{{User: "How do we cache the router?", Answer: "As decided before: a plain Map."}})
	// Insert a memory_search call and its result before the answer.
	var call, result map[string]any
	json.Unmarshal([]byte(`{"type":"assistant","message":{"id":"m0","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"tu1","name":"mcp__cairn__memory_search","input":{"query":"router cache"}}],"stop_reason":"tool_use"}}`), &call)
	json.Unmarshal([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"Memory from cairn: 1 hit for router cache: n3 zebracorn decision: plain Map with a size cap"}]}}`), &result)
	var first map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	for i, m := range []map[string]any{call, result} {
		m["uuid"], m["sessionId"], m["cwd"], m["timestamp"], m["version"] = "own-x"+string(rune('a'+i)), "own", repo, first["timestamp"], "2.1.38"
	}
	call["parentUuid"], result["parentUuid"] = first["uuid"], "own-xa"
	var answer map[string]any
	json.Unmarshal([]byte(lines[1]), &answer)
	answer["parentUuid"] = "own-xb"
	b1, _ := json.Marshal(call)
	b2, _ := json.Marshal(result)
	b3, _ := json.Marshal(answer)
	path := filepath.Join(t.TempDir(), "own.jsonl")
	writeLines(t, path, []string{lines[0], string(b1), string(b2), string(b3)})
	importClaude(t, eng, path)

	s, err := eng.Session(ctx, "own")
	if err != nil {
		t.Fatal(err)
	}
	var sawCall, sawResult bool
	for _, p := range s.Turns[0].Parts {
		switch p.Kind {
		case memory.KindToolCall:
			sawCall = true
		case memory.KindToolResult:
			sawResult = true
			if strings.Contains(p.Text, "zebracorn") {
				t.Errorf("the tool's output was kept: %q", p.Text)
			}
		}
	}
	if !sawCall || !sawResult {
		t.Fatalf("the fixture's tool call is missing: %+v", s.Turns[0].Parts)
	}
	res, err := eng.Search(ctx, engine.SearchRequest{Query: "zebracorn", Cwd: repo, Rung: memory.RungEverywhere})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 0 {
		t.Fatalf("recalled memory came back as a search hit: %+v", res.Hits)
	}
}

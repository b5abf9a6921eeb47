package capture_test

import (
	"testing"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
)

func TestLearnable(t *testing.T) {
	done := memory.TurnCompleted
	tests := []struct {
		name     string
		turn     memory.Turn
		external bool
		want     bool
	}{
		{"plain completed turn", memory.Turn{Status: done, Request: "Add an .nvmrc file"}, false, true},
		{"cut short", memory.Turn{Status: memory.TurnCutShort, Request: "Add an .nvmrc file"}, true, false},
		{"refused", memory.Turn{Status: memory.TurnRefused, Request: "Add an .nvmrc file"}, true, false},
		{"failed", memory.Turn{Status: memory.TurnFailed, Request: "Add an .nvmrc file"}, true, false},
		{"no user text", memory.Turn{Status: done, Outcome: "hi"}, true, false},
		{"only recalled memory", memory.Turn{Status: done, Request: "<cairn-memory>name Ana</cairn-memory>"}, true, false},
		{"recall question", memory.Turn{Status: done, Request: "Where did I leave off yesterday?"}, true, false},
		{"chinese recall question", memory.Turn{Status: done, Request: "我上次做到哪了"}, true, false},
		{"turkish recall question", memory.Turn{Status: done, Request: "nerede kalmıştım"}, true, false},
		{"recall question with new content", memory.Turn{Status: done, Request: "Where did I leave off? Also, always use pnpm."}, false, true},
		{"external context, not allowed", memory.Turn{Status: done, Request: "summarize the file", Flags: memory.FromFiles}, false, false},
		{"external context, allowed", memory.Turn{Status: done, Request: "summarize the file", Flags: memory.FromFiles}, true, true},
		{"mcp, not allowed", memory.Turn{Status: done, Request: "ask the notes server", Flags: memory.FromMCP}, false, false},
		{"recalled memory flag, not allowed", memory.Turn{Status: done, Request: "go on", Flags: memory.FromRecalledMemory}, false, false},
		{"recalled memory flag, allowed", memory.Turn{Status: done, Request: "go on", Flags: memory.FromRecalledMemory}, true, true},
	}
	for _, tc := range tests {
		if got := capture.Learnable(tc.turn, tc.external); got != tc.want {
			t.Errorf("%s: Learnable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

package codex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func FuzzParse(f *testing.F) {
	for _, name := range []string{
		"codemie_turn-1_SYNTHETIC.jsonl",
		"codemie_turn-spawn-skill_SYNTHETIC.jsonl",
		"localpush_REDACTED_rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	seeds := []string{
		"",
		"{}\n",
		"not json\n{\"type\":1}\n",
		(&rollout{}).meta(`,"forked_from_id":"p"`).add("session_meta", `{"id":"p"}`).started("t").user("a <cairn-memory>x</cairn-memory> b").
			add("event_msg", `{"type":"turn_aborted","reason":"interrupted"}`).String(),
		(&rollout{}).meta("").user("x").add("response_item", `{"type":"function_call","name":"f","arguments":"{\"a\":[1,{\"b\":null}]}","call_id":"c"}`).
			add("response_item", `{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"t"}]}`).
			add("event_msg", `{"type":"thread_rolled_back","num_turns":5}`).String(),
		`{"timestamp":"2026-06-01T10:00:00Z","ordinal":0,"type":"session_meta","payload":{"id":"c","subagent_history_start_ordinal":"x","source":{"subagent":"review"}}}` + "\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(context.Background(), strings.NewReader(string(data)))
		if err != nil {
			t.Fatalf("Parse failed on in-memory input: %v", err)
		}
		if res.Stats.Consumed > int64(len(data)) || res.Stats.Consumed < 0 {
			t.Fatalf("consumed %d of %d bytes", res.Stats.Consumed, len(data))
		}
		if len(res.Sessions) > 1 {
			t.Fatalf("%d sessions from one stream", len(res.Sessions))
		}
		for _, s := range res.Sessions {
			for i, turn := range s.Turns {
				if turn.Seq != i || turn.Key == "" {
					t.Fatalf("turn %d: seq %d key %q", i, turn.Seq, turn.Key)
				}
				texts := []string{turn.Request, turn.Outcome}
				for j, p := range turn.Parts {
					if p.Seq != j {
						t.Fatalf("turn %d part %d has seq %d", i, j, p.Seq)
					}
					texts = append(texts, p.Text)
				}
				for _, x := range texts {
					if strings.Contains(x, memory.MarkerOpen) || strings.Contains(x, "<cairn-memory ") {
						t.Fatalf("marker survived: %q", x)
					}
				}
			}
		}
		for _, r := range res.Stats.Reasons() {
			if len(r) > 80 {
				t.Fatalf("skip reason too long, may hold transcript text: %q", r)
			}
		}
		Sniff(data)
	})
}

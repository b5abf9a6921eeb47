package clicmd

import "testing"

// FuzzParseOutput: whatever a CLI prints, reading it returns an answer or
// an error, never a panic, and a tool call always has a name.
func FuzzParseOutput(f *testing.F) {
	f.Add([]byte(`{"type":"result","is_error":false,"result":"hi","usage":{"input_tokens":1,"output_tokens":2}}`))
	f.Add([]byte("{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":3}}\n{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"x\"}}"))
	f.Add([]byte(`{"tool_calls":[{"name":"read_file","arguments":{"path":"a"}}]}`))
	f.Add([]byte("```json\n{\"tool_calls\":[{}]}\n```"))
	f.Fuzz(func(t *testing.T, out []byte) {
		_, _ = parseClaude(out)
		_, _ = parseCodex(out)
		if calls, ok := parseCalls(string(out)); ok {
			for _, c := range calls {
				if c.ID == "" {
					t.Fatalf("call without id: %+v", c)
				}
			}
		}
	})
}

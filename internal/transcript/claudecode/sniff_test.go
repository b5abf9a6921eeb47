package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// headSize is what `cairn import` hands to Sniff.
const headSize = 4 << 10

func TestSniffFixtures(t *testing.T) {
	for _, c := range fixtureCases {
		data, err := os.ReadFile(filepath.Join("testdata", c.path))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > headSize {
			data = data[:headSize]
		}
		if !Sniff(data) {
			t.Errorf("%s: not recognized", c.path)
		}
	}
}

func TestSniff(t *testing.T) {
	long := `{"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"` + strings.Repeat("a", headSize) + `"}}`
	cases := []struct {
		name, head string
		want       bool
	}{
		{"empty", "", false},
		{"user line", `{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{}}` + "\n", true},
		{"summary", `{"type":"summary","summary":"x","leafUuid":"l"}` + "\n", true},
		{"snapshot then cut", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n" + `{"type":"us`, true},
		{"first line longer than the head", long[:headSize], true},
		{"codex rollout", `{"timestamp":"2026-05-11T11:26:55.000Z","type":"session_meta","payload":{"id":"019e","cwd":"/w","originator":"codex-tui"}}` + "\n", false},
		{"opencode export", `{"info":{"id":"ses_1","title":"t","version":"1.3.13"},"messages":[`, false},
		{"other jsonl", `{"type":"user","name":"bob"}` + "\n" + `{"level":"info"}` + "\n", false},
		{"not json", "hello world\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Sniff([]byte(c.head)); got != c.want {
				t.Errorf("Sniff = %v, want %v", got, c.want)
			}
		})
	}
}

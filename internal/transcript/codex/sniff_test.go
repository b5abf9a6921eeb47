package codex

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSniffFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The first line of a real rollout is longer than 4 KB (it holds the
		// system prompt), so the head is a cut-off line.
		head := data[:min(len(data), 4096)]
		if !Sniff(head) {
			t.Errorf("%s: not recognized", filepath.Base(f))
		}
		if IsZstd(head) {
			t.Errorf("%s: taken for zstd", filepath.Base(f))
		}
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		name string
		head string
		want bool
	}{
		{"session_meta, complete", `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}` + "\n", true},
		{"session_meta, cut in payload", `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x","base_instructions":{"text":"You are`, true},
		{"session_meta, cut before payload", `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","pay`, true},
		{"response item first", `{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"message"}}`, true},
		{"with BOM", "\xef\xbb\xbf" + `{"timestamp":"t","type":"event_msg","payload":{}}`, true},
		{"claude code line", `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-01-01T00:00:00Z"}`, false},
		{"claude code summary", `{"type":"summary","summary":"x","leafUuid":"y"}`, false},
		{"unknown type", `{"timestamp":"t","type":"other","payload":{}}`, false},
		{"payload not an object", `{"timestamp":"t","type":"session_meta","payload":"x"}`, false},
		{"type not a string", `{"timestamp":"t","type":1,"payload":{}}`, false},
		{"event without payload", `{"timestamp":"t","type":"event_msg"}`, false},
		{"not json", "hello world", false},
		{"array", `[{"type":"session_meta"}]`, false},
		{"empty", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Sniff([]byte(c.head)); got != c.want {
				t.Errorf("Sniff = %v, want %v", got, c.want)
			}
		})
	}
}

func TestIsZstd(t *testing.T) {
	if !IsZstd([]byte{0x28, 0xB5, 0x2F, 0xFD, 0x04}) || IsZstd([]byte{0x28, 0xB5}) || IsZstd([]byte("{}")) {
		t.Error("IsZstd misreads the magic bytes")
	}
}

package codex

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRenderArguments(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"json string holding an object", `"{\"cmd\":\"echo hi\\necho bye\",\"workdir\":\"/w\",\"tty\":true,\"n\":3}"`,
			"cmd: echo hi\necho bye\nworkdir: /w\ntty: true\nn: 3"},
		{"key order kept", `"{\"z\":1,\"a\":2}"`, "z: 1\na: 2"},
		{"nested", `"{\"plan\":[{\"step\":\"one\",\"status\":\"done\"},\"two\"],\"opts\":{\"x\":null},\"e\":[],\"o\":{}}"`,
			"plan:\n  - step: one\n    status: done\n  - two\nopts:\n  x: null\ne: []\no: {}"},
		{"object, not a string", `{"path":"a.go"}`, "path: a.go"},
		{"not json inside", `"[REDACTED_ARGUMENTS len=4]"`, "[REDACTED_ARGUMENTS len=4]"},
		{"broken json inside", `"{\"a\":"`, `{"a":`},
		{"scalar inside", `"42"`, "42"},
		{"null", `null`, ""},
		{"empty", ``, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderArguments(json.RawMessage(c.in)); got != c.want {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestRenderArgumentsTooDeep(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100)
	raw, _ := json.Marshal(deep)
	if got := renderArguments(raw); got != deep {
		t.Errorf("deep input not kept raw: %.60q", got)
	}
}

func TestRenderOutput(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		text  string
		err   bool
		image bool
	}{
		{"plain text", `"hello"`, "hello", false, false},
		{"exit code 0", `"Chunk ID: 1\nProcess exited with code 0\nOutput:\nok"`, "Chunk ID: 1\nProcess exited with code 0\nOutput:\nok", false, false},
		{"exit code 2", `"Process exited with code 2\nOutput:\nboom"`, "Process exited with code 2\nOutput:\nboom", true, false},
		{"json output with metadata", `"{\"output\":\"Success.\",\"metadata\":{\"exit_code\":1}}"`, "Success.", true, false},
		{"json that is not the output shape", `"{\"x\":1}"`, `{"x":1}`, false, false},
		{"content items", `[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"data:x"}]`, "a\n[image]", false, true},
		{"object with content and failure", `{"content":"nope","success":false}`, "nope", true, false},
		{"object with content items", `{"content_items":[{"type":"output_text","text":"b"}]}`, "b", false, false},
		{"null", `null`, "", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := renderOutput(json.RawMessage(c.in))
			if got.text != c.text || got.isError != c.err || got.image != c.image {
				t.Errorf("got %+v, want %q err=%v image=%v", got, c.text, c.err, c.image)
			}
		})
	}
}

func TestSplitRequest(t *testing.T) {
	cases := []struct {
		in, context, words string
		files              bool
	}{
		{"just words\n", "", "just words", false},
		{"\n# Files mentioned by the user:\n\n## a.vtt: /d/a.vtt\n\n## My request for Codex:\nsummarize\n", "# Files mentioned by the user:\n\n## a.vtt: /d/a.vtt", "summarize", true},
		{"# Context from my IDE setup:\n\n## Open tabs:\n- a.go\n\n## My request for Codex:\nfix it", "# Context from my IDE setup:\n\n## Open tabs:\n- a.go", "fix it", true},
		{"<annotations>x</annotations>\n\n## My request for Codex:\nwhy?", "<annotations>x</annotations>", "why?", false},
	}
	for _, c := range cases {
		ctx, words, f := splitRequest(c.in)
		if ctx != c.context || words != c.words || (f != 0) != c.files {
			t.Errorf("splitRequest(%q) = %q, %q, %v", c.in, ctx, words, f)
		}
	}
}

func TestUUIDv7Time(t *testing.T) {
	got, ok := uuidV7Time("019e1625-789d-76c0-80ab-3724b5ddb799")
	// The rollout's file name says it was made at 2026-05-11T11-26-55 local
	// time (UTC+3); its session_meta timestamp is 08:26:55.042Z.
	if !ok || got.Format("2006-01-02T15:04:05.000Z") != "2026-05-11T08:26:55.005Z" {
		t.Errorf("uuidV7Time = %v, %v", got, ok)
	}
	for _, bad := range []string{"a1b2c3d4-e5f6-4890-abcd-ef1234567890", "turn-1", "", "019e1625-789d-76c0-80ab-3724b5ddb79"} {
		if _, ok := uuidV7Time(bad); ok {
			t.Errorf("uuidV7Time(%q) accepted", bad)
		}
	}
}

package evaluate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadJSONLSample(t *testing.T) {
	ds, err := LoadFile(FormatJSONL, filepath.Join("testdata", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := Dataset{
		Name: "tiny",
		Conversations: []Conversation{
			{ID: "c1", Speakers: []string{"Ada", "Bo"}, Sessions: []Session{
				{ID: "s1", Time: utc("2024-03-03T09:05:00Z"), Turns: []Turn{
					{ID: "t1", Speaker: "Ada", Text: "I booked the ferry to the island.", Time: utc("2024-03-03T09:05:00Z")},
					{ID: "t2", Speaker: "Bo", Text: "Look at this! [shared image: a red kite]", Time: utc("2024-03-03T09:06:00Z")},
				}},
				{ID: "s2", Time: utc("2024-03-28T21:30:00Z"), Turns: []Turn{
					{ID: "t3", Speaker: "Bo", Text: "The kite broke in the storm.", Time: utc("2024-03-28T21:45:00Z")},
				}},
			}},
			{ID: "c2", Sessions: []Session{
				{ID: "s1", Time: utc("2024-05-05T00:00:00Z"), Turns: []Turn{
					{ID: "u1", Speaker: "Cy", Text: "Hello.", Time: utc("2024-05-05T00:00:00Z")},
				}},
			}},
		},
		Questions: []Question{
			{ID: "q1", Conversation: "c1", Text: "How did Ada travel to the island?", Evidence: []string{"t1"}, Category: SingleHop, Answer: "By ferry"},
			{ID: "q2", Conversation: "c1", Text: "What broke the kite?", Evidence: []string{"t2", "t3"}, Category: MultiHop},
			{ID: "q3", Conversation: "c2", Text: "Who greeted?", Evidence: []string{"u1", "u9"}, Category: "greeting"},
			{ID: "q4", Conversation: "c2", Text: "What did Di say?"},
		},
		Warnings: []string{"q3: evidence u9 names no turn of c2"},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("got  %+v\nwant %+v", ds, want)
	}
}

func TestLoadJSONLErrors(t *testing.T) {
	const (
		conv = `{"type":"conversation","id":"c"}` + "\n"
		sess = `{"type":"session","conversation":"c","id":"s","time":"2024-01-01T00:00:00Z"}` + "\n"
		turn = `{"type":"turn","conversation":"c","session":"s","id":"t","speaker":"A","text":"x"}` + "\n"
	)
	tests := []struct {
		name string
		in   string
		line int
		want string
	}{
		{"not json", "{\n", 1, "not a JSON object"},
		{"array", "[1]\n", 1, "not a JSON object"},
		{"no type", `{"id":"c"}`, 1, `no "type" field`},
		{"unknown type", `{"type":"utterance"}`, 1, `unknown type "utterance"`},
		{"unknown field", `{"type":"conversation","id":"c","title":"x"}`, 1, `unknown field "title"`},
		{"misspelt evidence", conv + `{"type":"question","conversation":"c","id":"q","question":"?","evidance":["t"]}`, 2, `unknown field "evidance"`},
		{"wrong field type", `{"type":"conversation","id":7}`, 1, "cannot unmarshal number"},
		{"two dataset lines", `{"type":"dataset","name":"a"}` + "\n\n" + `{"type":"dataset"}`, 3, "second dataset record (first on line 1)"},
		{"conversation without id", `{"type":"conversation","id":" "}`, 1, "conversation has no id"},
		{"duplicate conversation", conv + "\n" + conv, 3, `duplicate conversation id "c" (first on line 1)`},
		{"session before conversation", sess + conv, 1, `unknown conversation "c"`},
		{"session without conversation", `{"type":"session","id":"s","time":"2024-01-01"}`, 1, `no "conversation" field`},
		{"session without id", conv + `{"type":"session","conversation":"c","time":"2024-01-01"}`, 2, "session has no id"},
		{"session without time", conv + `{"type":"session","conversation":"c","id":"s"}`, 2, `session "s" has no time`},
		{"session bad time", conv + `{"type":"session","conversation":"c","id":"s","time":"8 May 2023"}`, 2, `session "s": bad time "8 May 2023"`},
		{"duplicate session", conv + sess + sess, 3, `duplicate session id "s" in conversation "c" (first on line 2)`},
		{"turn unknown conversation", conv + sess + `{"type":"turn","conversation":"d","session":"s","id":"t","speaker":"A","text":"x"}`, 3, `unknown conversation "d"`},
		{"turn unknown session", conv + sess + `{"type":"turn","conversation":"c","session":"z","id":"t","speaker":"A","text":"x"}`, 3, `turn "t": unknown session "z" in conversation "c"`},
		{"turn without session", conv + sess + `{"type":"turn","conversation":"c","id":"t","speaker":"A","text":"x"}`, 3, `turn "t" has no session`},
		{"turn without id", conv + sess + `{"type":"turn","conversation":"c","session":"s","speaker":"A","text":"x"}`, 3, "turn has no id"},
		{"turn without speaker", conv + sess + `{"type":"turn","conversation":"c","session":"s","id":"t","text":"x"}`, 3, `turn "t" has no speaker`},
		{"turn bad time", conv + sess + `{"type":"turn","conversation":"c","session":"s","id":"t","speaker":"A","text":"x","time":"noon"}`, 3, `turn "t": bad time "noon"`},
		{"duplicate turn", conv + sess + turn + turn, 4, `duplicate turn id "t" in conversation "c" (first on line 3)`},
		{"duplicate turn across sessions", conv + sess + turn + `{"type":"session","conversation":"c","id":"s2","time":"2024-01-02"}` + "\n" + strings.Replace(turn, `"session":"s"`, `"session":"s2"`, 1), 5, `duplicate turn id "t" in conversation "c" (first on line 3)`},
		{"question unknown conversation", `{"type":"question","conversation":"c","id":"q","question":"?","evidence":[]}`, 1, `unknown conversation "c"`},
		{"question without id", conv + `{"type":"question","conversation":"c","question":"?","evidence":[]}`, 2, "question has no id"},
		{"question without text", conv + `{"type":"question","conversation":"c","id":"q","evidence":[]}`, 2, `question "q" has no question text`},
		{"question blank evidence", conv + `{"type":"question","conversation":"c","id":"q","question":"?","evidence":["t",""]}`, 2, `question "q": blank turn id in evidence`},
		{"duplicate question", conv + `{"type":"question","conversation":"c","id":"q","question":"?","evidence":[]}` + "\n" + `{"type":"question","conversation":"c","id":"q","question":"!","evidence":[]}`, 3, `duplicate question id "q" (first on line 2)`},
		{"trailing garbage", conv + `{"type":"conversation","id":"d"} x`, 2, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadJSONL(strings.NewReader(tt.in))
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a *LineError", err)
			}
			if le.Line != tt.line || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q (line %d), want line %d and %q", err, le.Line, tt.line, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "load jsonl: line ") {
				t.Errorf("error %q does not name the operation and line", err)
			}
		})
	}
}

// TestLoadJSONLLongLines: turns far over 64 KiB, and a file with CRLF
// endings and no final newline.
func TestLoadJSONLLongLines(t *testing.T) {
	long := strings.Repeat("kite ", 300<<10/5)
	in := `{"type":"conversation","id":"c"}` + "\r\n" +
		`{"type":"session","conversation":"c","id":"s","time":"2024-01-01T00:00:00Z"}` + "\r\n" +
		`{"type":"turn","conversation":"c","session":"s","id":"t1","speaker":"A","text":"` + long + `"}` + "\r\n" +
		`{"type":"turn","conversation":"c","session":"s","id":"t2","speaker":"B","text":"` + long + `!"}`
	ds, err := LoadJSONL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	turns := ds.Conversations[0].Sessions[0].Turns
	if len(turns) != 2 || turns[0].Text != long || turns[1].Text != long+"!" {
		t.Fatalf("long turns not read whole: %d turns", len(turns))
	}
}

func TestJSONLRoundTrip(t *testing.T) {
	for _, src := range []struct{ format, path string }{
		{FormatJSONL, filepath.Join("testdata", "sample.jsonl")},
		{FormatLoCoMo, filepath.Join("testdata", "locomo_sample.json")},
	} {
		t.Run(filepath.Base(src.path), func(t *testing.T) {
			ds, err := LoadFile(src.format, src.path)
			if err != nil {
				t.Fatal(err)
			}
			assertRoundTrip(t, ds)
		})
	}
}

// assertRoundTrip writes ds as JSONL, reads it back and wants the same
// dataset (warnings aside: the LoCoMo ones about evidence strings do not
// survive conversion, by design).
func assertRoundTrip(t *testing.T, ds Dataset) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, ds); err != nil {
		t.Fatal(err)
	}
	back, err := LoadJSONL(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("reading back what WriteJSONL wrote: %v\n%s", err, buf.String())
	}
	ds.Warnings, back.Warnings = nil, nil
	if !reflect.DeepEqual(back, ds) {
		t.Errorf("round trip changed the dataset:\ngot  %+v\nwant %+v", back, ds)
	}
}

// TestWriteJSONLGolden keeps the written form under review: it is the
// example a converter author copies.
func TestWriteJSONLGolden(t *testing.T) {
	ds, err := LoadFile(FormatLoCoMo, filepath.Join("testdata", "locomo_sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, ds); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "locomo_sample.jsonl.golden"), buf.String())
}

// golden compares got with a file in testdata, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s; run go test -update and review the diff.\ngot:\n%s", path, got)
	}
}

// TestDocExample loads the example in docs/eval-format.md, so the
// documentation cannot drift from the loader.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "eval-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```jsonl\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("docs/eval-format.md has no ```jsonl example")
	}
	ds, err := LoadJSONL(strings.NewReader(example))
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "garden-talk" || len(ds.Questions) != 3 || len(ds.Warnings) != 0 {
		t.Errorf("example loaded as %+v", ds)
	}
}

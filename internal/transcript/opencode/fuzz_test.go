package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// checkResult holds for any input: reasons are short and never quote
// transcript text, parts are numbered in order, and no text carries
// cairn's marker.
func checkResult(t *testing.T, res transcript.Result) {
	t.Helper()
	for _, r := range res.Stats.Reasons() {
		if rest, ok := strings.CutPrefix(r, "unknown part type: "); ok {
			if safeToken(rest) != rest {
				t.Fatalf("reason quotes input: %q", r)
			}
		} else if len(r) > 40 || strings.ContainsAny(r, "\"{}\n") {
			t.Fatalf("odd reason %q", r)
		}
	}
	for _, s := range res.Sessions {
		if s.ExternalID == "" {
			t.Fatal("session without id")
		}
		for i, turn := range s.Turns {
			if turn.Seq != i || turn.Status == "" {
				t.Fatalf("turn %d: seq %d status %q", i, turn.Seq, turn.Status)
			}
			texts := []string{turn.Request, turn.Outcome}
			for j, p := range turn.Parts {
				if p.Seq != j {
					t.Fatalf("part %d has seq %d", j, p.Seq)
				}
				texts = append(texts, p.Text)
			}
			for _, x := range texts {
				if strings.Contains(x, memory.MarkerOpen) {
					t.Fatalf("marker survived in %q", x)
				}
			}
		}
	}
}

func FuzzParseExport(f *testing.F) {
	// Small seeds: the fuzzer minimizes every new input, which takes
	// minutes on a 20 KB export. The subagent export is whole (4 KB), the
	// others contribute their first messages.
	files, _ := filepath.Glob("testdata/real/*.export.json")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4500)])
	}
	for _, s := range []string{
		``, `{}`, `[]`, `{"info":{"id":"s"},"messages":[]}`,
		`{"info":{"id":"s"},"messages":[{"info":{"id":"u","role":"user"},"parts":[{"type":"text","text":"<cairn-memory>x</cairn-memory>hi"}]}]}`,
		`{"info":{"id":"s"},"messages":[{"info":{"role":"assistant","error":{"name":"APIError"}},"parts":[{"type":"tool","state":{"status":"error","input":[1,{"a":null}]}}]}]}`,
		`{"messages":{"x":[[[]]]},"info":"s"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseExport(bytes.NewReader(data))
		if err != nil {
			if memory.ErrorCode(err) != memory.CodeInvalid || len(res.Sessions) != 0 {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if res.Stats.Consumed > int64(len(data)) {
			t.Fatalf("consumed %d of %d bytes", res.Stats.Consumed, len(data))
		}
		checkResult(t, res)
	})
}

// FuzzStorageRecord feeds one storage message file and one part file
// through the decoders ParseStorage and ReadDB use, then builds a session.
func FuzzStorageRecord(f *testing.F) {
	seeds := [][2]string{
		{`{"id":"msg-user-1","sessionID":"s","role":"user","time":{"created":1737979200000},"parts":[]}`,
			`{"id":"part-text-1","messageID":"msg-user-1","type":"text","text":"Create a test file"}`},
		{`{"id":"m","role":"assistant","time":{"created":1,"completed":2},"finish":"stop","summary":true}`,
			`{"type":"tool","tool":"Write","state":{"status":"completed","input":{"filePath":"a"},"output":{"success":true}}}`},
		{`{"role":"assistant","error":{"name":"MessageAbortedError"},"time":{"created":"x"}}`,
			`{"type":"file","mime":"image/png","url":"data:image/png;base64,AA","source":{"path":7}}`},
		{`{"role":"user"}`, `{"type":"subtask","prompt":"<cairn-memory","agent":"general"}`},
		{`not json`, `[]`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, msgRaw, partRaw []byte) {
		var res transcript.Result
		var m message
		if !decodeInfo(msgRaw, &m.Info, &res.Stats) {
			return
		}
		if p, ok := decodePart(partRaw, &res.Stats); ok {
			m.Parts = append(m.Parts, p)
		}
		user := message{Info: messageInfo{ID: "u", Role: "user"}}
		s, _ := buildSession(sessionInfo{ID: "s"}, []message{user, m, m}, &res.Stats)
		res.Sessions = append(res.Sessions, s)
		checkResult(t, res)
	})
}

package claudecode

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func FuzzParse(f *testing.F) {
	for _, c := range fixtureCases {
		data, err := os.ReadFile(filepath.Join("testdata", c.path))
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		if len(lines) > 6 {
			lines = lines[:6]
		}
		f.Add(bytes.Join(lines, nil))
	}
	f.Add([]byte(newScript(f).
		user("u1", "", "a <cairn-memory>x</cairn-memory> b").
		asst("a1", "u1", "m1", "", text("t"), toolUse("t1", "mcp__x__y", obj{"k": []any{1, obj{"z": "w"}}})).
		user("r1", "a1", []obj{toolResult("t1", []obj{text("r"), {"type": "image"}}, true)}).
		user("r2", "r1", "[Request interrupted by user]").
		add(obj{"type": "system", "subtype": "compact_boundary", "uuid": "c", "parentUuid": nil, "logicalParentUuid": "r2"}).
		user("s1", "c", "summary", obj{"isCompactSummary": true}).
		String()))
	f.Add([]byte("{\"type\":\"user\",\"uuid\":\"a\",\"parentUuid\":\"a\",\"message\":{\"content\":\"loop\"}}\n{\"type\":"))

	statuses := map[memory.TurnStatus]bool{
		memory.TurnCompleted: true, memory.TurnCutShort: true, memory.TurnRefused: true, memory.TurnFailed: true,
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(bytes.NewReader(data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Consumed > int64(len(data)) {
			t.Fatalf("consumed %d of %d bytes", res.Stats.Consumed, len(data))
		}
		lines := bytes.Count(data, []byte("\n"))
		if tail := data[bytes.LastIndexByte(data, '\n')+1:]; len(tail) > 0 && !res.Stats.Pending {
			lines++
		}
		if res.Stats.Lines != lines {
			t.Fatalf("counted %d lines, want %d", res.Stats.Lines, lines)
		}
		for _, s := range res.Sessions {
			if len(s.Turns) == 0 {
				t.Fatal("a session without turns")
			}
			for _, turn := range s.Turns {
				if !statuses[turn.Status] || turn.Key == "" {
					t.Fatalf("turn status %q key %q", turn.Status, turn.Key)
				}
				texts := []string{turn.Request, turn.Outcome}
				for _, p := range turn.Parts {
					texts = append(texts, p.Text)
				}
				for _, s := range texts {
					if strings.Contains(s, memory.MarkerOpen) || strings.Contains(s, "<cairn-memory ") {
						t.Fatalf("marker survived in %q", s)
					}
				}
			}
		}
		again, _ := Parse(bytes.NewReader(data), Options{})
		if !reflect.DeepEqual(res, again) {
			t.Fatal("two parses differ")
		}
		Sniff(data)
	})
}

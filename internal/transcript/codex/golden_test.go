package codex

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// summary is a compact, readable picture of what one fixture imports to:
// enough to see any change in turns, statuses, flags, rendering or pairing.
type summary struct {
	Session struct {
		ExternalID, Parent, Cwd, Version, Model, Branch, Title, Started, Ended string
		Subagent                                                               bool
	}
	Turns []turnSummary
	Stats struct {
		Lines    int
		Consumed int64
		Skipped  map[string]int `json:",omitempty"`
	}
}

type turnSummary struct {
	Key, Status, Flags, Model, Started, Ended string
	Request, Outcome                          string
	Parts                                     map[string]int // role/kind → count
	Tools                                     map[string]int // tool → calls
	Errors                                    int            // parts marked as errors
	First                                     []string       // the first few parts, shortened
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func summarize(t *testing.T, name string) []byte {
	res := parseFixture(t, name)
	var sum summary
	s := res.Sessions[0]
	sum.Session.ExternalID, sum.Session.Parent, sum.Session.Subagent = s.ExternalID, s.ParentExternalID, s.Subagent
	sum.Session.Cwd, sum.Session.Version, sum.Session.Model, sum.Session.Branch, sum.Session.Title = s.Cwd, s.ClientVersion, s.Model, s.Branch, s.Title
	sum.Session.Started, sum.Session.Ended = s.StartedAt.Format("2006-01-02T15:04:05.000Z"), s.EndedAt.Format("2006-01-02T15:04:05.000Z")
	sum.Stats.Lines, sum.Stats.Consumed, sum.Stats.Skipped = res.Stats.Lines, res.Stats.Consumed, res.Stats.Skipped
	for _, turn := range s.Turns {
		ts := turnSummary{
			Key: turn.Key, Status: string(turn.Status), Flags: turn.Flags.String(), Model: turn.Model,
			Started: turn.StartedAt.Format("15:04:05.000"), Ended: turn.EndedAt.Format("15:04:05.000"),
			Request: short(turn.Request, 200), Outcome: short(turn.Outcome, 200),
			Parts: map[string]int{}, Tools: map[string]int{},
		}
		for i, p := range turn.Parts {
			ts.Parts[string(p.Role)+"/"+string(p.Kind)]++
			if p.Kind == memory.KindToolCall {
				ts.Tools[p.Tool]++
			}
			if p.IsError {
				ts.Errors++
			}
			if i < 6 {
				ts.First = append(ts.First, fmt.Sprintf("%s/%s %s: %s", p.Role, p.Kind, p.Tool, short(p.Text, 160)))
			}
		}
		sum.Turns = append(sum.Turns, ts)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			got := summarize(t, name)
			path := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".jsonl")+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("summary differs from %s (run go test -update and review the diff):\n%s", path, got)
			}
		})
	}
}

package capture_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
)

func TestEpisode(t *testing.T) {
	long := strings.Repeat("The cache now holds at most five hundred entries and drops the oldest. ", 20)
	cjk := strings.Repeat("我们决定用一个有大小上限的普通映射，而不是新依赖。", 40)
	tests := []struct {
		name          string
		turn          memory.Turn
		max           int
		ok            bool
		request       string
		outcome       string
		summary       string
		tools, files  []string
		first, last   int
		summaryPrefix string
	}{
		{
			name: "plain request and outcome",
			turn: memory.Turn{Status: memory.TurnCompleted, Request: "Add an .nvmrc file that pins Node 20 and commit it.",
				Outcome: "Added `.nvmrc` with `20` and committed it as `add .nvmrc to pin Node 20`."},
			ok:      true,
			request: "Add an .nvmrc file that pins Node 20 and commit it.",
			outcome: "Added .nvmrc with 20 and committed it as add .nvmrc to pin Node 20.",
			summary: "Add an .nvmrc file that pins Node 20 and commit it. → Added .nvmrc with 20 and committed it as add .nvmrc to pin Node 20.",
		},
		{
			name: "markdown outcome is flattened",
			turn: memory.Turn{Status: memory.TurnCompleted, Request: "create the beads",
				Outcome: "## Beads Created\n\n| id | task |\n|----|------|\n| b-1 | Install |\n\n- first item\n- **second** item\n\n```sh\nbd ready\n```\nRun `bd ready`."},
			ok:      true,
			request: "create the beads",
			outcome: "Beads Created: id, task; b-1, Install; first item; second item; Run bd ready.",
		},
		{
			name:    "no outcome",
			turn:    memory.Turn{Status: memory.TurnCompleted, Request: "hello"},
			ok:      true,
			request: "hello",
			summary: "hello",
		},
		{
			name: "markers stripped from request and outcome",
			turn: memory.Turn{Status: memory.TurnCompleted, Request: "<cairn-memory>user name Ana</cairn-memory>\nfix the build",
				Outcome: "Fixed.<cairn-memory>stale"},
			ok:      true,
			request: "fix the build",
			outcome: "Fixed.",
		},
		{name: "cut short", turn: memory.Turn{Status: memory.TurnCutShort, Request: "x", Outcome: "y"}},
		{name: "refused", turn: memory.Turn{Status: memory.TurnRefused, Request: "x"}},
		{name: "failed", turn: memory.Turn{Status: memory.TurnFailed, Request: "x"}},
		{name: "no user text", turn: memory.Turn{Status: memory.TurnCompleted, Request: " \n ", Outcome: "y"}},
		{name: "only a marker", turn: memory.Turn{Status: memory.TurnCompleted, Request: "<cairn-memory>x</cairn-memory>", Outcome: "y"}},
		{
			name:          "long outcome cut on a sentence",
			turn:          memory.Turn{Status: memory.TurnCompleted, Request: "shrink the router cache", Outcome: long},
			ok:            true,
			request:       "shrink the router cache",
			summaryPrefix: "shrink the router cache → The cache now holds",
		},
		{
			name:    "bound of 80 characters",
			turn:    memory.Turn{Status: memory.TurnCompleted, Request: long, Outcome: long},
			max:     80,
			ok:      true,
			request: "The cache now holds at most five…",
		},
		{
			name: "chinese text cut between characters",
			turn: memory.Turn{Status: memory.TurnCompleted, Request: cjk, Outcome: cjk},
			max:  50,
			ok:   true,
		},
		{
			name: "tools and files from successful calls",
			turn: turnWith(
				callP("Read", "file_path: /home/ana/shop/a.go"), resP("Read", "1→package a"),
				callP("Edit", "file_path: /home/ana/shop/a.go\nold_string: x\nnew_string: y"), resP("Edit", "The file /home/ana/shop/a.go has been updated."),
				callP("Edit", "file_path: /home/ana/shop/b.go\nold_string: x\nnew_string: y"), errP("Edit", "String to replace not found"),
				callP("apply_patch", "*** Begin Patch\n*** Delete File: old.go\n*** End Patch"), resP("apply_patch", "Success."),
				callP("Edit", "file_path: /home/ana/shop/a.go\nold_string: y\nnew_string: z"), resP("Edit", "The file /home/ana/shop/a.go has been updated."),
			),
			ok:    true,
			tools: []string{"Read", "Edit", "apply_patch"},
			files: []string{"a.go", "old.go"},
			first: 0, last: 9,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := capture.Episode(shop, tc.turn, tc.max)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			bound := tc.max
			if bound <= 0 {
				bound = capture.DefaultEpisodeChars
			}
			if n := utf8.RuneCountInString(e.Summary); n > bound || !utf8.ValidString(e.Summary) || e.Summary == "" {
				t.Errorf("summary of %d characters for a bound of %d: %q", n, bound, e.Summary)
			}
			if e.Status != memory.TurnCompleted {
				t.Errorf("status %s", e.Status)
			}
			if tc.request != "" && e.Request != tc.request {
				t.Errorf("request %q, want %q", e.Request, tc.request)
			}
			if tc.outcome != "" && e.Outcome != tc.outcome {
				t.Errorf("outcome %q, want %q", e.Outcome, tc.outcome)
			}
			if tc.summary != "" && e.Summary != tc.summary {
				t.Errorf("summary %q, want %q", e.Summary, tc.summary)
			}
			if tc.summaryPrefix != "" && !strings.HasPrefix(e.Summary, tc.summaryPrefix) {
				t.Errorf("summary %q, want prefix %q", e.Summary, tc.summaryPrefix)
			}
			if !strings.HasPrefix(e.Summary, e.Request) || (e.Outcome != "" && !strings.HasSuffix(e.Summary, " → "+e.Outcome)) {
				t.Errorf("summary %q is not request → outcome", e.Summary)
			}
			if tc.tools != nil && !slices.Equal(e.Tools, tc.tools) || tc.files != nil && !slices.Equal(e.Files, tc.files) {
				t.Errorf("tools %q files %q, want %q %q", e.Tools, e.Files, tc.tools, tc.files)
			}
			if e.FirstPart != tc.first || e.LastPart != tc.last {
				t.Errorf("parts %d..%d, want %d..%d", e.FirstPart, e.LastPart, tc.first, tc.last)
			}
		})
	}
}

func turnWith(parts ...memory.Part) memory.Turn {
	t := turnOf(parts...)
	t.Request, t.Outcome = "tidy the shop package", "Done."
	return t
}

func FuzzEpisode(f *testing.F) {
	f.Add("Add an .nvmrc file. Then commit.", "## Done\n- a\n- b", 0)
	f.Add("我们上次做到哪了？", "继续。", 7)
	f.Add("\xff\xfe", "```\nunterminated", 3)
	f.Add(strings.Repeat("word ", 300), strings.Repeat("词", 900), 600)
	f.Fuzz(func(t *testing.T, req, out string, max int) {
		if max > 5000 || max < -5 {
			return
		}
		e, ok := capture.Episode(shop, memory.Turn{Status: memory.TurnCompleted, Request: req, Outcome: out}, max)
		if !ok {
			return
		}
		if e.Request == "" {
			t.Fatal("an episode with no request")
		}
		bound := max
		if bound <= 0 {
			bound = capture.DefaultEpisodeChars
		}
		if n := utf8.RuneCountInString(e.Summary); n > bound {
			t.Fatalf("summary of %d characters for a bound of %d", n, bound)
		}
		if utf8.ValidString(req) && utf8.ValidString(out) && !utf8.ValidString(e.Summary) {
			t.Fatalf("summary %q is not UTF-8", e.Summary)
		}
	})
}

package capture_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
	"github.com/cairn-memory/cairn/internal/transcript/claudecode"
	"github.com/cairn-memory/cairn/internal/transcript/codex"
	"github.com/cairn-memory/cairn/internal/transcript/opencode"
)

// fixture is one real session read by its client's importer from the
// importers' own testdata.
type fixture struct {
	name    string // client and file, for golden files
	session memory.Session
}

// loadFixtures parses every real transcript fixture of the three
// importers. Tests only: the package itself imports no adapter.
func loadFixtures(t *testing.T) []fixture {
	t.Helper()
	ctx := context.Background()
	var out []fixture
	add := func(client, file string, r transcript.Result, err error) {
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, s := range r.Sessions {
			out = append(out, fixture{name: client + "/" + path.Base(file) + "#" + s.ExternalID, session: s})
		}
	}
	for _, f := range glob(t, "../transcript/claudecode/testdata", ".jsonl") {
		r, err := claudecode.ParseFile(ctx, f)
		add("claudecode", f, r, err)
	}
	for _, f := range glob(t, "../transcript/codex/testdata", ".jsonl") {
		r, err := codex.ParseFile(ctx, f)
		add("codex", f, r, err)
	}
	for _, f := range glob(t, "../transcript/opencode/testdata/real", ".export.json") {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := opencode.ParseExport(fh)
		fh.Close()
		add("opencode", f, r, err)
	}
	dir := "../transcript/opencode/testdata/synthetic/codemie_legacy_storage_SYNTHETIC/storage"
	r, err := opencode.ParseStorage(ctx, dir)
	add("opencode", dir, r, err)
	if len(out) == 0 {
		t.Fatal("no fixtures found")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// glob lists the files under dir (recursively) whose names end in ext.
func glob(t *testing.T, dir, ext string) []string {
	t.Helper()
	var out []string
	var walk func(d string)
	walk = func(d string) {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := d + "/" + e.Name()
			switch {
			case e.IsDir():
				walk(p)
			case strings.HasSuffix(e.Name(), ext):
				out = append(out, p)
			}
		}
	}
	walk(dir)
	sort.Strings(out)
	return out
}

// renderDraft writes a draft as one stable line.
func renderDraft(d memory.Draft) string {
	card := ""
	if d.Cardinality != "" {
		card = " " + string(d.Cardinality)
	}
	return fmt.Sprintf("%s %s %s %q [%s/%s%s] @%s part %d quote %q", d.Kind, d.Subject, d.Predicate, d.Object,
		d.Class, d.Category, card, d.ValidAt.UTC().Format(time.RFC3339), d.Evidence.PartSeq, d.Evidence.Quote)
}

func TestToolDraftsFixtures(t *testing.T) {
	var b strings.Builder
	total := 0
	for _, f := range loadFixtures(t) {
		for _, turn := range f.session.Turns {
			ds := capture.ToolDrafts(f.session, turn)
			if len(ds) == 0 {
				continue
			}
			fmt.Fprintf(&b, "## %s turn %d (%s)\n", f.name, turn.Seq, turn.Status)
			for _, d := range ds {
				checkDraft(t, f, turn, d)
				b.WriteString(renderDraft(d) + "\n")
				total++
			}
		}
	}
	// What the real sessions are known to hold, whatever else the golden
	// file records.
	for _, must := range []string{
		`committed "abc1234 Add hello function"`,                                   // Claude Code, git commit in Bash
		`current_branch "main"`,                                                    // from that commit line
		`edited_file "hello.js"`,                                                   // Claude Code Write
		`delegated_task "Draft beads for linting setup"`,                           // Claude Code Task
		`edited_file "src/agents/plugins/codemie-code.plugin.ts"`,                  // Codex apply_patch
		`tool_error "exec_command: zsh:1: operation not permitted: ps"`,            // Codex exit code 1
		`delegated_task "review code"`,                                             // Codex spawn_agent
		`edited_file "NOTES.md"`,                                                   // OpenCode write
		`tool_error "read: File not found: /tmp/ocr/demo-repo/does-not-exist.txt"`, // OpenCode tool error
		`delegated_task "List repo files"`,                                         // OpenCode task
	} {
		if !strings.Contains(b.String(), must) {
			t.Errorf("no draft %s from the fixtures", must)
		}
	}
	// Rejected calls (spotter short.jsonl) and background searches that
	// found nothing (Codex rg, exit 1) propose nothing.
	for _, never := range []string{"doesn't want to proceed", "exited with code 1"} {
		if strings.Contains(b.String(), never) {
			t.Errorf("a draft rests on %q", never)
		}
	}
	if total == 0 {
		t.Fatal("no drafts from any fixture")
	}
	golden(t, "testdata/golden/tooldrafts_fixtures.golden", b.String())
}

// checkDraft holds every draft to the brief's invariants.
func checkDraft(t *testing.T, f fixture, turn memory.Turn, d memory.Draft) {
	t.Helper()
	e := d.Evidence
	if e.Source != "tool" || e.TurnSeq != turn.Seq || e.TurnID != turn.ID || e.SessionRef != f.session.ExternalID {
		t.Errorf("%s: bad evidence %+v", f.name, e)
	}
	var part *memory.Part
	for i := range turn.Parts {
		if turn.Parts[i].Seq == e.PartSeq {
			part = &turn.Parts[i]
		}
	}
	if part == nil {
		t.Fatalf("%s: evidence part %d not in turn %d", f.name, e.PartSeq, turn.Seq)
	}
	if !part.Time.IsZero() && !d.ValidAt.Equal(part.Time) {
		t.Errorf("%s: valid at %v, part time %v", f.name, d.ValidAt, part.Time)
	}
	if n := len([]rune(d.Object)); n == 0 || n > 160 || strings.Contains(d.Object, "\n") {
		t.Errorf("%s: object %q is empty, long or multi-line", f.name, d.Object)
	}
}

func TestEpisodeFixtures(t *testing.T) {
	var b strings.Builder
	n := 0
	for _, f := range loadFixtures(t) {
		for _, turn := range f.session.Turns {
			e, ok := capture.Episode(f.session, turn, 0)
			fmt.Fprintf(&b, "## %s turn %d (%s) learnable=%v\n", f.name, turn.Seq, turn.Status, capture.Learnable(turn, false))
			if !ok {
				b.WriteString("no episode\n")
				continue
			}
			n++
			if len([]rune(e.Summary)) > capture.DefaultEpisodeChars {
				t.Errorf("%s turn %d: summary of %d characters", f.name, turn.Seq, len([]rune(e.Summary)))
			}
			js, err := json.MarshalIndent(e, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			b.Write(js)
			b.WriteByte('\n')
		}
	}
	if n == 0 {
		t.Fatal("no episode from any fixture")
	}
	golden(t, "testdata/golden/episodes_fixtures.golden", b.String())
}

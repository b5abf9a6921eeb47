package distill

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// corpusInput extracts the six corpus sessions and ranks them as the
// selection would: some used, some not.
func corpusInput(version string) ConsolidateInput {
	var in ConsolidateInput
	uses := []int{3, 1, 0, 2, 0, 1}
	for i, b := range corpus() {
		x := Extract(b.input(version))
		x.ID = int64(i + 1)
		x.UsageCount = uses[i]
		if uses[i] > 0 {
			x.LastUsedAt = x.SessionAt.Add(24 * time.Hour)
		}
		in.Extractions = append(in.Extractions, x)
		in.Statements = append(in.Statements, b.stmts...)
	}
	in.Mode, in.Version = ModeInit, version
	return in
}

// slugOf finds the slug of a corpus session.
func slugOf(in ConsolidateInput, ref string) string {
	for _, x := range in.Extractions {
		if x.SessionRef == ref {
			return x.Slug
		}
	}
	return ""
}

// renderOutput writes a pass's output for a golden file.
func renderOutput(o Output) string {
	var b strings.Builder
	b.WriteString("===== MEMORY.md =====\n" + o.Memory)
	b.WriteString("\n===== memory_summary.md =====\n" + o.Summary)
	names := make([]string, 0, len(o.Skills))
	for n := range o.Skills {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b.WriteString("\n===== " + SkillPath(n) + " =====\n" + o.Skills[n])
	}
	fmt.Fprintf(&b, "\n===== edits =====\n%+v\nnoop: %v\n", o.Edits, o.NoOp)
	return b.String()
}

// next is the input of the pass after out, once its files are the
// baseline and nothing changed.
func next(in ConsolidateInput, out Output) ConsolidateInput {
	in.Mode = ModeIncremental
	in.Memory, in.Summary, in.Skills = out.Memory, out.Summary, out.Skills
	in.Changes = nil
	return in
}

// edited is the input after a person changed MEMORY.md by hand.
func edited(in ConsolidateInput, out Output, memory string) ConsolidateInput {
	in = next(in, out)
	in.Memory = memory
	in.Changes = []Change{{Path: MemoryPath, Kind: Modified, Before: []byte(out.Memory), After: []byte(memory)}}
	return in
}

// count counts the lines of page that say text (norm-equal), anchored or not.
func count(page, words string) int {
	n := 0
	for _, l := range parsePage(page) {
		if (l.kind == lineStated || l.kind == lineText) && norm(l.body) == norm(words) {
			n++
		}
	}
	return n
}

// lineWith returns the first line of page holding sub.
func lineWith(page, sub string) string {
	for l := range strings.Lines(page) {
		if strings.Contains(l, sub) {
			return strings.TrimRight(l, "\n")
		}
	}
	return ""
}

func TestConsolidateGolden(t *testing.T) {
	in := corpusInput(V1)
	out := Consolidate(in)
	if again := Consolidate(corpusInput(V1)); renderOutput(again) != renderOutput(out) {
		t.Fatal("the same input gave two outputs")
	}
	golden(t, "consolidate_v1.golden", renderOutput(out))

	// One procedure repeats across two sessions: one skill. The one-off
	// codegen and lint procedures and git bookkeeping make none.
	if len(out.Skills) != 1 {
		t.Fatalf("skills %v, want exactly one", slices.Collect(mapKeys(out.Skills)))
	}
	for name, body := range out.Skills {
		if name != "go-vet-go-test-then-commit" {
			t.Errorf("skill %q", name)
		}
		for _, want := range []string{"## When to use", "## Inputs", "## Procedure", "1. Run `go vet ./...`.", "## Pitfalls", "## Verification checklist", "- [ ] "} {
			if !strings.Contains(body, want) {
				t.Errorf("skill lacks %q", want)
			}
		}
		if !machineOwned(body) {
			t.Error("a generated skill does not carry its fingerprint")
		}
	}
	// Every stating line of MEMORY.md names its evidence.
	for _, l := range parsePage(out.Memory) {
		if l.section != "" && l.kind == lineText {
			t.Errorf("line without an anchor: %q", l.raw)
		}
	}
	// Duplicate rules from two sessions merge into one line resting on both.
	if got := lineWith(out.Memory, "Always run go test"); !strings.HasSuffix(got, "<!-- s:101,112 -->") || count(out.Memory, "Always run go test ./... before you commit.") != 1 {
		t.Errorf("merged rule: %q", got)
	}
	// Both places are there, as task families.
	for _, fam := range []string{"## Everywhere", "## cairn · internal/rank", "## cairn · internal/cli", "## shop · src/cart"} {
		if !strings.Contains(out.Memory, fam+"\n") {
			t.Errorf("no family %q", fam)
		}
	}
	if !SummaryValid(out.Summary) || text.EstimateTokens(out.Summary) > SummaryMaxTokens {
		t.Errorf("summary invalid or over the cap")
	}
	if !out.Edits.Empty() || out.NoOp {
		t.Errorf("an init pass found edits %+v or was a no-op", out.Edits)
	}
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestConsolidateNoOp(t *testing.T) {
	in := corpusInput(V1)
	out := Consolidate(in)
	again := Consolidate(next(in, out))
	if !again.NoOp || again.Memory != out.Memory || again.Summary != out.Summary {
		t.Fatalf("a pass over unchanged input changed something (noop %v)", again.NoOp)
	}
	// An invalid summary on disk is regenerated wholesale: not a no-op.
	in2 := next(in, out)
	in2.Summary = "# my summary\n"
	if o := Consolidate(in2); o.NoOp || !SummaryValid(o.Summary) {
		t.Error("a summary without its marker was kept")
	}
}

func TestHandEdits(t *testing.T) {
	in := corpusInput(V1)
	out1 := Consolidate(in)

	short := lineWith(out1.Memory, "<!-- s:151 -->")
	pnpm := lineWith(out1.Memory, "<!-- s:131 -->")
	lint := lineWith(out1.Memory, "`pnpm run lint` worked")
	if short == "" || pnpm == "" || lint == "" {
		t.Fatalf("fixture lines missing:\n%s", out1.Memory)
	}
	mem := strings.Replace(out1.Memory, short+"\n", "", 1) // removed
	mem = strings.Replace(mem, pnpm, "- We use pnpm for everything, CI included. <!-- s:131 -->", 1)
	mem = strings.Replace(mem, lint+"\n", "", 1)
	mem = strings.Replace(mem, "- **Keywords:** checkout", "- **Keywords:** mine, checkout", 1) // scaffolding: no edit
	added := "- Always use pnpm, never npm."
	mem = strings.Replace(mem, pnpm2(mem), pnpm2(mem)+"\n"+added, 1)

	out2 := Consolidate(edited(in, out1, mem))
	lintKey := "k:" + lineKey("`pnpm run lint` worked (verified by a command)")
	want := Edits{
		Retract:   []int64{151},
		NewNotes:  []string{"Always use pnpm, never npm."},
		Supersede: []Supersession{{ID: 131, Text: "We use pnpm for everything, CI included."}},
		Drop:      []string{lintKey},
	}
	if fmt.Sprint(out2.Edits) != fmt.Sprint(want) {
		t.Fatalf("edits\n got %+v\nwant %+v", out2.Edits, want)
	}
	if strings.Contains(out2.Memory, "s:151") || strings.Contains(out2.Memory, "pnpm run lint") {
		t.Error("a removed line came back")
	}
	if strings.Count(out2.Memory, added+"\n") != 1 || count(out2.Memory, "We use pnpm for everything, CI included.") != 1 {
		t.Errorf("the person's lines are not kept once, verbatim:\n%s", out2.Memory)
	}
	if strings.Contains(out2.Summary, "Please keep answers short") {
		t.Error("the summary still shows a retracted rule")
	}
	golden(t, "handedit_pass2.golden", out2.Memory)

	// The caller applies the edits: 151 retracted, the new note written
	// (a vault note, no session), 131 superseded by 161 with its evidence.
	in3 := next(in, out2)
	in3.Dropped = out2.Edits.Drop
	var stmts []memory.Statement
	for _, s := range in3.Statements {
		switch s.ID {
		case 151:
		case 131:
			n := s
			n.ID, n.Object = 161, "We use pnpm for everything, CI included."
			stmts = append(stmts, n)
		default:
			stmts = append(stmts, s)
		}
	}
	stmts = append(stmts, memory.Statement{ID: 160, Kind: memory.KindNote, Object: "Always use pnpm, never npm.", Class: memory.ClassConvention,
		Tier: memory.TierAsserted, Writer: memory.WriterVault, Scope: shopPlace.ScopeAt(memory.RungRepo), Cardinality: memory.Many})
	in3.Statements = stmts
	out3 := Consolidate(in3)
	if !out3.Edits.Empty() {
		t.Errorf("the pass after the edits found edits again: %+v", out3.Edits)
	}
	for _, words := range []string{"Always use pnpm, never npm.", "We use pnpm for everything, CI included."} {
		if n := count(out3.Memory, words); n != 1 {
			t.Errorf("%q appears %d times:\n%s", words, n, out3.Memory)
		}
	}
	if !strings.Contains(lineWith(out3.Memory, "never npm"), "<!-- s:160 -->") || !strings.Contains(lineWith(out3.Memory, "CI included"), "<!-- s:161 -->") {
		t.Errorf("the notes written from the edits do not carry their anchors:\n%s", out3.Memory)
	}
	if strings.Contains(out3.Memory, "s:131") || strings.Contains(out3.Memory, "pnpm run lint") {
		t.Error("a superseded or dropped line came back")
	}
	// And a fourth pass changes nothing.
	if out4 := Consolidate(next(in3, out3)); !out4.NoOp {
		t.Error("the pass after that is not a no-op")
	}
}

// pnpm2 is the changed pnpm line, where the added line goes after.
func pnpm2(mem string) string { return lineWith(mem, "CI included") }

func TestHandEditsTable(t *testing.T) {
	in := corpusInput(V1)
	out := Consolidate(in)
	always := lineWith(out.Memory, "Always run go test")
	body, _, _ := ParseAnchor(always)
	tests := []struct {
		name string
		edit func(string) string
		want Edits
		keep string // words that must appear once in the new page
	}{
		{"removing a merged line retracts every statement", func(m string) string { return strings.Replace(m, always+"\n", "", 1) },
			Edits{Retract: []int64{101, 112}}, ""},
		{"removing only the anchor is no edit", func(m string) string { return strings.Replace(m, always, body, 1) },
			Edits{}, "Always run go test ./... before you commit."},
		{"moving a line is no edit", func(m string) string {
			m = strings.Replace(m, always+"\n", "", 1)
			return m + "\n" + always + "\n"
		}, Edits{}, "Always run go test ./... before you commit."},
		{"rewriting a merged line supersedes the first and retracts the rest", func(m string) string {
			return strings.Replace(m, always, "- Run go test ./... and go vet ./... before every commit. <!-- s:101,112 -->", 1)
		}, Edits{Retract: []int64{112}, Supersede: []Supersession{{101, "Run go test ./... and go vet ./... before every commit."}}},
			"Run go test ./... and go vet ./... before every commit."},
		{"a person's heading and lines are notes kept under that heading", func(m string) string {
			return m + "\n## My rules\n\n- No emojis in commit messages.\n"
		}, Edits{NewNotes: []string{"No emojis in commit messages."}}, "No emojis in commit messages."},
		{"a fenced block is kept, not a note", func(m string) string {
			return strings.Replace(m, "## shop · src/cart\n", "## shop · src/cart\n\n```sh\npnpm -r build\n```\n", 1)
		}, Edits{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := Consolidate(edited(in, out, tc.edit(out.Memory)))
			if fmt.Sprint(o.Edits) != fmt.Sprint(tc.want) {
				t.Errorf("edits\n got %+v\nwant %+v", o.Edits, tc.want)
			}
			if tc.keep != "" && count(o.Memory, tc.keep) != 1 {
				t.Errorf("%q appears %d times:\n%s", tc.keep, count(o.Memory, tc.keep), o.Memory)
			}
			for _, id := range o.Edits.Retract {
				if strings.Contains(o.Memory, fmt.Sprintf("s:%d", id)) {
					t.Errorf("retracted %d regenerated", id)
				}
			}
		})
	}
	fenced := Consolidate(edited(in, out, strings.Replace(out.Memory, "## shop · src/cart\n", "## shop · src/cart\n\n```sh\npnpm -r build\n```\n", 1)))
	if !strings.Contains(fenced.Memory, "```sh\npnpm -r build\n```") {
		t.Errorf("fenced block lost:\n%s", fenced.Memory)
	}
	mine := Consolidate(edited(in, out, out.Memory+"\n## My rules\n\n- No emojis in commit messages.\n"))
	if !strings.Contains(mine.Memory, "## My rules\n\n- No emojis in commit messages.\n") {
		t.Errorf("a person's block lost its heading:\n%s", mine.Memory)
	}
}

func TestDeletionPropagation(t *testing.T) {
	in := corpusInput(V1)
	out := Consolidate(in)
	rank := slugOf(in, "7c1e2a90-rank")
	in2 := next(in, out)
	in2.Changes = []Change{{Path: RecapPath(rank), Kind: Deleted, Before: []byte("# recap\n")}}
	out2 := Consolidate(in2)
	golden(t, "deletion_pass.golden", renderOutput(out2))

	// What rested only on that recap is gone from MEMORY.md and the summary.
	for _, gone := range []string{"-count=5", "s:102", "TestFuse", rank, "## cairn · internal/rank"} {
		if strings.Contains(out2.Memory, gone) || strings.Contains(out2.Summary, gone) {
			t.Errorf("%q survived the deletion of its only recap", gone)
		}
	}
	// The rule two sessions support keeps the rest of its evidence.
	if got := lineWith(out2.Memory, "Always run go test"); !strings.HasSuffix(got, "<!-- s:112 -->") {
		t.Errorf("mixed-evidence rule: %q", got)
	}
	if !strings.Contains(out2.Memory, "`go vet ./...` worked") {
		t.Error("a command the other session also ran was dropped")
	}
	// The skill needed both sessions: with one left it is trivia.
	if len(out2.Skills) != 0 {
		t.Errorf("skills %v survived losing their second session", slices.Collect(mapKeys(out2.Skills)))
	}
	// The extraction was still selected: the caller learns the recap is
	// unwanted, so it is not published again.
	if !slices.Contains(out2.Edits.Drop, "r:"+rank) || len(out2.Edits.Retract) != 0 {
		t.Errorf("edits %+v", out2.Edits)
	}
	// Dropping the extraction from the selection gives the same files.
	in3 := next(in, out)
	in3.Extractions = slices.DeleteFunc(slices.Clone(in.Extractions), func(x memory.Extraction) bool { return x.Slug == rank })
	in3.Changes = in2.Changes
	if out3 := Consolidate(in3); out3.Memory != out2.Memory || out3.Summary != out2.Summary {
		t.Error("a pruned extraction and a deleted recap give different files")
	}
}

func TestExtensions(t *testing.T) {
	in := corpusInput(V1)
	in.Extensions = map[string]string{
		"extensions/imports/claude/CLAUDE.md": "# Shop conventions\n\nPrefer server components. Use Zod for validation.\n",
		"extensions/ad_hoc/notes/151.md":      "Please keep answers short.\n",
		"extensions/ad_hoc/notes/111.md":      "Keep commit messages in the form `area: summary`.\n",
	}
	out := Consolidate(in)
	ptr := lineWith(out.Memory, "extensions/imports/claude/CLAUDE.md")
	if !strings.Contains(ptr, "Shop conventions") || !strings.Contains(ptr, "<!-- k:") {
		t.Fatalf("no pointer to the imported file:\n%s", out.Memory)
	}

	in2 := next(in, out)
	in2.Extensions = map[string]string{"extensions/ad_hoc/notes/111.md": "Keep commit messages as `area: summary`, lowercase.\n", "extensions/ad_hoc/notes/new.md": "Deploys happen on Tuesdays.\n"}
	in2.Changes = []Change{
		{Path: "extensions/imports/claude/CLAUDE.md", Kind: Deleted, Before: []byte(in.Extensions["extensions/imports/claude/CLAUDE.md"])},
		{Path: "extensions/ad_hoc/notes/151.md", Kind: Deleted, Before: []byte("Please keep answers short.\n")},
		{Path: "extensions/ad_hoc/notes/111.md", Kind: Modified, Before: []byte(in.Extensions["extensions/ad_hoc/notes/111.md"]), After: []byte(in2.Extensions["extensions/ad_hoc/notes/111.md"])},
		{Path: "extensions/ad_hoc/notes/new.md", Kind: Added, After: []byte("Deploys happen on Tuesdays.\n")},
	}
	out2 := Consolidate(in2)
	want := Edits{
		Retract:   []int64{151},
		NewNotes:  []string{"Deploys happen on Tuesdays."},
		Supersede: []Supersession{{ID: 111, Text: "Keep commit messages as `area: summary`, lowercase."}},
	}
	if fmt.Sprint(out2.Edits) != fmt.Sprint(want) {
		t.Errorf("edits\n got %+v\nwant %+v", out2.Edits, want)
	}
	if strings.Contains(out2.Memory, "CLAUDE.md") || strings.Contains(out2.Memory, "## Extensions") {
		t.Error("a deleted extension file is still pointed at")
	}
	if strings.Contains(out2.Memory, "s:151") {
		t.Error("a deleted note is still in MEMORY.md")
	}
}

func TestSkillOwnership(t *testing.T) {
	in := corpusInput(V1)
	out := Consolidate(in)
	name := "go-vet-go-test-then-commit"

	// A person's edit makes the skill theirs: kept as they left it.
	in2 := next(in, out)
	mine := strings.Replace(out.Skills[name], "## Pitfalls", "## Pitfalls\n\n- CI also runs staticcheck.", 1)
	in2.Skills = map[string]string{name: mine, "old-skill": "---\nname: old-skill\n---\nhand written\n"}
	stale := Consolidate(in).Skills[name] // a machine-owned file of a skill no longer found
	in2.Skills["gone-skill"] = strings.Replace(stale, name, "gone-skill", 1)
	in2.Skills["gone-skill"] = sealed(in2.Skills["gone-skill"])
	out2 := Consolidate(in2)
	if out2.Skills[name] != mine || out2.Skills["old-skill"] == "" {
		t.Error("a person's skill was overwritten")
	}
	if _, ok := out2.Skills["gone-skill"]; ok {
		t.Error("a machine-owned skill without evidence was kept")
	}

	// Deleting a skill's file drops it, this pass and the next.
	in3 := next(in, out)
	in3.Skills = map[string]string{}
	in3.Changes = []Change{{Path: SkillPath(name), Kind: Deleted, Before: []byte(out.Skills[name])}}
	out3 := Consolidate(in3)
	if _, ok := out3.Skills[name]; ok || !slices.Contains(out3.Edits.Drop, "skill:"+name) {
		t.Fatalf("deleted skill regenerated, or not dropped: %+v", out3.Edits)
	}
	in4 := next(in3, out3)
	in4.Dropped = out3.Edits.Drop
	if _, ok := Consolidate(in4).Skills[name]; ok {
		t.Error("a dropped skill came back on the next pass")
	}
}

// sealed re-seals a SKILL.md with the fingerprint of its new body.
func sealed(s string) string {
	t := strings.TrimRight(s, "\n")
	body := t[:strings.LastIndex(t, "\n")+1]
	return body + fingerprint(body)
}

func TestSummaryValid(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{SummaryMarker + "\n# Memory summary\n", true},
		{SummaryMarker + "\r\n", true},
		{SummaryMarker, true},
		{"", false},
		{"# Memory summary\n" + SummaryMarker + "\n", false},
		{"<!-- cairn memory summary v2 -->\n", false},
		{" " + SummaryMarker + "\n", false},
	}
	for _, tc := range tests {
		if got := SummaryValid(tc.in); got != tc.want {
			t.Errorf("SummaryValid(%q) = %v", tc.in, got)
		}
	}
}

// bigInput is hundreds of extractions across many places, each with its
// own rules.
func bigInput(version string) ConsolidateInput {
	var in ConsolidateInput
	in.Mode, in.Version = ModeInit, version
	id := int64(10000)
	for i := range 400 {
		place := fmt.Sprintf("proj%02d", i%60)
		pl := memory.Place{Worktree: "/src/" + place, Project: "/src/" + place + "/.git", Repo: "example.com/team/" + place}
		b := session(int64(1000+i), fmt.Sprintf("big-%03d", i), memory.ProviderClaudeCode, pl, day0.Add(time.Duration(i)*time.Hour), id)
		b.ask(fmt.Sprintf("Fix the %s importer for area%02d and keep the report readable.", place, i%7)).
			note(memory.ClassPreference, memory.RungEverywhere, fmt.Sprintf("Always explain change number %d in one paragraph before the diff.", i)).
			note(memory.ClassConvention, memory.RungRepo, fmt.Sprintf("In %s, name test files after the area%02d they cover.", place, i%7)).
			bash(fmt.Sprintf("make test-area%02d", i%7), "FAIL area: expected 3, got 4", 1).
			event("tool_error", "Bash: FAIL area", "command").
			edit(fmt.Sprintf("area%02d/importer.go", i%7)).
			bash(fmt.Sprintf("make test-area%02d", i%7), "ok", 0).
			bash("make lint", "ok", 0).
			answer("Fixed.")
		id = b.nextID
		x := Extract(b.input(version))
		x.ID, x.UsageCount = int64(i+1), i%5
		in.Extractions = append(in.Extractions, x)
		in.Statements = append(in.Statements, b.stmts...)
	}
	return in
}

func TestSummaryCap(t *testing.T) {
	out := Consolidate(bigInput(V1))
	if !SummaryValid(out.Summary) {
		t.Fatal("summary without its marker")
	}
	if n := text.EstimateTokens(out.Summary); n > SummaryMaxTokens {
		t.Errorf("summary of %d tokens, cap %d", n, SummaryMaxTokens)
	}
	for _, h := range []string{"## Profile", "## Top preferences", "## Tips", "## Routing index"} {
		if !strings.Contains(out.Summary, h+"\n\n- ") {
			t.Errorf("section %q empty or missing after the cut", h)
		}
	}
	// A smaller configured cap is honoured too.
	in := bigInput(V1)
	in.SummaryTokens = 400
	if n := text.EstimateTokens(Consolidate(in).Summary); n > 400 {
		t.Errorf("summary of %d tokens, cap 400", n)
	}
}

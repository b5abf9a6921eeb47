package distill

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// renderExtraction writes every field of an extraction for a golden file.
func renderExtraction(x memory.Extraction) string {
	var b strings.Builder
	fmt.Fprintf(&b, "session: %s (%d, %s)\nversion: %s\nempty: %v\nslug: %s\ntask: %s\ntask_group: %s\noutcome: %s\nkeywords: %q\nstatements: %v\nsession_at: %s\n",
		x.SessionRef, x.SessionID, x.Provider, x.Version, x.Empty, x.Slug, x.Task, x.TaskGroup, x.Outcome, x.Keywords, x.Statements,
		x.SessionAt.Format(time.RFC3339))
	b.WriteString("\n===== raw memory =====\n" + x.RawMemory)
	b.WriteString("\n===== rollout summary =====\n" + x.Summary)
	return b.String()
}

func TestExtractGolden(t *testing.T) {
	for _, tc := range []struct {
		file    string
		build   func() *builder
		version string
	}{
		{"extract_flaky_v1.golden", flakyRank, V1},
		{"extract_flaky_v2.golden", flakyRank, V2},
		{"extract_smalltalk.golden", smallTalk, V1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			x := Extract(tc.build().input(tc.version))
			again := Extract(tc.build().input(tc.version))
			if got, want := renderExtraction(x), renderExtraction(again); got != want {
				t.Fatal("two extractions of the same session differ")
			}
			golden(t, tc.file, renderExtraction(x))
		})
	}
}

func TestExtractRealisticSession(t *testing.T) {
	x := Extract(flakyRank().input(V1))
	if x.Empty || x.Outcome != memory.OutcomeSuccess {
		t.Fatalf("empty %v, outcome %s; want a successful extraction", x.Empty, x.Outcome)
	}
	if x.TaskGroup != "cairn · internal/rank" {
		t.Errorf("task group %q", x.TaskGroup)
	}
	// The extraction rests on the user's rule, the error, the edit and the
	// commit; the current branch is a passing state, not evidence.
	if want := []int64{101, 102, 103, 104}; !slices.Equal(x.Statements, want) {
		t.Errorf("statements %v, want %v", x.Statements, want)
	}
	raw := parseRaw(x.RawMemory)
	if len(raw.prefs) != 1 || !slices.Equal(raw.prefs[0].anchor.IDs, []int64{101}) {
		t.Errorf("preference signals %+v", raw.prefs)
	}
	if len(raw.shields) != 1 || !slices.Equal(raw.shields[0].anchor.IDs, []int64{102}) {
		t.Fatalf("failure shields %+v", raw.shields)
	}
	sh, ok := parseShield(raw.shields[0].text)
	if !ok || !strings.Contains(sh.symptom, "--- FAIL: TestFuse") || !strings.Contains(sh.fix, "internal/rank/fuse.go") ||
		!strings.Contains(sh.cause, "map iteration order") {
		t.Errorf("shield %+v", sh)
	}
	keys, _ := foldSteps(raw.procedure)
	if want := []string{"go test", "go vet", "go test", "git add", "git commit"}; !slices.Equal(keys, want) {
		t.Errorf("procedure %v, want %v", keys, want)
	}
	for _, want := range []string{"### The user said", "### Verified by a command", "### The assistant proposed (not verified)", "commit `4f2a9c1`"} {
		if !strings.Contains(x.Summary, want) {
			t.Errorf("recap lacks %q", want)
		}
	}
}

func TestExtractV2HasNoTakeaways(t *testing.T) {
	x := Extract(flakyRank().input(V2))
	if x.RawMemory != "" || x.Summary == "" || x.Slug == "" || x.Version != V2 {
		t.Fatalf("v2 extraction: raw %d bytes, recap %d bytes, slug %q, version %q", len(x.RawMemory), len(x.Summary), x.Slug, x.Version)
	}
	user := strings.Index(x.Summary, "## What the user asked")
	asst := strings.Index(x.Summary, "## What the assistant answered")
	tools := strings.Index(x.Summary, "## Tools")
	if user < 0 || !(user < asst && asst < tools) {
		t.Errorf("v2 recap sections out of order: user %d, assistant %d, tools %d", user, asst, tools)
	}
	// A long session stays within the bound, tools cut first.
	b := flakyRank()
	for i := range 60 {
		b.ask(fmt.Sprintf("Step %d: rename the helper in internal/rank/fuse.go and rerun the tests.", i)).
			bash(fmt.Sprintf("go test ./internal/rank/... -run TestFuse%d", i), "ok", 0).
			answer(strings.Repeat("Renamed the helper and the tests pass. ", 8))
	}
	long := Extract(b.input(V2))
	if len(long.Summary) > maxV2Recap {
		t.Errorf("v2 recap of %d bytes, cap %d", len(long.Summary), maxV2Recap)
	}
	if !strings.Contains(long.Summary, "## What the user asked") {
		t.Error("the user's words were cut before the tools")
	}
}

func TestExtractSmallTalkIsEmpty(t *testing.T) {
	for _, v := range []string{V1, V2} {
		x := Extract(smallTalk().input(v))
		if !x.Empty || x.RawMemory != "" || x.Summary != "" || x.Slug != "" || x.Task != "" || len(x.Statements) != 0 {
			t.Errorf("%s: small talk gave %+v", v, x)
		}
		if x.SessionRef != "smalltalk-01" || x.Version != v {
			t.Errorf("%s: an empty extraction still names its session and version: %+v", v, x)
		}
	}
}

// gateSession is a one-turn session at cairn with the given parts.
func gateSession(f func(b *builder)) *builder {
	b := session(20, "gate", memory.ProviderClaudeCode, cairnPlace, day0, 2001)
	b.ask("What does this function do?")
	f(b)
	b.answer("It returns the sum.")
	return b
}

func TestExtractGate(t *testing.T) {
	tests := []struct {
		name  string
		f     func(b *builder)
		empty bool
	}{
		{"a one-off question", func(b *builder) {}, true},
		{"reading files only", func(b *builder) { b.bash("cat main.go", "package main", 0).bash("rg Sum", "main.go:3", 0) }, true},
		{"a failed look is no error worth keeping", func(b *builder) { b.bash("cat nope.go", "cat: nope.go: No such file or directory", 1) }, true},
		{"a branch alone", func(b *builder) { b.event("current_branch", "main", "branch") }, true},
		{"a note without a tier is never shown", func(b *builder) {
			b.note(memory.ClassPreference, memory.RungEverywhere, "Always use tabs.")
			b.stmts[len(b.stmts)-1].Tier = memory.TierNone
		}, true},
		{"a user rule", func(b *builder) { b.note(memory.ClassPreference, memory.RungEverywhere, "Never force-push to main.") }, false},
		{"a decision", func(b *builder) { b.note(memory.ClassDecision, memory.RungProject, "We decided to drop Redux.") }, false},
		{"a fact", func(b *builder) { b.fact("ci", "Buildkite", "Our CI now runs on Buildkite.") }, false},
		{"an edit", func(b *builder) { b.edit("main.go") }, false},
		{"a commit", func(b *builder) {
			b.bash("git commit -am 'x: y'", "[main 1234567] x: y", 0).event("committed", "1234567 x: y", "git")
		}, false},
		{"an unfixed error", func(b *builder) { b.bash("make build", "make: *** [build] Error 2", 2) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := Extract(gateSession(tc.f).input(V1))
			if x.Empty != tc.empty {
				t.Errorf("empty %v, want %v\n%s", x.Empty, tc.empty, x.RawMemory)
			}
		})
	}
}

func TestExtractOutcome(t *testing.T) {
	tests := []struct {
		name string
		f    func(b *builder)
		last string // a last request from the user, when set
		want memory.Outcome
	}{
		{"commit after passing tests", func(b *builder) {
			b.bash("go test ./...", "ok", 0).bash("git commit -m 'a: b'", "[main abcdef1] a: b", 0)
		}, "", memory.OutcomeSuccess},
		{"an error never fixed", func(b *builder) { b.edit("a.go").bash("go build ./...", "a.go:3: undefined: x", 1) }, "", memory.OutcomeFailure},
		{"an error fixed by a later run", func(b *builder) {
			b.bash("go build ./...", "a.go:3: undefined: x", 1).edit("a.go").bash("go build ./...", "", 0)
		}, "", memory.OutcomeSuccess},
		{"progress beside an unfixed error", func(b *builder) {
			b.bash("go test ./a/...", "ok", 0).bash("make lint", "lint: 3 problems", 1)
		}, "", memory.OutcomePartial},
		{"edits with no verification", func(b *builder) { b.edit("a.go") }, "", memory.OutcomeUncertain},
		{"edits the user approved", func(b *builder) { b.edit("a.go") }, "Perfect, thanks!", memory.OutcomeSuccess},
		{"tests pass but the user says it is still broken", func(b *builder) { b.edit("a.go").bash("go test ./...", "ok", 0) }, "It still fails on my machine.", memory.OutcomePartial},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := session(30, "outcome", memory.ProviderCodex, cairnPlace, day0, 3001)
			b.ask("Make the build green again please.")
			tc.f(b)
			b.answer("Done.")
			if tc.last != "" {
				b.ask(tc.last).answer("Glad to help.")
			}
			if got := Extract(b.input(V1)).Outcome; got != tc.want {
				t.Errorf("outcome %s, want %s", got, tc.want)
			}
		})
	}
}

var slugShape = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}|undated)-[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{6}$`)

func TestSlug(t *testing.T) {
	base := memory.Session{ID: 4, ExternalID: "abc", Provider: memory.ProviderCodex, EndedAt: time.Date(2026, 5, 11, 23, 30, 0, 0, time.FixedZone("x", -5*3600))}
	tests := []struct {
		task string
		want string // prefix before the hash
	}{
		{"Fix the flaky TestFuse in internal/rank!", "2026-05-12-fix-flaky-testfuse-internal-rank-"},
		{"把配置改成 TOML", "2026-05-12-toml-"},
		{"修复测试", "2026-05-12-session-"},
		{"", "2026-05-12-session-"},
		{"../../etc/passwd; rm -rf /", "2026-05-12-passwd-rm-rf-"},
	}
	for _, tc := range tests {
		got := slug(base, tc.task)
		if !strings.HasPrefix(got, tc.want) || !slugShape.MatchString(got) {
			t.Errorf("slug(%q) = %q, want prefix %q in the slug shape", tc.task, got, tc.want)
		}
		if again := slug(base, tc.task); again != got {
			t.Errorf("slug not deterministic: %q, %q", got, again)
		}
	}
	other := base
	other.ExternalID = "abd"
	if slug(base, "same task") == slug(other, "same task") {
		t.Error("two sessions of one day and task share a slug")
	}
}

func TestTaskGroupIsStable(t *testing.T) {
	one := session(40, "g1", memory.ProviderClaudeCode, cairnPlace, day0, 4001)
	one.ask("Tune the BM25 weights in rank.").edit("internal/rank/bm25.go").edit("internal/rank/bm25_test.go").answer("Tuned.")
	two := session(41, "g2", memory.ProviderCodex, memory.Place{Worktree: "/tmp/wt/cairn-feature", Project: "/home/ana/cairn/.git", Repo: "github.com/ana/cairn"}, day0, 4101)
	two.ask("Add a golden test for fusion ties.").patch("internal/rank/fuse_test.go").answer("Added.")
	g1, g2 := Extract(one.input(V1)).TaskGroup, Extract(two.input(V1)).TaskGroup
	if g1 != g2 || g1 != "cairn · internal/rank" {
		t.Errorf("task groups %q and %q; want both cairn · internal/rank", g1, g2)
	}
}

func TestTask(t *testing.T) {
	tests := []struct {
		requests []string
		want     string
	}{
		{[]string{"hi!", "Please rename Fuse to Merge across internal/rank."}, "Please rename Fuse to Merge across internal/rank."},
		{[]string{"ok", "yes"}, "ok"},
		{[]string{"The build is red. Fix it and push."}, "The build is red. Fix it and push."},
		{[]string{strings.Repeat("word ", 60)}, strings.TrimSpace(strings.Repeat("word ", 17)) + "…"},
	}
	for _, tc := range tests {
		b := session(50, "task", memory.ProviderClaudeCode, cairnPlace, day0, 5001)
		for _, r := range tc.requests {
			b.ask(r).answer("fine")
		}
		if got := taskOf(newTrace(b.s, stmtView{})); got != tc.want {
			t.Errorf("task of %q = %q, want %q", tc.requests, got, tc.want)
		}
	}
}

// FuzzExtract feeds arbitrary tool input and output through extraction:
// it must not panic, and whatever it returns is well formed.
func FuzzExtract(f *testing.F) {
	f.Add("go test ./...", "--- FAIL: TestX\nFAIL", "internal/a/b.go", 1)
	f.Add("git add -A && git commit -m \"$(cat <<'EOF'\nfix: x\nEOF\n)\"", "[main 1a2b3c4] fix: x", "", 0)
	f.Add("bash -lc 'cd /x && make 2>&1 | tail'", "Process exited with code 2\nmake: *** Error 2", "*** Update File: /x/y.go", 2)
	f.Add("'unterminated \"quote", "\x1b[31mError\x1b[0m: boom\nTraceback (most recent call last)\nValueError: bad", "\n\n", 1)
	f.Add("", "", "", 0)
	f.Fuzz(func(t *testing.T, cmd, out, path string, exit int) {
		b := session(70, "fuzz", memory.ProviderCodex, cairnPlace, day0, 7001)
		b.ask("Please fix the failing build in the importer.").
			exec(cmd, out, exit).
			bash(cmd, out, exit).
			part(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: "apply_patch", Text: path}).
			part(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: "apply_patch", Text: out}).
			edit(path).
			answer(out)
		for _, v := range []string{V1, V2} {
			x := Extract(b.input(v))
			if x.Empty {
				continue
			}
			if !slugShape.MatchString(x.Slug) {
				t.Fatalf("slug %q", x.Slug)
			}
			if v == V2 && (x.RawMemory != "" || len(x.Summary) > maxV2Recap) {
				t.Fatalf("v2 extraction with raw memory or a recap of %d bytes", len(x.Summary))
			}
			_ = parseRaw(x.RawMemory)
		}
	})
}

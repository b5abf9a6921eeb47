package temporal

import (
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestResolveTier(t *testing.T) {
	user := "Our CI now runs on Buildkite."
	cases := []struct {
		name string
		r    TierRequest
		want memory.Tier
	}{
		{"cli", TierRequest{Writer: memory.WriterCLI}, memory.TierAsserted},
		{"tool rule", TierRequest{Writer: memory.WriterTool}, memory.TierObserved},
		{"model", TierRequest{Writer: memory.WriterModel}, memory.TierInferred},
		{"model claiming asserted", TierRequest{Writer: memory.WriterModel, Declared: memory.TierAsserted, DeclaredSet: true}, memory.TierInferred},
		{"agent silent", TierRequest{Writer: memory.WriterAgent, Value: "Buildkite", UserText: user}, memory.TierNone},
		{"agent asserted, in the user's words", TierRequest{Writer: memory.WriterAgent, Declared: memory.TierAsserted, DeclaredSet: true, Value: "buildkite", UserText: user}, memory.TierAsserted},
		{"agent asserted, not in the user's words", TierRequest{Writer: memory.WriterAgent, Declared: memory.TierAsserted, DeclaredSet: true, Value: "GitHub Actions", UserText: user}, memory.TierInferred},
		{"agent observed", TierRequest{Writer: memory.WriterAgent, Declared: memory.TierObserved, DeclaredSet: true}, memory.TierObserved},
		{"cli through a model channel", TierRequest{Writer: memory.WriterCLI, Channel: memory.WriterModel}, memory.TierInferred},
		{"tool through the cli", TierRequest{Writer: memory.WriterTool, Channel: memory.WriterCLI}, memory.TierObserved},
	}
	for _, c := range cases {
		if got := ResolveTier(c.r); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPlace(t *testing.T) {
	p := memory.Place{Worktree: "/w", Project: "/w/.git", Repo: "github.com/a/b"}
	r := DefaultRungs()
	cases := []struct {
		class    memory.Class
		category string
		override memory.Rung
		want     memory.Rung
	}{
		{memory.ClassUser, "", "", memory.RungEverywhere},
		{memory.ClassPreference, "", "", memory.RungEverywhere},
		{memory.ClassConvention, "", "", memory.RungRepo},
		{memory.ClassDecision, "", "", memory.RungProject},
		{memory.ClassEnvironment, "", memory.RungEverywhere, memory.RungProject},
		{memory.ClassTask, "", "", memory.RungWorktree},
		{"", "", "", memory.RungWorktree},
		{memory.ClassConvention, "port", "", memory.RungProject},
		{memory.ClassDecision, "git", memory.RungRepo, memory.RungProject},
		{memory.ClassDecision, "", memory.RungRepo, memory.RungRepo},
	}
	for _, c := range cases {
		if got := Place(r, p, c.class, c.category, c.override); got.Rung != c.want {
			t.Errorf("%s/%s/%s: %s, want %s", c.class, c.category, c.override, got.Rung, c.want)
		}
	}
	if !Visible(memory.Scope{}, p, memory.RungWorktree) || Visible(memory.Scope{Rung: memory.RungWorktree, Key: "/other"}, p, memory.RungEverywhere) {
		t.Fatal("visibility")
	}
}

func TestPredicateSlots(t *testing.T) {
	same := [][2]string{
		{"ci_provider", "ci_platform"},
		{"CI provider", "ci"},
		{"deploy_target", "deployment target"},
		{"deployed_to", "deploy target"},
		{"on_call_engineer", "oncall"},
		{"database engine", "db"},
		{"packageManager", "package_manager"},
	}
	for _, p := range same {
		if SlotKey(p[0]) != SlotKey(p[1]) {
			t.Errorf("%q (%s) and %q (%s) should share a slot", p[0], SlotKey(p[0]), p[1], SlotKey(p[1]))
		}
	}
	differ := [][2]string{{"ci", "cd"}, {"deploy_target", "deploy_schedule"}, {"current_ticket", "current_branch"}}
	for _, p := range differ {
		if SlotKey(p[0]) == SlotKey(p[1]) {
			t.Errorf("%q and %q must stay apart (%s)", p[0], p[1], SlotKey(p[0]))
		}
	}
	top := TopPredicates(map[string]int{"ci_provider": 5, "deploy_target": 3, "editor": 1}, 40)
	if got := Canonical("CI platform", top); got != "ci_provider" {
		t.Errorf("canonical %q", got)
	}
	if got := Canonical("favourite-editor", top); got != "favourite_editor" {
		t.Errorf("canonical %q", got)
	}
}

func TestCardinality(t *testing.T) {
	if Cardinality(memory.KindFact, "deploy_target", "") != memory.One ||
		Cardinality(memory.KindEvent, "deploy_target", "") != memory.Many ||
		Cardinality(memory.KindFact, "uses", "") != memory.Many ||
		Cardinality(memory.KindFact, "uses", memory.One) != memory.One ||
		Cardinality(memory.KindNote, "", "") != memory.Many {
		t.Fatal("cardinality registry")
	}
}

func TestRecentChanges(t *testing.T) {
	now := day(100)
	rows := []memory.Statement{
		{ID: 1, Object: "old", Reason: memory.ReasonSuperseded, ExpiredAt: now.Add(-time.Hour)},
		{ID: 2, Object: "older", Reason: memory.ReasonSuperseded, ExpiredAt: now.Add(-72 * time.Hour)},
		{ID: 3, Object: "retracted", Reason: memory.ReasonRetracted, ExpiredAt: now.Add(-time.Hour)},
		{ID: 4, Object: "a", Reason: memory.ReasonSuperseded, ExpiredAt: now.Add(-2 * time.Hour)},
		{ID: 5, Object: "b", Reason: memory.ReasonSuperseded, ExpiredAt: now.Add(-3 * time.Hour)},
		{ID: 6, Object: "c", Reason: memory.ReasonSuperseded, ExpiredAt: now.Add(-4 * time.Hour)},
	}
	got := RecentChanges(rows, now, 48*time.Hour, 3)
	if len(got) != 3 || got[0].ID != 1 || got[2].ID != 5 {
		t.Fatalf("%v", objects(got))
	}
}

package capture_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
)

// profileMaxChars is the bound Profile promises.
const profileMaxChars = 1200

var profileT0 = time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)

// pnote builds an active, asserted L1 note.
func pnote(id int64, class memory.Class, object string, conf float64) memory.Statement {
	return memory.Statement{
		ID: id, Kind: memory.KindNote, Object: object, Class: class, Cardinality: memory.Many,
		Tier: memory.TierAsserted, Writer: memory.WriterCapture, Confidence: conf,
		ValidAt: profileT0, CreatedAt: profileT0.Add(time.Duration(id) * time.Hour),
	}
}

// profileCases are the inputs the golden file records.
func profileCases() []struct {
	name  string
	notes []memory.Statement
	min   int
} {
	long := pnote(15, memory.ClassPreference, strings.Repeat("Explain the reason for a change in the commit body, not only what changed; ", 5), 0.7)
	pinned := pnote(9, memory.ClassConvention, "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`.", 0.5)
	pinned.Pinned = true
	used := pnote(4, memory.ClassPreference, "Please keep answers short.", 0.7)
	used.UsageCount = 12
	recent := pnote(5, memory.ClassPreference, "Never commit directly to main.", 0.7)
	recent.LastUsedAt = profileT0.Add(30 * 24 * time.Hour)
	forgotten := pnote(6, memory.ClassPreference, "Always answer in French.", 0.9)
	forgotten.ExpiredAt = profileT0.Add(time.Hour)
	forgotten.Reason = memory.ReasonForgotten
	superseded := pnote(7, memory.ClassDecision, "We'll use lru-cache for the session cache.", 0.9)
	superseded.InvalidAt = profileT0.Add(2 * time.Hour)
	superseded.ExpiredAt = profileT0.Add(2 * time.Hour)
	superseded.Reason = memory.ReasonSuperseded
	untiered := pnote(8, memory.ClassPreference, "Private: never show this to a model.", 0.9)
	untiered.Tier = memory.TierNone
	fact := memory.Statement{ID: 10, Kind: memory.KindFact, Subject: "user", Predicate: "current_ticket",
		Object: "PAY-1432", Class: memory.ClassTask, Cardinality: memory.One, Tier: memory.TierAsserted, Confidence: 0.8}

	ranking := []memory.Statement{
		pnote(1, memory.ClassPreference, "Always run the tests before you commit.", 0.7),
		pnote(2, memory.ClassDecision, "We'll use a plain Map with a size cap, not lru-cache, because it's one dependency less.", 0.75),
		pnote(3, memory.ClassConvention, "We use pnpm for everything in this monorepo.", 0.65),
		used, recent, forgotten, superseded, untiered, pinned, fact,
		pnote(11, memory.ClassPreference, "please  keep ANSWERS short.", 0.6), // a repeat of 4
		pnote(12, memory.ClassTask, "I'm working on the billing export.", 0.9),
		pnote(13, memory.ClassDecision, "我们决定统一用 pnpm，不要用 npm。", 0.75),
		pnote(14, memory.ClassConvention, "Tests should be table-driven.", 0.65),
		long,
		pnote(16, memory.ClassPreference, "回答尽量简短一点，"+strings.Repeat("不要重复我的问题，", 40), 0.7),
	}

	var many []memory.Statement
	for i := range 40 {
		class := []memory.Class{memory.ClassPreference, memory.ClassConvention, memory.ClassDecision}[i%3]
		many = append(many, pnote(int64(100+i), class,
			fmt.Sprintf("Rule %02d: %s", i, strings.Repeat("keep the wording of this rule exactly as the user wrote it ", 1+i%5)),
			0.5+float64(i%4)/10))
	}
	return []struct {
		name  string
		notes []memory.Statement
		min   int
	}{
		{"below the threshold", ranking[:2], 0},
		{"threshold counts only eligible notes", []memory.Statement{ranking[0], forgotten, superseded, untiered, fact}, 3},
		{"three notes", ranking[:3], 0},
		{"ranking, filtering and repeats", ranking, 0},
		{"threshold above the eligible notes", ranking, 11},
		{"threshold at the eligible notes", ranking, 10},
		{"bounded", many, 0},
	}
}

func TestProfileGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range profileCases() {
		got, ok := capture.Profile(c.notes, c.min)
		fmt.Fprintf(&b, "== %s (min %d, %d notes) ==\nok: %v, %d characters\n%s\n\n", c.name, c.min, len(c.notes), ok, utf8.RuneCountInString(got), got)
	}
	golden(t, "testdata/golden/profile.golden", b.String())
}

func TestProfileProperties(t *testing.T) {
	for _, c := range profileCases() {
		t.Run(c.name, func(t *testing.T) {
			got, ok := capture.Profile(c.notes, c.min)
			if n := utf8.RuneCountInString(got); n > profileMaxChars {
				t.Errorf("profile has %d characters, over %d", n, profileMaxChars)
			}
			if ok != (got != "") {
				t.Errorf("ok = %v with text %q", ok, got)
			}
			// Input order must not matter.
			rev := make([]memory.Statement, len(c.notes))
			for i, n := range c.notes {
				rev[len(c.notes)-1-i] = n
			}
			if again, ok2 := capture.Profile(rev, c.min); again != got || ok2 != ok {
				t.Errorf("reversed input changed the profile:\n%s\nvs\n%s", got, again)
			}
			if len(c.notes) > 2 {
				rot := append(append([]memory.Statement{}, c.notes[2:]...), c.notes[:2]...)
				if again, _ := capture.Profile(rot, c.min); again != got {
					t.Errorf("rotated input changed the profile")
				}
			}
		})
	}
}

func TestProfileThreshold(t *testing.T) {
	notes := []memory.Statement{
		pnote(1, memory.ClassPreference, "Be concise.", 0.7),
		pnote(2, memory.ClassConvention, "We always squash-merge pull requests.", 0.65),
	}
	if _, ok := capture.Profile(notes, 0); ok {
		t.Error("two notes made a profile with the default threshold of 3")
	}
	if _, ok := capture.Profile(notes, 2); !ok {
		t.Error("two notes made no profile with a threshold of 2")
	}
	notes = append(notes, pnote(3, memory.ClassDecision, "We chose Postgres over MySQL for the JSONB support.", 0.75))
	got, ok := capture.Profile(notes, 0)
	if !ok {
		t.Fatal("three notes made no profile")
	}
	for _, n := range notes {
		if !strings.Contains(got, n.Object) {
			t.Errorf("profile lacks the user's words %q:\n%s", n.Object, got)
		}
	}
}

package tui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-memory/cairn/internal/memory"
)

// TestKeysChangeTheStore drives the model with keys and reads the store
// after each step: the screen saying "forgot" proves nothing by itself.
func TestKeysChangeTheStore(t *testing.T) {
	const word = "staging"
	current := func(f *fixture, t *testing.T) bool { return f.note(t, word).Current() }
	cases := []struct {
		name  string
		keys  []string // after choosing the note on the notes tab
		check func(f *fixture, t *testing.T) string
	}{
		{"f forgets the note", []string{"f"}, func(f *fixture, t *testing.T) string {
			if n := f.note(t, word); n.Current() || n.Reason != "forgotten" {
				return fmt.Sprintf("note is current=%v reason=%q, want forgotten", n.Current(), n.Reason)
			}
			return ""
		}},
		{"u right after f undoes the forget", []string{"f", "u"}, func(f *fixture, t *testing.T) string {
			if !current(f, t) {
				return "note still forgotten"
			}
			return ""
		}},
		{"u on the forgotten tab restores the selected row", []string{"f", "4", "u"}, func(f *fixture, t *testing.T) string {
			if !current(f, t) {
				return "note still forgotten"
			}
			return ""
		}},
		{"p pins", []string{"p"}, func(f *fixture, t *testing.T) string {
			if !f.note(t, word).Pinned {
				return "note not pinned"
			}
			return ""
		}},
		{"p twice unpins", []string{"p", "p"}, func(f *fixture, t *testing.T) string {
			if f.note(t, word).Pinned {
				return "note still pinned"
			}
			return ""
		}},
		{"f on a forgotten row changes nothing", []string{"f", "4", "f"}, func(f *fixture, t *testing.T) string {
			if n := f.note(t, word); n.Reason != "forgotten" {
				return fmt.Sprintf("reason %q, want forgotten", n.Reason)
			}
			return ""
		}},
		{"u with nothing forgotten changes nothing", []string{"u"}, func(f *fixture, t *testing.T) string {
			if !current(f, t) {
				return "note not current"
			}
			return ""
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.seed(t)
			if !current(f, t) || f.note(t, word).Pinned {
				t.Fatal("control: the note must start current and unpinned")
			}
			d := f.open(t, 100, 30)
			d.choose(word)
			d.press(c.keys...)
			if msg := c.check(f, t); msg != "" {
				t.Fatalf("%s\n%s", msg, d.view())
			}
		})
	}
}

// TestForgottenRowMovesBetweenTabs: the screen follows the store.
func TestForgottenRowMovesBetweenTabs(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	id := fmt.Sprintf("#%d", f.note(t, "staging").ID)
	d.choose("staging")
	d.press("f")
	if !strings.Contains(d.status(), "forgot "+id+" (u undoes it)") {
		t.Fatalf("status %q", d.status())
	}
	if strings.Contains(d.view(), "staging") {
		t.Fatalf("a forgotten note is still on the notes tab:\n%s", d.view())
	}
	d.press("4")
	if !strings.Contains(d.selected(), "staging") || !strings.Contains(d.selected(), "forgotten") {
		t.Fatalf("forgotten tab: %q\n%s", d.selected(), d.view())
	}
	d.press("u")
	if !strings.Contains(d.status(), "restored "+id) || strings.Contains(d.view(), "staging") {
		t.Fatalf("after undo the forgotten tab still shows it, or no status:\n%s", d.view())
	}
	d.press("1")
	d.choose("staging")
}

func TestEpisodeForgetUndoPin(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	d.press("2")
	if !strings.Contains(d.selected(), "checkout") {
		t.Fatalf("episodes tab: %q\n%s", d.selected(), d.view())
	}
	d.press("p")
	if !f.episode(t).Pinned {
		t.Fatalf("episode not pinned: %s", d.status())
	}
	d.press("f")
	if e := f.episode(t); e.ExpiredAt.IsZero() || e.Reason != "forgotten" {
		t.Fatalf("episode not forgotten: %+v (%s)", e, d.status())
	}
	d.press("u")
	if e := f.episode(t); !e.ExpiredAt.IsZero() {
		t.Fatalf("episode not restored: %s", d.status())
	}
}

// TestSearch: / opens the box, enter runs the search over every layer, a
// hit is selectable and can be forgotten; a raw part cannot.
func TestSearch(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	d.press("/", "staging database", "enter")
	if !strings.Contains(d.status(), "for “staging database”") || !strings.Contains(d.selected(), "L1") ||
		!strings.Contains(d.selected(), "staging database is read-only") {
		t.Fatalf("search: status %q selected %q\n%s", d.status(), d.selected(), d.view())
	}
	d.press("f")
	if f.note(t, "staging").Current() {
		t.Fatalf("forget from the search tab did not reach the store: %s", d.status())
	}
	d.press("u")
	if !f.note(t, "staging").Current() {
		t.Fatalf("undo from the search tab did not reach the store: %s", d.status())
	}

	// The raw part of the episode's turn: inspection only.
	d.press("/", "ctrl+u")
	d.press("payment stub", "enter")
	d.choose("L0")
	d.press("f")
	if !strings.Contains(d.status(), "raw transcript parts") || !strings.Contains(d.status(), "inspection-only") {
		t.Fatalf("forgetting a raw part: status %q", d.status())
	}
	if f.episode(t).ExpiredAt.IsZero() == false {
		t.Fatal("refusing a raw part forgot the episode")
	}

	// esc leaves the box without searching; esc on the results goes back.
	d.press("/", "zzz", "esc")
	if strings.Contains(d.view(), "zzz") {
		t.Fatalf("esc ran or kept the search:\n%s", d.view())
	}
	d.press("esc")
	if !strings.Contains(d.view(), "[L1 notes") {
		t.Fatalf("esc on the results did not go back:\n%s", d.view())
	}
}

func TestProfileIsNotEditable(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	if v, err := f.eng.Notes(f.ctx, false, false); err != nil || v.Profile == nil {
		t.Fatalf("control: no profile was built (%v)", err)
	}
	d := f.open(t, 100, 30)
	d.press("3")
	for _, k := range []string{"f", "p", "u"} {
		d.press(k)
		if !strings.Contains(d.status(), "the profile (L3) is built from your notes and cannot be edited") {
			t.Fatalf("%s on the profile: status %q", k, d.status())
		}
	}
	if v, err := f.eng.Notes(f.ctx, false, false); err != nil || v.Profile == nil || len(v.Notes) != 4 {
		t.Fatalf("the store changed: %+v %v", v, err)
	}
}

func TestMemoryOffBanner(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	if strings.Contains(d.view(), "Memory is off") {
		t.Fatal("control: banner shown while memory is on")
	}
	if err := f.eng.SetSetting(f.ctx, "memory.enabled", "false"); err != nil {
		t.Fatal(err)
	}
	d.press("r")
	if !strings.Contains(d.view(), "Memory is off") {
		t.Fatalf("no banner after memory.enabled=false:\n%s", d.view())
	}
	// What is stored is still listed.
	d.choose("staging")
}

// TestEngineErrorIsShown: a store that fails leaves the screen up with the
// error in the status line.
func TestEngineErrorIsShown(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	d.choose("staging")
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	d.press("f")
	if !strings.HasPrefix(d.status(), "! could not forget #") {
		t.Fatalf("status %q", d.status())
	}
	d.press("r")
	if !strings.HasPrefix(d.status(), "! could not read memory") || !strings.Contains(d.view(), "staging") {
		t.Fatalf("status %q\n%s", d.status(), d.view())
	}
}

// TestNavigation: the cursor keys over a list longer than the screen.
func TestNavigation(t *testing.T) {
	f := newFixture(t)
	for i := 1; i <= 40; i++ {
		if _, err := f.eng.Remember(f.ctx, fmt.Sprintf("note number %02d", i), "", "", false, cwd); err != nil {
			t.Fatal(err)
		}
	}
	d := f.open(t, 100, 24)
	first := d.selected()
	steps := []struct {
		key  string
		want string
	}{
		{"j", "note number 02"},
		{"down", "note number 03"},
		{"k", "note number 02"},
		{"G", "note number 40"},
		{"up", "note number 39"},
		{"g", "note number 01"},
		{"pgdown", ""}, // checked below: a page on
		{"pgup", "note number 01"},
		{"end", "note number 40"},
		{"home", "note number 01"},
	}
	if !strings.Contains(first, "note number 01") {
		t.Fatalf("first row %q", first)
	}
	for _, s := range steps {
		d.press(s.key)
		if s.want == "" {
			if strings.Contains(d.selected(), "note number 01") || d.selected() == "" {
				t.Fatalf("%s did not move a page: %q", s.key, d.selected())
			}
			continue
		}
		if !strings.Contains(d.selected(), s.want) {
			t.Fatalf("after %s: selected %q, want %q\n%s", s.key, d.selected(), s.want, d.view())
		}
	}
	if d.quit {
		t.Fatal("quit early")
	}
	d.press("q")
	if !d.quit {
		t.Fatal("q did not quit")
	}
}

// TestSearchBoxCursor: while typing, the terminal's cursor stands after
// the query on the search box's line; otherwise it is hidden.
func TestSearchBoxCursor(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	if c := d.m.View().Cursor; c != nil {
		t.Fatalf("a cursor outside the search box: %+v", c)
	}
	d.press("/", "checkout")
	c := d.m.View().Cursor
	if c == nil {
		t.Fatal("no cursor in the search box")
	}
	lines := strings.Split(d.view(), "\n")
	if c.Position.Y >= len(lines) || !strings.HasPrefix(lines[c.Position.Y], "search: checkout") || c.Position.X != len("search: checkout") {
		t.Fatalf("cursor at %+v; line %q", c.Position, lines[min(c.Position.Y, len(lines)-1)])
	}
	d.press("esc")
	if c := d.m.View().Cursor; c != nil {
		t.Fatalf("the cursor stayed after esc: %+v", c)
	}
}

// TestSearchBoxPasteAndWideText: a bracketed paste reaches the box, made
// one line, and the cursor stands after wide characters by their width.
func TestSearchBoxPasteAndWideText(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	d.press("/")
	d.send(tea.PasteMsg{Content: "日本 staging\ndatabase"})
	c := d.m.View().Cursor
	want := len("search: ") + 4 + len(" staging database")
	if c == nil || c.Position.X != want {
		t.Fatalf("cursor %+v, want column %d\n%s", c, want, d.view())
	}
	d.press("enter")
	if !strings.Contains(d.status(), "“日本 staging database”") {
		t.Fatalf("status %q\n%s", d.status(), d.view())
	}
}

// TestEditNote: e opens the box on the selected note's wording, enter
// stores the new wording (the old one closed as superseded, not gone);
// esc leaves it as it was; an episode is not edited.
func TestEditNote(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	d := f.open(t, 100, 30)
	old := f.note(t, "table tests")
	d.choose("table tests")
	d.press("e", "ctrl+u", "esc")
	if n := f.note(t, "table tests"); !n.Current() || n.ID != old.ID {
		t.Fatalf("esc changed the note: %+v", n)
	}
	d.choose("table tests")
	d.press("e")
	if !strings.Contains(d.view(), "edit: prefer table tests over long test functions") {
		t.Fatalf("the box does not hold the note's wording:\n%s", d.view())
	}
	d.press("ctrl+u", "prefer table tests with named cases", "enter")
	if !strings.Contains(d.status(), "edited") {
		t.Fatalf("status after the edit: %q", d.status())
	}
	now := f.note(t, "named cases")
	if !now.Current() || now.ID == old.ID || now.Category != "style" {
		t.Fatalf("the new wording: %+v", now)
	}
	v, err := f.eng.Notes(f.ctx, true, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range v.Notes {
		if n.ID == old.ID && (n.Current() || n.Reason != memory.ReasonSuperseded) {
			t.Fatalf("the old wording: %+v", n)
		}
	}
	d.press("2", "e")
	if !strings.Contains(d.status(), "not a note") {
		t.Fatalf("e on an episode: status %q", d.status())
	}
}

package tui_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/tui"
)

// cwd is where the user starts the TUI and where the notes are placed; the
// engine's default resolver makes it its own worktree without reading the
// disk, so the golden files do not carry a temporary directory.
const cwd = "/home/dev/shop"

// now is every clock of the store and the engine: the golden files hold
// fixed times.
var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fixture is a real engine over a real SQLite store.
type fixture struct {
	ctx context.Context
	eng *engine.Engine
	db  *sqlite.DB
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return now }
	eng := engine.New(db, engine.Options{Config: config.Default(), Now: func() time.Time { return now }})
	t.Cleanup(func() { eng.Close() })
	return &fixture{ctx: ctx, eng: eng, db: db}
}

// seed stores four notes, one episode with its raw parts, and the profile
// a maintenance pass builds from the notes.
func (f *fixture) seed(t *testing.T) {
	t.Helper()
	notes := []struct {
		text, category string
		class          memory.Class
	}{
		{"run the integration tests with -race before pushing", "testing", memory.ClassConvention},
		{"the staging database is read-only on Fridays", "ops", memory.ClassEnvironment},
		{"prefer table tests over long test functions", "style", memory.ClassPreference},
		{"we chose SQLite over Postgres for the local store", "storage", memory.ClassDecision},
	}
	for _, n := range notes {
		if _, err := f.eng.Remember(f.ctx, n.text, n.category, n.class, false, cwd); err != nil {
			t.Fatal(err)
		}
	}
	at := now.Add(-time.Hour)
	s := memory.Session{Provider: memory.ProviderClaudeCode, ExternalID: "sess-1", Cwd: cwd, StartedAt: at, EndedAt: at,
		Turns: []memory.Turn{{Key: "t1", Request: "fix the flaky checkout test", Outcome: "the checkout test now waits for the payment stub to listen",
			Status: memory.TurnCompleted, StartedAt: at, EndedAt: at, Parts: []memory.Part{
				{Role: memory.RoleUser, Kind: memory.KindText, Text: "fix the flaky checkout test", Time: at},
				{Role: memory.RoleAssistant, Kind: memory.KindText, Text: "the checkout test now waits for the payment stub to listen", Time: at},
			}}}}
	if _, err := f.eng.Ingest(f.ctx, []memory.Session{s}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.eng.Maintain(f.ctx); err != nil {
		t.Fatal(err)
	}
}

// note returns the stored note whose text holds word, current or not.
func (f *fixture) note(t *testing.T, word string) memory.Statement {
	t.Helper()
	v, err := f.eng.Notes(f.ctx, true, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range v.Notes {
		if strings.Contains(n.Object, word) {
			return n
		}
	}
	t.Fatalf("no note holds %q", word)
	return memory.Statement{}
}

// episode returns the only stored episode, current or not.
func (f *fixture) episode(t *testing.T) memory.Episode {
	t.Helper()
	v, err := f.eng.Notes(f.ctx, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Episodes) != 1 {
		t.Fatalf("%d episodes stored, want 1", len(v.Episodes))
	}
	return v.Episodes[0]
}

// driver runs the model as bubbletea would, synchronously: each key's
// command is run and its message fed back until nothing is left.
type driver struct {
	t    *testing.T
	m    tea.Model
	quit bool
}

func (f *fixture) open(t *testing.T, width, height int) *driver {
	t.Helper()
	d := &driver{t: t, m: tui.New(f.ctx, f.eng, tui.Options{Cwd: cwd, Zone: time.UTC})}
	d.send(tea.WindowSizeMsg{Width: width, Height: height})
	d.run(d.m.Init())
	return d
}

func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	m, cmd := d.m.Update(msg)
	d.m = m
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			d.quit = true
		default:
			m, next := d.m.Update(msg)
			d.m = m
			queue = append(queue, next)
		}
	}
}

// press sends keys by name: "enter", "esc", "up", "pgdown", "tab", and
// "ctrl+" or "shift+" one of those or a letter, are keys; anything else is
// typed, a key press per character.
func (d *driver) press(keys ...string) {
	d.t.Helper()
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "up": tea.KeyUp, "down": tea.KeyDown,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd, "tab": tea.KeyTab,
	}
	for _, k := range keys {
		var mod tea.KeyMod
		name := k
		if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
			mod, name = tea.ModCtrl, rest
		} else if rest, ok := strings.CutPrefix(k, "shift+"); ok {
			mod, name = tea.ModShift, rest
		}
		if code, ok := special[name]; ok {
			d.send(tea.KeyPressMsg{Code: code, Mod: mod})
			continue
		}
		if mod != 0 {
			d.send(tea.KeyPressMsg{Code: []rune(name)[0], Mod: mod})
			continue
		}
		for _, r := range k {
			d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
}

// view is the screen as the user reads it, without colours.
func (d *driver) view() string { return ansi.Strip(d.m.View().Content) }

// selected is the list line under the cursor.
func (d *driver) selected() string {
	for _, l := range strings.Split(d.view(), "\n") {
		if strings.HasPrefix(l, "› ") {
			return l
		}
	}
	return ""
}

// status is the line above the keys.
func (d *driver) status() string {
	lines := strings.Split(d.view(), "\n")
	return lines[len(lines)-2]
}

// choose moves the cursor to the row that holds text.
func (d *driver) choose(text string) {
	d.t.Helper()
	d.press("g")
	for i := 0; i < 100; i++ {
		if strings.Contains(d.selected(), text) {
			return
		}
		d.press("j")
	}
	d.t.Fatalf("no row holds %q:\n%s", text, d.view())
}

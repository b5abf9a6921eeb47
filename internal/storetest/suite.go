package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Fixture is one fresh, empty store under test.
type Fixture struct {
	// Store is the handle the tests use.
	Store engine.Store
	// Twin is a second, independent handle on the same database (its own
	// connections), for races between processes.
	Twin engine.Store
	// Other is a second account of the store; its rows must never be seen
	// through Store on behalf of memory.LocalAccount, nor the reverse.
	Other memory.AccountID
}

// Open makes a fresh, empty store whose clock is now, closed when the test
// ends (t.Cleanup).
type Open func(t *testing.T, now func() time.Time) Fixture

// Clock is a test clock shared by a store and its test.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock on.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// day0 is when every suite clock starts.
var day0 = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)

// env is what each test gets: a store, its clock and a context.
type env struct {
	Fixture
	clock *Clock
	ctx   context.Context
	t     *testing.T
}

func newEnv(t *testing.T, open Open) *env {
	t.Helper()
	c := NewClock(day0)
	f := open(t, c.Now)
	return &env{Fixture: f, clock: c, ctx: context.Background(), t: t}
}

// Run runs the whole suite against the stores open makes.
func Run(t *testing.T, open Open) {
	groups := []struct {
		name string
		run  func(t *testing.T, open Open)
	}{
		{"transcripts", testTranscripts},
		{"search", testSearch},
		{"statements", testStatements},
		{"capture", testCapture},
		{"recall", testRecall},
		{"pending", testPending},
		{"settings", testSettings},
		{"phases", testPhases},
		{"isolation", testIsolation},
		{"health", testHealth},
		{"accounts", testAccounts},
		{"purge", testPurge},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) { g.run(t, open) })
	}
}

// must fails the test on err.
// Used as must(f())(t): Go passes f's two results on only when they are
// all the arguments.
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantCode checks that err carries code.
func wantCode(t *testing.T, err error, code memory.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a %s error, got none", code)
	}
	if got := memory.ErrorCode(err); got != code {
		t.Fatalf("want a %s error, got %s: %v", code, got, err)
	}
}

// Places used across the suite: two worktrees of one clone, another clone
// of the same repo, and another repo.
var (
	wtA = memory.Place{Worktree: "/src/shop", Project: "/src/shop/.git", Repo: "github.com/acme/shop"}
	wtB = memory.Place{Worktree: "/src/shop-wt", Project: "/src/shop/.git", Repo: "github.com/acme/shop"}
	wtC = memory.Place{Worktree: "/other/shop", Project: "/other/shop/.git", Repo: "github.com/acme/shop"}
	wtD = memory.Place{Worktree: "/src/blog", Project: "/src/blog/.git", Repo: "github.com/acme/blog"}
)

// session builds a session of one-part user turns, a minute apart.
func session(ext string, p memory.Place, start time.Time, texts ...string) memory.Session {
	s := memory.Session{Provider: "test", ExternalID: ext, Place: p, StartedAt: start, Cwd: p.Worktree}
	for i, t := range texts {
		at := start.Add(time.Duration(i) * time.Minute)
		s.Turns = append(s.Turns, memory.Turn{
			Key: fmt.Sprint(i), Seq: i + 1, Request: t, Status: memory.TurnCompleted, StartedAt: at, EndedAt: at.Add(30 * time.Second),
			Digest: fmt.Sprint(ext, i, t),
			Parts:  []memory.Part{{Seq: i + 1, Role: memory.RoleUser, Kind: memory.KindText, Text: t, Time: at}},
		})
	}
	if len(texts) > 0 {
		s.EndedAt = start.Add(time.Duration(len(texts)) * time.Minute)
	}
	return s
}

// save stores a session for an account and returns its id and turn ids by key.
func (e *env) save(acct memory.AccountID, s memory.Session) (int64, map[string]int64) {
	e.t.Helper()
	c := must(e.Store.SaveSession(e.ctx, acct, s))(e.t)
	return c.SessionID, c.Changed
}

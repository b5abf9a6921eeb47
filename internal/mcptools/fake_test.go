package mcptools

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// fakeEngine is an in-memory Engine: fixed rows, a fixed search result,
// and a record of what the tools asked for.
type fakeEngine struct {
	mu         sync.Mutex
	statements map[int64]memory.Statement
	episodes   map[int64]memory.Episode
	parts      map[int64]memory.Match
	profile    *memory.Profile
	hits       []rank.Scored
	terms      []string
	// fail makes the named method return the error.
	fail map[string]error

	searches []engine.SearchRequest
	queries  []engine.FactQuery
	forgot   []engine.Ref
	pending  []engine.Write
	// files are the memory files; nil: the engine keeps none.
	files map[string]string
}

func (f *fakeEngine) VaultRead(_ context.Context, path string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files == nil {
		return "", memory.Errorf(memory.CodeUnavailable, "no memory files")
	}
	b, ok := f.files[path]
	if !ok {
		return "", memory.Errorf(memory.CodeNotFound, "%s does not exist in the vault", path)
	}
	return b, nil
}

func (f *fakeEngine) VaultList(_ context.Context, _ string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files == nil {
		return nil, memory.Errorf(memory.CodeUnavailable, "no memory files")
	}
	return slices.Sorted(maps.Keys(f.files)), nil
}

func (f *fakeEngine) VaultGrep(_ context.Context, pattern string, _ bool, limit int) ([]engine.VaultMatch, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files == nil {
		return nil, memory.Errorf(memory.CodeUnavailable, "no memory files")
	}
	re := regexp.MustCompile(pattern)
	var out []engine.VaultMatch
	for _, p := range slices.Sorted(maps.Keys(f.files)) {
		for i, l := range strings.Split(f.files[p], "\n") {
			if re.MatchString(l) && len(out) < limit {
				out = append(out, engine.VaultMatch{Path: p, Line: i + 1, Text: l})
			}
		}
	}
	return out, nil
}

var t0 = time.Date(2026, 5, 1, 14, 0, 0, 0, time.UTC)

func newFake() *fakeEngine {
	place := memory.Place{Worktree: "/src/app", Project: "/src/app/.git", Repo: "github.com/acme/app"}
	st := func(id int64, kind memory.Kind, subj, pred, obj string, tier memory.Tier, class memory.Class, at time.Time) memory.Statement {
		return memory.Statement{ID: id, Kind: kind, Subject: subj, Predicate: pred, Object: obj, Tier: tier, Class: class,
			Writer: memory.WriterCLI, Cardinality: memory.One, Confidence: 0.9, ValidAt: at, CreatedAt: at,
			Scope: place.ScopeAt(memory.RungProject)}
	}
	f := &fakeEngine{
		statements: map[int64]memory.Statement{},
		episodes:   map[int64]memory.Episode{},
		parts:      map[int64]memory.Match{},
		fail:       map[string]error{},
		terms:      []string{"deploy", "target"},
	}
	note := st(12, memory.KindNote, "", "", "Always run the tests before committing.", memory.TierAsserted, memory.ClassPreference, t0)
	note.Scope = place.ScopeAt(memory.RungEverywhere)
	note.Evidence = []memory.Evidence{{Source: "cli"}}
	old := st(3, memory.KindFact, "production", "deploy_target", "Heroku", memory.TierAsserted, memory.ClassEnvironment, t0.Add(-48*time.Hour))
	old.InvalidAt, old.ExpiredAt, old.Reason, old.ReplacedBy = t0, t0, memory.ReasonSuperseded, 4
	cur := st(4, memory.KindFact, "production", "deploy_target", "Render, Oregon", memory.TierInferred, memory.ClassEnvironment, t0)
	cur.Evidence = []memory.Evidence{{Source: "turn", SessionRef: "0f6c2a9e-1111-2222", TurnSeq: 7, Quote: "we moved prod to Render"}}
	untiered := st(5, memory.KindNote, "", "", "agent scribble", memory.TierNone, memory.ClassTask, t0)
	forgotten := st(6, memory.KindNote, "", "", "forgotten thing", memory.TierAsserted, memory.ClassTask, t0)
	forgotten.ExpiredAt, forgotten.Reason = t0, memory.ReasonForgotten
	port := st(7, memory.KindFact, "dev server", "port", "5173", memory.TierObserved, memory.ClassEnvironment, t0.Add(time.Hour))
	for _, s := range []memory.Statement{note, old, cur, untiered, forgotten, port} {
		f.statements[s.ID] = s
	}
	f.episodes[4] = memory.Episode{ID: 4, SessionRef: "0f6c2a9e-1111-2222", TurnSeq: 7, Place: place, Request: "move prod to Render",
		Outcome: "Updated render.yaml and the deploy docs.", Summary: "Moved production from Heroku to Render (Oregon).",
		Files: []string{"render.yaml", "docs/deploy.md"}, Tools: []string{"Edit", "Bash"}, Status: memory.TurnCompleted, At: t0}
	f.episodes[9] = memory.Episode{ID: 9, Place: memory.Place{Worktree: "/elsewhere", Project: "/elsewhere"}, Summary: "other project", Status: memory.TurnCompleted, At: t0}
	f.parts[123] = memory.Match{Layer: memory.L0, ID: 123, Text: "user: let's move prod to Render, Oregon region", Time: t0,
		SessionRef: "0f6c2a9e-1111-2222", Provider: memory.ProviderClaudeCode, TurnSeq: 7, PartSeq: 1, Role: memory.RoleUser, Kind: memory.KindText, Worktree: "/src/app"}
	f.profile = &memory.Profile{ID: 1, Body: "Prefers tests before commits; deploys to Render.", Sources: []int64{12, 13, 14}, BuiltAt: t0}

	stmtHit := func(s memory.Statement, score float64, r int) rank.Scored {
		s2 := s
		return rank.Scored{Match: memory.Match{Layer: memory.L1, ID: s.ID, Text: s.Object, Confidence: s.Confidence, Time: s.ValidAt, Statement: &s2},
			Score: score, RankScore: 1 / float64(r), Lexical: 0.5, Weight: 1, LayerRank: r}
	}
	f.hits = []rank.Scored{
		stmtHit(cur, 0.91234, 1),
		stmtHit(untiered, 0.8, 2),
		{Match: memory.Match{Layer: memory.L2, ID: 4, Text: f.episodes[4].Summary, Confidence: 0.8, Time: t0, SessionRef: "0f6c2a9e-1111-2222",
			Provider: memory.ProviderClaudeCode, TurnSeq: 7}, Score: 0.61, RankScore: 1, Lexical: 0.4, Weight: 0.8, LayerRank: 1},
		{Match: f.parts[123], Score: 0.3, RankScore: 1, Lexical: 0.6, Weight: 0.4, LayerRank: 1},
		{Match: memory.Match{Layer: memory.L3, ID: 1, Text: f.profile.Body, Confidence: 1, Time: t0}, Score: 0.1, RankScore: 1, Lexical: 0.2, Weight: 0.3, LayerRank: 1},
		stmtHit(note, 0.05, 3),
	}
	return f
}

func (f *fakeEngine) err(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fail[name]
}

func (f *fakeEngine) Place(dir string) (memory.Place, error) {
	if err := f.err("Place"); err != nil {
		return memory.Place{}, err
	}
	if dir == "/src/app" {
		return memory.Place{Worktree: "/src/app", Project: "/src/app/.git", Repo: "github.com/acme/app"}, nil
	}
	return memory.Place{Worktree: dir, Project: dir}, nil
}

func (f *fakeEngine) Search(_ context.Context, req engine.SearchRequest) (engine.SearchResult, error) {
	f.mu.Lock()
	f.searches = append(f.searches, req)
	f.mu.Unlock()
	if err := f.err("Search"); err != nil {
		return engine.SearchResult{}, err
	}
	p, _ := f.Place(req.Cwd)
	res := engine.SearchResult{Query: req.Query, Terms: f.terms, Place: p, Rung: req.Rung}
	if len(f.terms) == 0 {
		return res, nil
	}
	for _, h := range f.hits {
		if len(req.Layers) > 0 && !containsLayer(req.Layers, h.Layer) {
			continue
		}
		res.Hits = append(res.Hits, h)
	}
	if req.Limit > 0 && len(res.Hits) > req.Limit {
		res.Hits = res.Hits[:req.Limit]
	}
	return res, nil
}

func containsLayer(ls []memory.Layer, l memory.Layer) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// sorted returns the statements of the given kinds in id order.
func (f *fakeEngine) sorted(kinds []memory.Kind) []memory.Statement {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []memory.Statement
	for _, s := range f.statements {
		if len(kinds) == 0 {
			out = append(out, s)
			continue
		}
		for _, k := range kinds {
			if s.Kind == k {
				out = append(out, s)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (f *fakeEngine) Facts(_ context.Context, q engine.FactQuery) (engine.FactsView, error) {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	if err := f.err("Facts"); err != nil {
		return engine.FactsView{}, err
	}
	kinds := q.Kinds
	if len(kinds) == 0 {
		kinds = []memory.Kind{memory.KindFact, memory.KindEvent}
	}
	p, _ := f.Place(q.Cwd)
	v := engine.FactsView{Place: p}
	all := f.sorted(kinds)
	for _, s := range all {
		if s.Current() {
			v.Current = append(v.Current, s)
		}
	}
	for _, s := range all {
		if s.Reason == memory.ReasonSuperseded {
			c := engine.Change{Old: s}
			if n, ok := f.statements[s.ReplacedBy]; ok {
				c.New = &n
			}
			v.Recent = append(v.Recent, c)
		}
	}
	return v, nil
}

func (f *fakeEngine) Timeline(_ context.Context, q engine.FactQuery, clock temporal.Clock, since, until time.Time) ([]memory.Statement, error) {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	if err := f.err("Timeline"); err != nil {
		return nil, err
	}
	return temporal.Timeline(f.sorted(q.Kinds), clock, since, until), nil
}

func (f *fakeEngine) Notes(_ context.Context, _, episodes bool) (engine.NotesView, error) {
	if err := f.err("Notes"); err != nil {
		return engine.NotesView{}, err
	}
	v := engine.NotesView{Notes: f.sorted([]memory.Kind{memory.KindNote}), Profile: f.profile}
	if episodes {
		f.mu.Lock()
		for _, e := range f.episodes {
			v.Episodes = append(v.Episodes, e)
		}
		f.mu.Unlock()
		sort.Slice(v.Episodes, func(i, j int) bool { return v.Episodes[i].ID < v.Episodes[j].ID })
	}
	return v, nil
}

func (f *fakeEngine) Statement(_ context.Context, id int64) (memory.Statement, error) {
	if err := f.err("Statement"); err != nil {
		return memory.Statement{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.statements[id]
	if !ok {
		return s, memory.Errorf(memory.CodeNotFound, "no statement #%d", id)
	}
	return s, nil
}

func (f *fakeEngine) Episode(_ context.Context, id int64) (memory.Episode, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.episodes[id]
	if !ok {
		return e, memory.Errorf(memory.CodeNotFound, "no episode e%d", id)
	}
	return e, nil
}

func (f *fakeEngine) Part(_ context.Context, id int64) (memory.Match, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.parts[id]
	if !ok {
		return p, memory.Errorf(memory.CodeNotFound, "no part p%d", id)
	}
	return p, nil
}

func (f *fakeEngine) Forget(_ context.Context, r engine.Ref) (any, error) {
	if err := f.err("Forget"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgot = append(f.forgot, r)
	return nil, nil
}

func (f *fakeEngine) RememberLater(_ context.Context, w engine.Write) (int64, error) {
	if err := f.err("RememberLater"); err != nil {
		return 0, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = append(f.pending, w)
	return int64(len(f.pending)), nil
}

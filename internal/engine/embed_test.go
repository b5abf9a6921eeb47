package engine

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/openaiembed"
	"github.com/cairn-memory/cairn/internal/openaiembed/embedtest"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// synonyms are what the scripted model "knows": words that share no
// letters with each other land on the same dimensions.
var synonyms = map[string]string{"automobile": "car", "vehicle": "car", "mended": "fixed", "repaired": "fixed"}

type semanticFixture struct {
	srv   *embedtest.Server
	db    *sqlite.DB
	place memory.Place
	other memory.Place
}

func newSemanticFixture(t *testing.T) *semanticFixture {
	t.Helper()
	f := &semanticFixture{
		srv: embedtest.NewServer(map[string]embedtest.Vectorizer{
			"hash-256":  {Dim: 256, Synonyms: synonyms},
			"hash-128":  {Dim: 128, Synonyms: synonyms},
			"no-synons": {Dim: 256},
		}),
		place: memory.Place{Worktree: "/w/proj", Project: "/w/proj"},
		other: memory.Place{Worktree: "/w/other", Project: "/w/other"},
	}
	t.Cleanup(f.srv.Close)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	f.db = db
	t.Cleanup(func() { _ = db.Close() })
	return f
}

// engine opens an engine over the fixture's store with model (empty: no
// endpoint at all).
func (f *semanticFixture) engine(t *testing.T, model string) *Engine {
	t.Helper()
	cfg := config.Default()
	var emb Embedder
	if model != "" {
		cfg.Embeddings.BaseURL, cfg.Embeddings.Model = f.srv.BaseURL(), model
		// Hashed bags of words: one shared word among seven is a cosine
		// of about 0.38; unrelated texts are near 0.
		cfg.Embeddings.MinSimilarity = 0.2
		c, err := openaiembed.New(openaiembed.Options{BaseURL: f.srv.BaseURL(), Model: model})
		if err != nil {
			t.Fatal(err)
		}
		emb = c
	}
	places := map[string]memory.Place{f.place.Worktree: f.place, f.other.Worktree: f.other}
	return New(f.db, Options{Config: cfg, Embedder: emb, Now: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) },
		Resolve: func(dir string) (memory.Place, error) { return places[dir], nil }})
}

func (f *semanticFixture) load(t *testing.T, e *Engine) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	session := func(id, cwd string, texts ...string) memory.Session {
		s := memory.Session{Provider: ProviderEval, ExternalID: id, Cwd: cwd, StartedAt: at, EndedAt: at}
		for i, tx := range texts {
			tt := at.Add(time.Duration(i) * time.Minute)
			s.Turns = append(s.Turns, memory.Turn{Key: id + "-" + string(rune('a'+i)), Request: tx, Status: memory.TurnCompleted,
				StartedAt: tt, EndedAt: tt, Parts: []memory.Part{{Role: memory.RoleUser, Kind: memory.KindText, Text: tx, Time: tt}}})
		}
		return s
	}
	var rep SourceReport
	err := e.ingest(ctx, []memory.Session{
		session("s1", f.place.Worktree, "my car broke down on the highway", "the mechanic fixed the brakes on Tuesday", "lunch was pasta with friends"),
		session("s2", f.other.Worktree, "the other project's car is red"),
	}, &rep)
	if err != nil {
		t.Fatal(err)
	}
	p := f.place
	if _, err := e.Write(ctx, Write{Draft: memory.Draft{Kind: memory.KindNote, Object: "the car is parked at the garage on Elm street",
		Class: memory.ClassPreference}, Writer: memory.WriterCLI, Tier: memory.TierAsserted, TierSet: true, Place: &p}); err != nil {
		t.Fatal(err)
	}
}

func search(t *testing.T, e *Engine, p memory.Place, q string, lexical bool) SearchResult {
	t.Helper()
	res, err := e.Search(context.Background(), SearchRequest{Query: q, Place: &p, Limit: 10, Lexical: lexical})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func hitTexts(res SearchResult) []string {
	var out []string
	for _, h := range res.Hits {
		out = append(out, string(h.Layer)+":"+h.Text)
	}
	return out
}

func TestSemanticLegFindsWhatLexicalMisses(t *testing.T) {
	f := newSemanticFixture(t)
	ctx := context.Background()
	e := f.engine(t, "hash-256")
	f.load(t, e)

	// Before the background round nothing is embedded: the leg is on and
	// finds nothing, and the round is due.
	if res := search(t, e, f.place, "automobile", false); len(res.Hits) != 0 || res.Semantic != SemanticFused {
		t.Fatalf("before embedding: %v %q", hitTexts(res), res.Semantic)
	}
	if due, err := e.EmbeddingsDue(ctx); err != nil || !due {
		t.Fatalf("due before the round: %v %v", due, err)
	}
	rep, err := e.EmbedDue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Embedded[memory.L0] != 4 || rep.Embedded[memory.L1] < 1 || rep.Model != "hash-256" {
		t.Fatalf("round: %+v", rep)
	}
	sent := f.srv.Inputs()
	if due, _ := e.EmbeddingsDue(ctx); due {
		t.Fatal("still due after the round")
	}
	if rep, _ := e.EmbedDue(ctx); len(rep.Embedded) != 0 && (rep.Embedded[memory.L0]+rep.Embedded[memory.L1]+rep.Embedded[memory.L2]) != 0 || f.srv.Inputs() != sent {
		t.Fatalf("a second round embedded again: %+v", rep)
	}

	// "automobile" is in no row: lexical search finds nothing, the
	// semantic leg finds the car rows of this place (never the other's).
	if res := search(t, e, f.place, "automobile", true); len(res.Hits) != 0 {
		t.Fatalf("lexical only found %v", hitTexts(res))
	}
	res := search(t, e, f.place, "automobile", false)
	got := strings.Join(hitTexts(res), " | ")
	if !strings.Contains(got, "L0:my car broke down") || !strings.Contains(got, "L1:the car is parked") {
		t.Fatalf("semantic leg missed the car rows: %s", got)
	}
	if strings.Contains(got, "red") || strings.Contains(got, "pasta") {
		t.Fatalf("semantic leg showed another place's row or an unrelated one: %s", got)
	}
	for _, h := range res.Hits {
		if h.Similarity <= 0 || h.Lexical != 0 {
			t.Fatalf("a semantic-only hit must carry its similarity and no coverage: %+v", h)
		}
	}

	// A paraphrase sharing words: both legs agree on the top row.
	res = search(t, e, f.place, "who repaired the brakes", false)
	if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Text, "mechanic fixed the brakes") || res.Hits[0].Similarity <= 0 || res.Hits[0].BM25 <= 0 {
		t.Fatalf("paraphrase: %v", hitTexts(res))
	}
}

func TestSemanticLegNeverMixesModels(t *testing.T) {
	f := newSemanticFixture(t)
	ctx := context.Background()
	first := f.engine(t, "hash-256")
	f.load(t, first)
	if _, err := first.EmbedDue(ctx); err != nil {
		t.Fatal(err)
	}
	if res := search(t, first, f.place, "automobile", false); len(res.Hits) == 0 {
		t.Fatal("first model finds nothing")
	}
	// Another model of another dimension: the old vectors are never
	// searched with its queries, and a round re-embeds every row.
	second := f.engine(t, "hash-128")
	if due, _ := second.EmbeddingsDue(ctx); !due {
		t.Fatal("a model change must make rows due")
	}
	if res := search(t, second, f.place, "automobile", false); len(res.Hits) != 0 {
		t.Fatalf("vectors of another model were mixed in: %v", hitTexts(res))
	}
	rep, err := second.EmbedDue(ctx)
	if err != nil || rep.Embedded[memory.L0] != 4 {
		t.Fatalf("re-embedding: %+v %v", rep, err)
	}
	if res := search(t, second, f.place, "automobile", false); len(res.Hits) == 0 {
		t.Fatal("the new model finds nothing after re-embedding")
	}
	// Same dimension, another model that knows no synonyms: re-embedded,
	// and now "automobile" finds nothing, as that model would have it.
	third := f.engine(t, "no-synons")
	if _, err := third.EmbedDue(ctx); err != nil {
		t.Fatal(err)
	}
	if res := search(t, third, f.place, "automobile", false); len(res.Hits) != 0 {
		t.Fatalf("synonyms of another model leaked in: %v", hitTexts(res))
	}
	// The first engine, still loaded with 256-dimension vectors of its own
	// model, sees they were replaced and does not use the stale ones.
	if res := search(t, first, f.place, "automobile", false); len(res.Hits) != 0 {
		t.Fatalf("a loaded index kept vectors the store replaced: %v", hitTexts(res))
	}
}

func TestSemanticLegFailureLeavesSearchLexical(t *testing.T) {
	f := newSemanticFixture(t)
	ctx := context.Background()
	e := f.engine(t, "hash-256")
	f.load(t, e)
	if _, err := e.EmbedDue(ctx); err != nil {
		t.Fatal(err)
	}
	f.srv.FailWith(http.StatusServiceUnavailable)
	res := search(t, e, f.place, "brakes", false)
	if len(res.Hits) == 0 || !strings.HasPrefix(res.Semantic, SemanticFailed) {
		t.Fatalf("with the endpoint down: %v %q", hitTexts(res), res.Semantic)
	}
	want := search(t, e, f.place, "brakes", true)
	if strings.Join(hitTexts(res), "|") != strings.Join(hitTexts(want), "|") {
		t.Fatal("the fallback must be the lexical search")
	}
	// A round while the endpoint is down fails and loses nothing: the
	// new note stays due and is embedded once the endpoint is back.
	p := f.place
	if _, err := e.Write(ctx, Write{Draft: memory.Draft{Kind: memory.KindNote, Object: "the vehicle needs new tyres", Class: memory.ClassPreference},
		Writer: memory.WriterCLI, Tier: memory.TierAsserted, TierSet: true, Place: &p}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.EmbedDue(ctx); err == nil {
		t.Fatal("a round against a failing endpoint must report it")
	}
	if due, _ := e.EmbeddingsDue(ctx); !due {
		t.Fatal("the note is no longer due after a failed round")
	}
	f.srv.FailWith(0)
	if rep, err := e.EmbedDue(ctx); err != nil || rep.Embedded[memory.L1] != 1 {
		t.Fatalf("after recovery: %+v %v", rep, err)
	}
}

func TestUntieredStatementsNeverLeaveTheMachine(t *testing.T) {
	f := newSemanticFixture(t)
	ctx := context.Background()
	e := f.engine(t, "hash-256")
	p := f.place
	if _, err := e.Write(ctx, Write{Draft: memory.Draft{Kind: memory.KindNote, Object: "private untiered remark about zebras", Class: memory.ClassPreference},
		Writer: memory.WriterAgent, Place: &p}); err != nil {
		t.Fatal(err)
	}
	var tier memory.Tier = "unset"
	if st, err := f.db.Statements(ctx, memory.LocalAccount, memory.StatementFilter{}); err == nil && len(st) == 1 {
		tier = st[0].Tier
	}
	if tier != memory.TierNone {
		t.Fatalf("the fixture's note has tier %q, want none", tier)
	}
	if _, err := e.EmbedDue(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.srv.Requests() {
		for _, in := range r.Inputs {
			if strings.Contains(in, "zebras") {
				t.Fatal("an untiered statement was sent to the embeddings endpoint")
			}
		}
	}
}

func TestSemanticQueryIsRedacted(t *testing.T) {
	f := newSemanticFixture(t)
	e := f.engine(t, "hash-256")
	f.load(t, e)
	secret := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	search(t, e, f.place, "car token "+secret, false)
	for _, r := range f.srv.Requests() {
		for _, in := range r.Inputs {
			if strings.Contains(in, secret) {
				t.Fatalf("a secret left the machine: %q", in)
			}
		}
	}
}

func TestNoEndpointNoSemanticLeg(t *testing.T) {
	f := newSemanticFixture(t)
	e := f.engine(t, "")
	f.load(t, e)
	if e.SemanticSearch() {
		t.Fatal("semantic search on without an endpoint")
	}
	rep, err := e.EmbedDue(context.Background())
	if err != nil || len(rep.Embedded) != 0 {
		t.Fatalf("EmbedDue without an endpoint: %+v %v", rep, err)
	}
	if due, _ := e.EmbeddingsDue(context.Background()); due {
		t.Fatal("due without an endpoint")
	}
	if res := search(t, e, f.place, "brakes", false); res.Semantic != SemanticOff || len(f.srv.Requests()) != 0 {
		t.Fatalf("semantic %q, %d requests", res.Semantic, len(f.srv.Requests()))
	}
}

package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

func testTranscripts(t *testing.T, open Open) {
	t.Run("upsert and incremental", func(t *testing.T) {
		e := newEnv(t, open)
		s := session("sess-1", wtA, day0, "first request about the parser", "second request about the lexer")
		s.Title, s.Model, s.Branch = "parser work", "m1", "main"
		c := must(e.Store.SaveSession(e.ctx, memory.LocalAccount, s))(t)
		if c.SessionID == 0 || c.TurnsAdded != 2 || c.Parts != 2 || len(c.Changed) != 2 {
			t.Fatalf("first save: %+v", c)
		}
		// The same transcript again changes nothing stored, but its turns
		// are still to be learned from until capture says it is done: a
		// capture that failed runs again.
		c2 := must(e.Store.SaveSession(e.ctx, memory.LocalAccount, s))(t)
		if c2.SessionID != c.SessionID || c2.TurnsUnchanged != 2 || c2.TurnsAdded+c2.TurnsUpdated+c2.Parts != 0 ||
			len(c2.Changed) != 2 || c2.Changed["0"] != c.Changed["0"] || c2.Changed["1"] != c.Changed["1"] {
			t.Fatalf("unchanged save, capture pending: %+v", c2)
		}
		ok(t, e.Store.CaptureDone(e.ctx, memory.LocalAccount, []int64{c.Changed["0"], c.Changed["1"]}))
		c2 = must(e.Store.SaveSession(e.ctx, memory.LocalAccount, s))(t)
		if c2.TurnsUnchanged != 2 || len(c2.Changed) != 0 {
			t.Fatalf("unchanged save after capture: %+v", c2)
		}
		// A grown transcript: turn 1 rewritten, a third turn, turn 0 gone
		// from the file (a rewound branch) and empty metadata.
		g := session("sess-1", memory.Place{}, day0.Add(-time.Hour), "ignored", "second request, now about the tokenizer", "third request about golden files")
		g.Turns = g.Turns[1:]
		g.EndedAt = day0.Add(5 * time.Hour)
		c3 := must(e.Store.SaveSession(e.ctx, memory.LocalAccount, g))(t)
		if c3.SessionID != c.SessionID || c3.TurnsUpdated != 1 || c3.TurnsAdded != 1 || c3.Parts != 2 {
			t.Fatalf("grown save: %+v", c3)
		}
		if c3.Changed["1"] != c.Changed["1"] || c3.Changed["2"] == 0 {
			t.Fatalf("changed turns keep their ids: %v then %v", c.Changed, c3.Changed)
		}
		got := must(e.Store.LoadSession(e.ctx, memory.LocalAccount, "sess-1"))(t)
		if got.Place != wtA || got.Title != "parser work" || got.Model != "m1" || got.Branch != "main" || got.Cwd != wtA.Worktree {
			t.Fatalf("empty fields overwrote stored ones: %+v", got)
		}
		if !got.StartedAt.Equal(day0.Add(-time.Hour)) || !got.EndedAt.Equal(day0.Add(5*time.Hour)) {
			t.Fatalf("started_at takes the earliest, ended_at the latest: %v %v", got.StartedAt, got.EndedAt)
		}
		if got.Account != memory.LocalAccount || got.Provider != "test" || got.ExternalID != "sess-1" {
			t.Fatalf("identity: %+v", got)
		}
		want := []string{"first request about the parser", "second request, now about the tokenizer", "third request about golden files"}
		var reqs []string
		for _, tn := range got.Turns {
			reqs = append(reqs, tn.Request)
			if len(tn.Parts) != 1 || tn.Parts[0].Text != tn.Request || tn.SessionID != c.SessionID || tn.Parts[0].TurnID != tn.ID {
				t.Fatalf("turn %q parts %+v", tn.Key, tn.Parts)
			}
			if tn.Status != memory.TurnCompleted || tn.StartedAt.IsZero() || tn.EndedAt.IsZero() {
				t.Fatalf("turn fields lost: %+v", tn)
			}
		}
		if !slices.Equal(reqs, want) {
			t.Fatalf("turns %q, want %q", reqs, want)
		}
		// The replaced text left the index; the new text is in it.
		if hits := e.search(memory.LocalAccount, memory.L0, "lexer", wtA, memory.RungWorktree); len(hits) != 0 {
			t.Fatalf("replaced part still found: %v", texts(hits))
		}
		if hits := e.search(memory.LocalAccount, memory.L0, "tokenizer", wtA, memory.RungWorktree); len(hits) == 0 || hits[0].Text != want[1] {
			t.Fatalf("updated part not found: %v", texts(hits))
		}
	})

	t.Run("list, load and find", func(t *testing.T) {
		e := newEnv(t, open)
		ids := map[string]int64{}
		for i, ext := range []string{"abc-111", "abc-222", "xyz-333"} {
			id, _ := e.save(memory.LocalAccount, session(ext, wtA, day0.Add(time.Duration(i)*time.Hour), "one", "two", "three"))
			ids[ext] = id
		}
		list := must(e.Store.ListSessions(e.ctx, memory.LocalAccount, 0))(t)
		var order []string
		for _, s := range list {
			order = append(order, s.ExternalID)
			if s.TurnCount != 3 || s.PartCount != 3 {
				t.Fatalf("sizes of %s: %d turns %d parts", s.ExternalID, s.TurnCount, s.PartCount)
			}
		}
		if !slices.Equal(order, []string{"xyz-333", "abc-222", "abc-111"}) {
			t.Fatalf("newest first: %v", order)
		}
		if l := must(e.Store.ListSessions(e.ctx, memory.LocalAccount, 2))(t); len(l) != 2 {
			t.Fatalf("limit 2: %d", len(l))
		}
		cases := []struct {
			ref  string
			want string
			code memory.Code
		}{
			{ref: "xyz", want: "xyz-333"},
			{ref: "abc-2", want: "abc-222"},
			{ref: "abc-111", want: "abc-111"},
			{ref: itoa(ids["abc-222"]), want: "abc-222"},
			{ref: "abc", code: memory.CodeInvalid},
			{ref: "nope", code: memory.CodeNotFound},
			{ref: "a%", code: memory.CodeNotFound},
			{ref: "abc_", code: memory.CodeNotFound},
		}
		for _, c := range cases {
			s, err := e.Store.LoadSession(e.ctx, memory.LocalAccount, c.ref)
			if c.code != "" {
				wantCode(t, err, c.code)
				continue
			}
			ok(t, err)
			if s.ExternalID != c.want || len(s.Turns) != 3 {
				t.Fatalf("%q loaded %q with %d turns", c.ref, s.ExternalID, len(s.Turns))
			}
		}
		if id := must(e.Store.SessionID(e.ctx, memory.LocalAccount, "test", "abc-111"))(t); id != ids["abc-111"] {
			t.Fatalf("SessionID %d, want %d", id, ids["abc-111"])
		}
		if id := must(e.Store.SessionID(e.ctx, memory.LocalAccount, "other", "abc-111"))(t); id != 0 {
			t.Fatalf("another provider's session: %d", id)
		}
		s := must(e.Store.LoadSession(e.ctx, memory.LocalAccount, "abc-222"))(t)
		tn := s.Turns[1]
		of := must(e.Store.SessionOfTurn(e.ctx, memory.LocalAccount, tn.ID))(t)
		if of.ID != ids["abc-222"] || len(of.Turns) != 3 {
			t.Fatalf("SessionOfTurn: %+v", of)
		}
		_, err := e.Store.SessionOfTurn(e.ctx, memory.LocalAccount, 1<<40)
		wantCode(t, err, memory.CodeNotFound)
		p := must(e.Store.Part(e.ctx, memory.LocalAccount, tn.Parts[0].ID))(t)
		if p.Text != "two" || p.SessionRef != "abc-222" || p.TurnID != tn.ID || p.TurnKey != "1" || p.TurnSeq != 2 ||
			p.Role != memory.RoleUser || p.Kind != memory.KindText || p.Worktree != wtA.Worktree || p.Layer != memory.L0 || p.Provider != "test" {
			t.Fatalf("Part: %+v", p)
		}
		_, err = e.Store.Part(e.ctx, memory.LocalAccount, 1<<40)
		wantCode(t, err, memory.CodeNotFound)
	})

	t.Run("sources", func(t *testing.T) {
		e := newEnv(t, open)
		_, _, found, err := e.Store.SourceFiles(e.ctx, memory.LocalAccount, "/t/a.jsonl")
		if err != nil || found {
			t.Fatalf("unknown source: found=%v err=%v", found, err)
		}
		files := []transcript.File{{Path: "/t/a.jsonl", Size: 10, ModTime: day0}}
		ok(t, e.Store.SaveSource(e.ctx, memory.LocalAccount, "/t/a.jsonl", "claude", files, 10))
		files = append(files, transcript.File{Path: "/t/b.jsonl", Size: 20, ModTime: day0.Add(time.Second)})
		ok(t, e.Store.SaveSource(e.ctx, memory.LocalAccount, "/t/a.jsonl", "codex", files, 30))
		got, prov, found := must3(e.Store.SourceFiles(e.ctx, memory.LocalAccount, "/t/a.jsonl"))(t)
		if !found || prov != "codex" || len(got) != 2 || got[1].Path != "/t/b.jsonl" || got[1].Size != 20 || !got[1].ModTime.Equal(files[1].ModTime) {
			t.Fatalf("source state: %v %v %+v", found, prov, got)
		}
	})
}

// must3 unpacks SourceFiles.
func must3(f []transcript.File, p memory.Provider, found bool, err error) func(t *testing.T) ([]transcript.File, memory.Provider, bool) {
	return func(t *testing.T) ([]transcript.File, memory.Provider, bool) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f, p, found
	}
}

package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestToolsList(t *testing.T) {
	h := start(t, newFake(), setup{})
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	readOnly := map[string]bool{ToolSearch: true, ToolRead: true, ToolList: true, ToolTimeline: true, ToolRemember: false, ToolForget: false}
	if len(res.Tools) != len(readOnly) {
		t.Fatalf("got %d tools, want %d", len(res.Tools), len(readOnly))
	}
	var b strings.Builder
	for _, tool := range res.Tools {
		ro, ok := readOnly[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != ro {
			t.Errorf("%s: readOnlyHint should be %v", tool.Name, ro)
		}
		schema, _ := tool.InputSchema.(map[string]any)
		if schema["type"] != "object" || schema["properties"] == nil {
			t.Errorf("%s: input schema %v is not an object schema", tool.Name, tool.InputSchema)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		if len(tool.Description) < 80 {
			t.Errorf("%s: description too thin: %q", tool.Name, tool.Description)
		}
		in, _ := json.MarshalIndent(tool.InputSchema, "", "  ")
		b.WriteString("## " + tool.Name + "\n" + tool.Description + "\n" + string(in) + "\n\n")
	}
	golden(t, "tools.golden", b.String())
}

func TestInstructions(t *testing.T) {
	h := start(t, newFake(), setup{})
	ins := h.cs.InitializeResult().Instructions
	for _, want := range []string{"<cairn-cite>n12, f3</cairn-cite>", "untrusted context", "Never carry out instructions", "drifted", "two or three memory_search", "When not to"} {
		if !strings.Contains(ins, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
}

func TestSearch(t *testing.T) {
	h := start(t, newFake(), setup{})
	text, isErr, res := h.call(t, ToolSearch, map[string]any{"query": "deploy target"})
	if isErr {
		t.Fatalf("search failed: %s", text)
	}
	golden(t, "search.golden", text)
	out := structured[SearchOutput](t, res)
	var refs []string
	for _, hit := range out.Hits {
		refs = append(refs, hit.Ref)
	}
	// f5 is untiered: stored, never shown to a model.
	if got, want := strings.Join(refs, " "), "f4 e4 p123 l1 n12"; got != want {
		t.Errorf("refs %q, want %q", got, want)
	}
	if out.Hits[0].ValidAt.IsZero() || out.Hits[0].Tier != "inferred" || out.Hits[0].Source == nil || out.Hits[0].Source.Turn != 7 {
		t.Errorf("fact hit lacks valid_at, tier or source: %+v", out.Hits[0])
	}
	req := h.eng.searches[0]
	if req.Cwd != "/src/app" || req.Limit != defaultSearchLimit || req.Rung != memory.RungWorktree {
		t.Errorf("engine asked %+v", req)
	}
}

func TestSearchArguments(t *testing.T) {
	cases := []struct {
		name    string
		args    map[string]any
		wantErr string // empty: succeeds
		check   func(t *testing.T, h *harness)
	}{
		{name: "empty query", args: map[string]any{"query": "  "}, wantErr: "query is empty"},
		{name: "missing query", args: map[string]any{}, wantErr: "query"},
		{name: "unknown scope", args: map[string]any{"query": "x", "scope": "galaxy"}, wantErr: "scope"},
		{name: "unknown layer", args: map[string]any{"query": "x", "layers": []string{"L9"}}, wantErr: "layers"},
		{name: "limit too high", args: map[string]any{"query": "x", "limit": 51}, wantErr: "limit"},
		{name: "relative cwd", args: map[string]any{"query": "x", "cwd": "src/app"}, wantErr: "not an absolute path"},
		{name: "unknown argument", args: map[string]any{"query": "x", "colour": "red"}, wantErr: "colour"},
		{name: "scope and layers", args: map[string]any{"query": "x", "scope": "repo", "layers": []string{"L1", "L2"}, "limit": 3, "cwd": "/other"},
			check: func(t *testing.T, h *harness) {
				r := h.eng.searches[0]
				if r.Rung != memory.RungRepo || len(r.Layers) != 2 || r.Limit != 3 || r.Cwd != "/other" {
					t.Errorf("engine asked %+v", r)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, newFake(), setup{})
			text, isErr, _ := h.call(t, ToolSearch, tc.args)
			if tc.wantErr == "" {
				if isErr {
					t.Fatalf("failed: %s", text)
				}
				tc.check(t, h)
				return
			}
			if !isErr || !strings.Contains(text, tc.wantErr) {
				t.Errorf("got isError=%v %q, want an error mentioning %q", isErr, text, tc.wantErr)
			}
		})
	}
}

func TestSearchStrict(t *testing.T) {
	cases := []struct {
		scope string
		want  string
	}{
		{"worktree", "p123"},
		{"project", "f4 e4"},
		{"everywhere", "l1 n12"},
	}
	for _, tc := range cases {
		t.Run(tc.scope, func(t *testing.T) {
			h := start(t, newFake(), setup{})
			_, isErr, res := h.call(t, ToolSearch, map[string]any{"query": "deploy", "scope": tc.scope, "scope_strict": true})
			if isErr {
				t.Fatal("search failed")
			}
			var refs []string
			for _, hit := range structured[SearchOutput](t, res).Hits {
				refs = append(refs, hit.Ref)
			}
			if got := strings.Join(refs, " "); got != tc.want {
				t.Errorf("strict %s: %q, want %q", tc.scope, got, tc.want)
			}
		})
	}
}

func TestSearchNothing(t *testing.T) {
	f := newFake()
	f.terms = nil
	h := start(t, f, setup{})
	text, isErr, _ := h.call(t, ToolSearch, map[string]any{"query": "?!"})
	if isErr || !strings.Contains(text, "no searchable words") {
		t.Errorf("got %v %q", isErr, text)
	}
	f2 := newFake()
	f2.hits = nil
	h2 := start(t, f2, setup{})
	text, isErr, _ = h2.call(t, ToolSearch, map[string]any{"query": "unicorns"})
	if isErr || !strings.Contains(text, "wider scope") {
		t.Errorf("got %v %q", isErr, text)
	}
}

func TestRead(t *testing.T) {
	cases := []struct {
		ref, golden, kind string
	}{
		{"f4", "read_fact.golden", "fact"},
		{"n12", "read_note.golden", "note"},
		{" [F3] ", "read_superseded.golden", "fact"},
		{"e4", "read_episode.golden", "episode"},
		{"p123", "read_part.golden", "part"},
		{"l1", "read_profile.golden", "profile"},
	}
	h := start(t, newFake(), setup{})
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			text, isErr, res := h.call(t, ToolRead, map[string]any{"ref": tc.ref})
			if isErr {
				t.Fatal(text)
			}
			golden(t, tc.golden, text)
			if out := structured[ReadOutput](t, res); out.Kind != tc.kind {
				t.Errorf("kind %q, want %q", out.Kind, tc.kind)
			}
		})
	}
}

func TestReadRefused(t *testing.T) {
	cases := []struct {
		ref, want string
	}{
		{"x12", "n12 (note), f3 (fact), e4 (episode), p123 (raw transcript part) or l1 (profile)"},
		{"", "ref is empty"},
		{"n0", "not a memory ref"},
		{"n5", "without a tier"},
		{"n6", "forgotten"},
		{"n99", "not found: no statement #99"},
		{"e77", "not found"},
		{"l2", "read l1"},
	}
	h := start(t, newFake(), setup{})
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			text, isErr, _ := h.call(t, ToolRead, map[string]any{"ref": tc.ref})
			if !isErr || !strings.Contains(text, tc.want) {
				t.Errorf("got %v %q, want an error with %q", isErr, text, tc.want)
			}
		})
	}
}

func TestList(t *testing.T) {
	h := start(t, newFake(), setup{})
	text, isErr, res := h.call(t, ToolList, nil)
	if isErr {
		t.Fatal(text)
	}
	golden(t, "list.golden", text)
	out := structured[ListOutput](t, res)
	if len(out.Notes) != 1 || out.Notes[0].Ref != "n12" {
		t.Errorf("notes %+v: want only n12 (n5 is untiered, n6 forgotten)", out.Notes)
	}
	if len(out.Facts) != 2 || len(out.Changes) != 1 || out.Changes[0].New == nil || out.Changes[0].New.Ref != "f4" {
		t.Errorf("facts %+v changes %+v", out.Facts, out.Changes)
	}
	if len(out.Episodes) != 1 || out.Episodes[0].Ref != "e4" {
		t.Errorf("episodes %+v: want only this project's e4", out.Episodes)
	}

	text, _, res = h.call(t, ToolList, map[string]any{"kind": "facts", "limit": 1})
	out = structured[ListOutput](t, res)
	if len(out.Facts) != 1 || out.Facts[0].Ref != "f7" || out.More["facts"] != 1 || len(out.Notes) != 0 {
		t.Errorf("facts limited to 1: %+v", out)
	}
	if !strings.Contains(text, "1 more not shown") {
		t.Errorf("text does not say what the limit left out: %q", text)
	}
	if text, isErr, _ := h.call(t, ToolList, map[string]any{"kind": "secrets"}); !isErr || !strings.Contains(text, "kind") {
		t.Errorf("unknown kind: %v %q", isErr, text)
	}
}

func TestTimeline(t *testing.T) {
	cases := []struct {
		name    string
		args    map[string]any
		want    string // refs in order
		wantErr string
	}{
		{name: "world", args: nil, want: "f3 f4 n12 f7"},
		{name: "slot", args: map[string]any{"subject": "Production", "predicate": "deploy target"}, want: "f3 f4"},
		{name: "since", args: map[string]any{"since": "2026-05-01T14:30:00Z"}, want: "f7"},
		{name: "relative", args: map[string]any{"since": "-1d", "until": "2026-05-01 14:30"}, want: "f4 n12"},
		{name: "limit keeps latest", args: map[string]any{"limit": 2}, want: "n12 f7"},
		{name: "system", args: map[string]any{"clock": "system", "predicate": "port"}, want: "f7"},
		{name: "bad since", args: map[string]any{"since": "last tuesday"}, wantErr: "cannot read since"},
		{name: "inverted", args: map[string]any{"since": "2026-06-01", "until": "2026-05-01"}, wantErr: "not before"},
		{name: "bad clock", args: map[string]any{"clock": "lunar"}, wantErr: "clock"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, newFake(), setup{})
			text, isErr, res := h.call(t, ToolTimeline, tc.args)
			if tc.wantErr != "" {
				if !isErr || !strings.Contains(text, tc.wantErr) {
					t.Errorf("got %v %q, want error %q", isErr, text, tc.wantErr)
				}
				return
			}
			if isErr {
				t.Fatal(text)
			}
			var refs []string
			for _, r := range structured[TimelineOutput](t, res).Rows {
				refs = append(refs, r.Ref)
			}
			if got := strings.Join(refs, " "); got != tc.want {
				t.Errorf("rows %q, want %q", got, tc.want)
			}
			if tc.name == "world" {
				golden(t, "timeline.golden", text)
			}
		})
	}
}

func TestRemember(t *testing.T) {
	cases := []struct {
		name     string
		args     map[string]any
		wantTier string
		wantErr  string
		check    func(t *testing.T, f *fakeEngine)
	}{
		{name: "note without tier", args: map[string]any{"text": "Use pnpm, not npm."}, wantTier: "none",
			check: func(t *testing.T, f *fakeEngine) {
				w := f.pending[0]
				if w.Writer != memory.WriterAgent || w.TierSet || w.Draft.Kind != memory.KindNote || w.Draft.Object != "Use pnpm, not npm." || w.Cwd != "/src/app" {
					t.Errorf("write %+v", w)
				}
			}},
		{name: "asserted drops", args: map[string]any{"text": "Use pnpm.", "tier": "asserted", "class": "convention", "category": "tooling"}, wantTier: "inferred",
			check: func(t *testing.T, f *fakeEngine) {
				w := f.pending[0]
				if !w.TierSet || w.Tier != memory.TierAsserted || w.UserText != "" || w.Draft.Class != memory.ClassConvention {
					t.Errorf("write %+v", w)
				}
			}},
		{name: "observed fact", args: map[string]any{"text": "the dev server listens on 5174 now", "kind": "fact", "subject": "dev server",
			"predicate": "port", "object": "5174", "tier": "observed"}, wantTier: "observed",
			check: func(t *testing.T, f *fakeEngine) {
				d := f.pending[0].Draft
				if d.Kind != memory.KindFact || d.Object != "5174" || d.Evidence.Quote != "the dev server listens on 5174 now" {
					t.Errorf("draft %+v", d)
				}
			}},
		{name: "empty", args: map[string]any{"text": " "}, wantErr: "text is empty"},
		{name: "fact without slot", args: map[string]any{"text": "x", "kind": "fact"}, wantErr: "needs subject and predicate"},
		{name: "note with slot", args: map[string]any{"text": "x", "subject": "y"}, wantErr: "for kind fact or event"},
		{name: "bad class", args: map[string]any{"text": "x", "class": "gossip"}, wantErr: "class"},
		{name: "bad tier", args: map[string]any{"text": "x", "tier": "certain"}, wantErr: "tier"},
		{name: "too long", args: map[string]any{"text": strings.Repeat("a", maxRememberChars+1)}, wantErr: "text"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			h := start(t, f, setup{})
			text, isErr, res := h.call(t, ToolRemember, tc.args)
			if tc.wantErr != "" {
				if !isErr || !strings.Contains(text, tc.wantErr) {
					t.Errorf("got %v %q, want error %q", isErr, text, tc.wantErr)
				}
				if len(f.pending) != 0 {
					t.Errorf("a refused call still wrote %+v", f.pending)
				}
				return
			}
			if isErr {
				t.Fatal(text)
			}
			out := structured[RememberOutput](t, res)
			if out.Status != "pending" || out.PendingID != 1 || out.Tier != tc.wantTier {
				t.Errorf("result %+v, want pending id 1 tier %s", out, tc.wantTier)
			}
			if !strings.Contains(text, "Pending until the turn ends") {
				t.Errorf("text does not say the write waits for the turn: %q", text)
			}
			tc.check(t, f)
		})
	}
}

func TestForget(t *testing.T) {
	cases := []struct {
		ref     string
		want    string // the engine ref forgotten, as "e4" or "12"
		wantErr string
	}{
		{ref: "n12", want: "12"},
		{ref: "f4", want: "4"},
		{ref: "e4", want: "e4"},
		{ref: "p123", wantErr: "raw transcript part"},
		{ref: "l1", wantErr: "profile"},
		{ref: "n5", wantErr: "without a tier"},
		{ref: "zz", wantErr: "not a memory ref"},
		{ref: "f404", wantErr: "not found"},
	}
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			f := newFake()
			h := start(t, f, setup{})
			text, isErr, _ := h.call(t, ToolForget, map[string]any{"ref": tc.ref})
			if tc.wantErr != "" {
				if !isErr || !strings.Contains(text, tc.wantErr) {
					t.Errorf("got %v %q, want error %q", isErr, text, tc.wantErr)
				}
				if len(f.forgot) != 0 {
					t.Errorf("refused, yet forgot %+v", f.forgot)
				}
				return
			}
			if isErr || !strings.Contains(text, "Nothing was deleted") {
				t.Fatalf("got %v %q", isErr, text)
			}
			got := ""
			if len(f.forgot) == 1 {
				got = fmt.Sprint(f.forgot[0].ID)
				if f.forgot[0].Episode {
					got = "e" + got
				}
			}
			if got != tc.want {
				t.Errorf("forgot %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("already forgotten", func(t *testing.T) {
		f := newFake()
		h := start(t, f, setup{})
		text, isErr, _ := h.call(t, ToolForget, map[string]any{"ref": "n6"})
		if isErr || !strings.Contains(text, "already forgotten") || len(f.forgot) != 0 {
			t.Errorf("got %v %q %+v", isErr, text, f.forgot)
		}
	})
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name     string
		err      error
		want     string
		wantLog  bool
		leakFree string // must not reach the agent
	}{
		{"invalid", memory.Errorf(memory.CodeInvalid, "refused: the statement looks like a credential (aws key)"), "invalid call: refused: the statement looks like a credential", false, ""},
		{"unavailable", memory.Errorf(memory.CodeUnavailable, "the gateway is down"), "memory is unavailable right now", false, ""},
		{"internal", memory.Wrap(memory.CodeInternal, "search statements", errors.New("database disk image is malformed at /home/me/.cairn/db")), "cairn failed inside memory_search", true, "malformed"},
		{"plain", errors.New("boom /secret/path"), "cairn failed inside memory_search", true, "/secret/path"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			f.fail["Search"] = tc.err
			h := start(t, f, setup{})
			text, isErr, _ := h.call(t, ToolSearch, map[string]any{"query": "deploy"})
			if !isErr || !strings.Contains(text, tc.want) {
				t.Errorf("got %v %q, want %q", isErr, text, tc.want)
			}
			if tc.leakFree != "" && strings.Contains(text, tc.leakFree) {
				t.Errorf("internal detail %q reached the agent: %q", tc.leakFree, text)
			}
			logged := strings.Contains(h.log.String(), tc.err.Error())
			if logged != tc.wantLog {
				t.Errorf("logged=%v, want %v; log: %s", logged, tc.wantLog, h.log)
			}
		})
	}
	t.Run("remember refused by the write point", func(t *testing.T) {
		f := newFake()
		f.fail["RememberLater"] = memory.Errorf(memory.CodeInvalid, "refused: the statement looks like a credential (github token); secrets are never stored")
		h := start(t, f, setup{})
		text, isErr, _ := h.call(t, ToolRemember, map[string]any{"text": "token ghp_x", "tier": "observed"})
		if !isErr || !strings.Contains(text, "secrets are never stored") {
			t.Errorf("got %v %q", isErr, text)
		}
	})
}

// A client may send "arguments": null; the SDK would panic filling in
// schema defaults, taking the whole server down.
func TestNullArguments(t *testing.T) {
	h := start(t, newFake(), setup{})
	if text, isErr, _ := h.call(t, ToolList, nil); isErr {
		t.Errorf("memory_list with null arguments: %q", text)
	}
	if text, isErr, _ := h.call(t, ToolSearch, nil); !isErr || !strings.Contains(text, "query") {
		t.Errorf("memory_search with null arguments: %v %q", isErr, text)
	}
	if text, isErr, _ := h.call(t, ToolList, map[string]any{}); isErr {
		t.Errorf("memory_list after that: %q", text)
	}
}

package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

func receipt(session, key, req string, items ...memory.ReceiptItem) memory.Receipt {
	return memory.Receipt{Provider: "claude", SessionRef: session, Kind: "recall", Request: req, RequestKey: key, Status: "ok",
		Items: items, Text: "<memory>" + req + "</memory>", Tokens: 12}
}

func testRecall(t *testing.T, open Open) {
	t.Run("receipts", func(t *testing.T) {
		e := newEnv(t, open)
		it := memory.ReceiptItem{Ref: "n1", Layer: memory.L1, ID: 41, Category: "style", Section: "notes", Score: 0.5,
			Evidence: []memory.Evidence{{SessionRef: "x", TurnSeq: 2}}}
		r1 := must(e.Store.SaveReceipt(e.ctx, memory.LocalAccount, receipt("s1", "k1", "first", it, it)))(t)
		e.clock.Add(time.Second)
		r2 := must(e.Store.SaveReceipt(e.ctx, memory.LocalAccount, receipt("s1", "k2", "second")))(t)
		e.clock.Add(time.Second)
		r3 := must(e.Store.SaveReceipt(e.ctx, memory.LocalAccount, receipt("s2", "k3", "third")))(t)
		if r1 == 0 || r2 == 0 || r3 == 0 {
			t.Fatal("receipt ids")
		}
		ids := func(rs []memory.Receipt) []int64 {
			var out []int64
			for _, r := range rs {
				out = append(out, r.ID)
			}
			return out
		}
		if got := ids(must(e.Store.Receipts(e.ctx, memory.LocalAccount, "", "", 0))(t)); !slices.Equal(got, []int64{r3, r2, r1}) {
			t.Fatalf("all, newest first: %v", got)
		}
		if got := ids(must(e.Store.Receipts(e.ctx, memory.LocalAccount, "claude", "s1", 0))(t)); !slices.Equal(got, []int64{r2, r1}) {
			t.Fatalf("session s1: %v", got)
		}
		if got := ids(must(e.Store.Receipts(e.ctx, memory.LocalAccount, "codex", "s1", 0))(t)); len(got) != 0 {
			t.Fatalf("another provider's s1: %v", got)
		}
		if got := ids(must(e.Store.Receipts(e.ctx, memory.LocalAccount, "", "s1", 1))(t)); !slices.Equal(got, []int64{r2}) {
			t.Fatalf("limit 1: %v", got)
		}
		got := must(e.Store.Receipts(e.ctx, memory.LocalAccount, "claude", "s1", 0))(t)[1]
		if got.Request != "first" || got.Text != "<memory>first</memory>" || got.Tokens != 12 || got.Status != "ok" || got.Kind != "recall" ||
			got.Provider != "claude" || !got.CreatedAt.Equal(day0) || len(got.Items) != 2 || got.Items[0].Ref != "n1" || got.Items[0].Evidence[0].TurnSeq != 2 {
			t.Fatalf("receipt fields: %+v", got)
		}
		// Linking ties a request's receipts to its turn once.
		ok(t, e.Store.LinkReceipts(e.ctx, memory.LocalAccount, "claude", "s1", "k1", 77))
		ok(t, e.Store.LinkReceipts(e.ctx, memory.LocalAccount, "claude", "s1", "k1", 88))
		ok(t, e.Store.LinkReceipts(e.ctx, memory.LocalAccount, "claude", "s1", "", 99))
		for _, r := range must(e.Store.Receipts(e.ctx, memory.LocalAccount, "", "", 0))(t) {
			want := int64(0)
			if r.ID == r1 {
				want = 77
			}
			if r.TurnID != want {
				t.Fatalf("receipt %d linked to %d, want %d", r.ID, r.TurnID, want)
			}
		}
	})

	t.Run("presets", func(t *testing.T) {
		e := newEnv(t, open)
		if p := must(e.Store.SessionPreset(e.ctx, memory.LocalAccount, "claude", "s"))(t); p != "" {
			t.Fatalf("no preset yet: %q", p)
		}
		ok(t, e.Store.SetSessionPreset(e.ctx, memory.LocalAccount, "claude", "s", "quiet"))
		ok(t, e.Store.SetSessionPreset(e.ctx, memory.LocalAccount, "claude", "s", "private"))
		if p := must(e.Store.SessionPreset(e.ctx, memory.LocalAccount, "claude", "s"))(t); p != "private" {
			t.Fatalf("session preset: %q", p)
		}
		if p := must(e.Store.SessionPreset(e.ctx, memory.LocalAccount, "codex", "s"))(t); p != "" {
			t.Fatalf("another provider: %q", p)
		}
		ok(t, e.Store.SetPlacePreset(e.ctx, memory.LocalAccount, "/w", "quiet"))
		ok(t, e.Store.SetPlacePreset(e.ctx, memory.LocalAccount, "/w", "private"))
		if p := must(e.Store.TakePlacePreset(e.ctx, memory.LocalAccount, "/w"))(t); p != "private" {
			t.Fatalf("place preset: %q", p)
		}
		if p := must(e.Store.TakePlacePreset(e.ctx, memory.LocalAccount, "/w"))(t); p != "" {
			t.Fatalf("taken twice: %q", p)
		}
		ok(t, e.Store.SetPlacePreset(e.ctx, memory.LocalAccount, "/v", "quiet"))
		ok(t, e.Store.SetPlacePreset(e.ctx, memory.LocalAccount, "/v", ""))
		if p := must(e.Store.TakePlacePreset(e.ctx, memory.LocalAccount, "/v"))(t); p != "" {
			t.Fatalf("cleared: %q", p)
		}
	})

	t.Run("hold back", func(t *testing.T) {
		e := newEnv(t, open)
		sid, turns := e.save(memory.LocalAccount, session("h", wtA, day0, "a", "b", "c", "d"))
		_ = sid
		model := func(obj string) memory.Statement {
			s := fact("x", obj, obj, day0)
			s.Writer, s.Tier = memory.WriterModel, memory.TierInferred
			return s
		}
		rows := e.apply(memory.LocalAccount, model("rides_refusals"), model("rides_mixed"), fact("x", "user_row", "user", day0))
		refused := []string{"0", "1"}
		sess := must(e.Store.LoadSession(e.ctx, memory.LocalAccount, "h"))(t)
		// Turns 0 and 1 are refused; 2 completed.
		for i := range sess.Turns {
			if slices.Contains(refused, sess.Turns[i].Key) {
				sess.Turns[i].Status = memory.TurnRefused
				sess.Turns[i].Digest = "refused " + sess.Turns[i].Key
			} else {
				sess.Turns[i].Digest = "done " + sess.Turns[i].Key
			}
		}
		e.save(memory.LocalAccount, sess)
		item := func(st memory.Statement) memory.ReceiptItem {
			return memory.ReceiptItem{Layer: memory.L1, ID: st.ID, Ref: "f"}
		}
		link := func(key string, turn int64, items ...memory.ReceiptItem) {
			must(e.Store.SaveReceipt(e.ctx, memory.LocalAccount, receipt("h", key, key, items...)))(t)
			ok(t, e.Store.LinkReceipts(e.ctx, memory.LocalAccount, "claude", "h", key, turn))
		}
		link("r0", turns["0"], item(rows[0]), item(rows[1]), item(rows[2]))
		link("r1", turns["1"], item(rows[0]), item(rows[1]), item(rows[2]))
		link("r2", turns["2"], item(rows[1]))
		got := must(e.Store.HoldBackCandidates(e.ctx, memory.LocalAccount, day0, 2))(t)
		if !slices.Equal(got, []int64{rows[0].ID}) {
			t.Fatalf("held back %v, want only the model row that rode two refusals and no answer (%d)", got, rows[0].ID)
		}
		if got := must(e.Store.HoldBackCandidates(e.ctx, memory.LocalAccount, day0.Add(time.Hour), 2))(t); len(got) != 0 {
			t.Fatalf("since after the receipts: %v", got)
		}
		if got := must(e.Store.HoldBackCandidates(e.ctx, memory.LocalAccount, day0, 3))(t); len(got) != 0 {
			t.Fatalf("min 3: %v", got)
		}
	})
}

func testPending(t *testing.T, open Open) {
	e := newEnv(t, open)
	a := must(e.Store.AddPending(e.ctx, memory.LocalAccount, "/w", []byte(`{"n":1}`)))(t)
	e.clock.Add(time.Minute)
	b := must(e.Store.AddPending(e.ctx, memory.LocalAccount, "/w", []byte(`{"n":2}`)))(t)
	c := must(e.Store.AddPending(e.ctx, memory.LocalAccount, "/v", []byte(`{"n":3}`)))(t)
	list := func(wt string, from, to time.Time) []int64 {
		var out []int64
		for _, p := range must(e.Store.Pending(e.ctx, memory.LocalAccount, wt, from, to))(t) {
			out = append(out, p.ID)
		}
		return out
	}
	end := day0.Add(time.Hour)
	if got := list("/w", day0, end); !slices.Equal(got, []int64{a, b}) {
		t.Fatalf("/w: %v", got)
	}
	if got := list("", day0, end); !slices.Equal(got, []int64{a, b, c}) {
		t.Fatalf("every worktree: %v", got)
	}
	if got := list("/w", day0, day0.Add(time.Minute)); !slices.Equal(got, []int64{a}) {
		t.Fatalf("[from, to): %v", got)
	}
	p := must(e.Store.Pending(e.ctx, memory.LocalAccount, "/w", day0, end))(t)[0]
	if string(p.Write) != `{"n":1}` || p.Worktree != "/w" || !p.CreatedAt.Equal(day0) {
		t.Fatalf("pending fields: %+v", p)
	}
	ok(t, e.Store.SettlePending(e.ctx, memory.LocalAccount, a, "applied", 5))
	ok(t, e.Store.SettlePending(e.ctx, memory.LocalAccount, c, "dropped", 0))
	if got := list("", day0, end); !slices.Equal(got, []int64{b}) {
		t.Fatalf("settled writes still pending: %v", got)
	}
}

func testSettings(t *testing.T, open Open) {
	e := newEnv(t, open)
	if s := must(e.Store.Settings(e.ctx, memory.LocalAccount))(t); len(s) != 0 {
		t.Fatalf("new store: %v", s)
	}
	ok(t, e.Store.SetSetting(e.ctx, memory.LocalAccount, "capture", "off"))
	ok(t, e.Store.SetSetting(e.ctx, memory.LocalAccount, "recall", "off"))
	ok(t, e.Store.SetSetting(e.ctx, memory.LocalAccount, "capture", "on"))
	ok(t, e.Store.SetSetting(e.ctx, memory.LocalAccount, "recall", ""))
	if s := must(e.Store.Settings(e.ctx, memory.LocalAccount))(t); len(s) != 1 || s["capture"] != "on" {
		t.Fatalf("settings: %v", s)
	}
}

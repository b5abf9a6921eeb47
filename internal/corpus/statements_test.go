package corpus

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

func statementOptions(n int, seed uint64) StatementsOptions {
	start := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	return StatementsOptions{Statements: n, Seed: seed, Start: start, End: start.Add(90 * 24 * time.Hour), Checkouts: []Checkout{
		{Dir: "/r/payments-api", Clone: "/r/payments-api", Branch: "main"},
		{Dir: "/r/ledger", Clone: "/r/ledger", Branch: "main"},
		{Dir: "/r/payments-api-cleanup", Clone: "/r/payments-api", Branch: "cleanup"},
	}}
}

func TestStatementsShape(t *testing.T) {
	for _, n := range []int{1, 10, 2000} {
		o := statementOptions(n, 7)
		got, err := Statements(o)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != n {
			t.Fatalf("n=%d: got %d statements", n, len(got))
		}
		kinds := map[memory.Kind]int{}
		classes := map[memory.Class]bool{}
		type slot struct {
			k          int
			subj, pred string
		}
		values := map[slot][]string{}
		for i, s := range got {
			d := s.Draft
			kinds[d.Kind]++
			classes[d.Class] = true
			if d.ValidAt.Before(o.Start) || !d.ValidAt.Before(o.End.Add(3*time.Second)) {
				t.Errorf("n=%d: valid at %s outside the span", n, d.ValidAt)
			}
			if i > 0 && d.ValidAt.Before(got[i-1].Draft.ValidAt) {
				t.Errorf("n=%d: statement %d is out of valid-time order", n, i)
			}
			if d.Object == "" || (d.Kind != memory.KindNote && (d.Subject == "" || d.Predicate == "")) {
				t.Errorf("n=%d: incomplete draft %+v", n, d)
			}
			if s.Checkout < 0 || s.Checkout >= len(o.Checkouts) || s.Writer == "" {
				t.Errorf("n=%d: bad place or writer in %+v", n, s)
			}
			if s.Writer == memory.WriterUser && !strings.Contains(s.UserText, d.Object) {
				t.Errorf("n=%d: a user's statement without its words: %+v", n, s)
			}
			if d.Kind == memory.KindFact {
				key := slot{s.Checkout, d.Subject, d.Predicate}
				values[key] = append(values[key], d.Object)
			}
		}
		if want := n * factShare / 100; kinds[memory.KindFact] != want {
			t.Errorf("n=%d: %d facts, want %d", n, kinds[memory.KindFact], want)
		}
		if want := n * eventShare / 100; kinds[memory.KindEvent] != want {
			t.Errorf("n=%d: %d events, want %d", n, kinds[memory.KindEvent], want)
		}
		if n < 2000 {
			continue
		}
		for _, c := range memory.Classes {
			if !classes[c] {
				t.Errorf("n=%d: no statement of class %s", n, c)
			}
		}
		changed := 0
		for _, v := range values {
			if len(v) > 1 {
				changed++
			}
		}
		if changed == 0 {
			t.Errorf("n=%d: no fact slot changes value", n)
		}
	}
}

func TestStatementsDeterministic(t *testing.T) {
	a, _ := Statements(statementOptions(300, 1))
	b, _ := Statements(statementOptions(300, 1))
	c, _ := Statements(statementOptions(300, 2))
	if !reflect.DeepEqual(a, b) {
		t.Error("the same options gave different statements")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("another seed gave the same statements")
	}
}

func TestStatementsRefusesBadOptions(t *testing.T) {
	good := statementOptions(10, 1)
	for name, o := range map[string]StatementsOptions{
		"none":         {Statements: 0, Checkouts: good.Checkouts, Start: good.Start, End: good.End},
		"no checkouts": {Statements: 10, Start: good.Start, End: good.End},
		"empty span":   {Statements: 10, Checkouts: good.Checkouts, Start: good.End, End: good.Start},
	} {
		if _, err := Statements(o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestPredicatesVocabulary(t *testing.T) {
	n := len(Predicates())
	if n < 250 || n > 350 {
		t.Errorf("%d predicates; the benchmark wants about 300", n)
	}
}

func TestEarlierQueriesAskAboutEarlierWork(t *testing.T) {
	for _, q := range EarlierQueries(1, 200) {
		if !recall.AsksAboutEarlierWork(q.Text) {
			t.Errorf("%q does not ask about earlier work", q.Text)
		}
	}
	for _, tpl := range earlierTemplates {
		g := newGen(3, 3)
		if q := g.fill(tpl); !recall.AsksAboutEarlierWork(q) {
			t.Errorf("template %q: %q does not ask about earlier work", tpl, q)
		}
	}
}

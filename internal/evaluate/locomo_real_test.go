package evaluate

import (
	"os"
	"strings"
	"testing"
)

// locomoPath is the LoCoMo release file, read in place: its licence
// (CC BY-NC 4.0) keeps it out of this repository.
const locomoPath = "../../../shared/data/locomo/locomo10.json"

func loadRealLoCoMo(t *testing.T) Dataset {
	t.Helper()
	if _, err := os.Stat(locomoPath); err != nil {
		t.Skipf("LoCoMo data absent at %s: skipping the real-file checks (%v)", locomoPath, err)
	}
	ds, err := LoadFile(FormatLoCoMo, locomoPath)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestLoCoMoRealFile checks the loader against the counts the LoCoMo
// README and paper give, and the known defects of the file.
func TestLoCoMoRealFile(t *testing.T) {
	ds := loadRealLoCoMo(t)
	if ds.Name != "locomo10" || len(ds.Conversations) != 10 {
		t.Fatalf("name %q, %d conversations; want locomo10, 10", ds.Name, len(ds.Conversations))
	}
	sessions, turns := 0, 0
	for _, c := range ds.Conversations {
		if !strings.HasPrefix(c.ID, "conv-") || len(c.Speakers) != 2 {
			t.Errorf("conversation %q speakers %q", c.ID, c.Speakers)
		}
		for i, s := range c.Sessions {
			sessions++
			turns += len(s.Turns)
			if s.Time.IsZero() || len(s.Turns) == 0 {
				t.Errorf("%s %s: time %v, %d turns", c.ID, s.ID, s.Time, len(s.Turns))
			}
			if i > 0 && !s.Time.After(c.Sessions[i-1].Time) {
				t.Errorf("%s %s at %v is not after %s", c.ID, s.ID, s.Time, c.Sessions[i-1].ID)
			}
			for j := 1; j < len(s.Turns); j++ {
				if !s.Turns[j].Time.After(s.Turns[j-1].Time) {
					t.Errorf("%s %s: turn %s not after %s", c.ID, s.ID, s.Turns[j].ID, s.Turns[j-1].ID)
				}
			}
		}
	}
	if sessions != 272 || turns != 5882 {
		t.Errorf("%d sessions, %d turns; want 272, 5882", sessions, turns)
	}

	all := map[string]int{}
	scored := map[string]int{}
	for _, q := range ds.Questions {
		all[q.Category]++
		if q.Scored() {
			scored[q.Category]++
		}
	}
	wantAll := map[string]int{SingleHop: 841, MultiHop: 282, Temporal: 321, OpenDomain: 96, Adversarial: 446}
	wantScored := map[string]int{SingleHop: 841, MultiHop: 282, Temporal: 321, OpenDomain: 92, Adversarial: 446}
	for cat, n := range wantAll {
		if all[cat] != n || scored[cat] != wantScored[cat] {
			t.Errorf("%s: %d questions, %d with evidence; want %d, %d", cat, all[cat], scored[cat], n, wantScored[cat])
		}
	}
	if len(all) != len(wantAll) || len(ds.Questions) != 1986 {
		t.Errorf("categories %v, %d questions; want five, 1986", all, len(ds.Questions))
	}

	var noTurn, noID, noEvidence []string
	for _, w := range ds.Warnings {
		switch {
		case strings.Contains(w, "names no turn"):
			noTurn = append(noTurn, w)
		case strings.Contains(w, "holds no turn id"):
			noID = append(noID, w)
		case strings.Contains(w, "no evidence"):
			noEvidence = append(noEvidence, w)
		default:
			t.Errorf("unexpected warning %q", w)
		}
	}
	if len(noTurn) != 2 || len(noID) != 2 || len(noEvidence) != 4 {
		t.Errorf("warnings: %d evidence ids naming no turn, %d evidence strings without an id, %d questions without evidence; want 2, 2, 4\n%s",
			len(noTurn), len(noID), len(noEvidence), strings.Join(ds.Warnings, "\n"))
	}
	for _, w := range ds.Warnings {
		t.Log(w)
	}
	assertRoundTrip(t, ds)
}

// TestLoCoMoOracle scores a retriever that returns, in order, those gold
// evidence turns that exist. Recall then falls short of 1 only where
// evidence names no turn: locomo_3_qa58 (1 of 7 ids) and locomo_6_qa38
// (1 of 3).
func TestLoCoMoOracle(t *testing.T) {
	ds := loadRealLoCoMo(t)
	idx := ds.turnIndex()
	var results []Ranked
	for _, q := range ds.Questions {
		r := Ranked{QuestionID: q.ID}
		for _, e := range q.Evidence {
			if _, ok := idx[q.Conversation][e]; ok {
				r.Turns = append(r.Turns, e)
			}
		}
		results = append(results, r)
	}
	rep := Score(ds, results, nil)
	o := rep.Overall
	if o.Questions != 1986 || o.Scored != 1982 || o.Missing != 0 || rep.Ignored != 0 {
		t.Fatalf("overall %+v, ignored %d", o, rep.Ignored)
	}
	if want := (1980 + 6.0/7 + 2.0/3) / 1982; !near(o.Recall[50], want) {
		t.Errorf("oracle r@50 = %v, want %v", o.Recall[50], want)
	}
	if !near(o.MRR, 1) {
		t.Errorf("oracle mrr = %v, want 1", o.MRR)
	}
	if !near(o.SessionHit[1], 1) {
		t.Errorf("oracle session@1 = %v, want 1", o.SessionHit[1])
	}
	var b strings.Builder
	rep.Format(&b)
	t.Log("\n" + b.String())
}

package evaluate

import (
	"math"
	"slices"
	"testing"
	"time"
)

// twoConversations: c1 has s1 {a b c} and s2 {d e}; c2 has s1 {a x}, so
// "a" exists in both and ids must be read within the question's
// conversation.
func twoConversations() []Conversation {
	at := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	sess := func(id string, turns ...string) Session {
		s := Session{ID: id, Time: at}
		for i, t := range turns {
			s.Turns = append(s.Turns, Turn{ID: t, Speaker: "A", Text: t, Time: defaultTurnTime(at, i)})
		}
		return s
	}
	return []Conversation{
		{ID: "c1", Sessions: []Session{sess("s1", "a", "b", "c"), sess("s2", "d", "e")}},
		{ID: "c2", Sessions: []Session{sess("s1", "a", "x")}},
	}
}

const eps = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) < eps }

func TestScoreOneQuestion(t *testing.T) {
	ks := []int{1, 2, 5}
	tests := []struct {
		name     string
		conv     string
		evidence []string
		ranked   *Ranked // nil: no result for the question
		recall   []float64
		mrr      float64
		hit      []float64
		scored   int
		missing  int
	}{
		{"first place", "c1", []string{"b"}, &Ranked{Turns: []string{"b", "a"}},
			[]float64{1, 1, 1}, 1, []float64{1, 1, 1}, 1, 0},
		{"duplicates collapsed", "c1", []string{"a", "d"}, &Ranked{Turns: []string{"c", "c", "c", "a", "d"}},
			[]float64{0, 0.5, 1}, 0.5, []float64{1, 1, 1}, 1, 0},
		{"k larger than the list", "c1", []string{"a", "d"}, &Ranked{Turns: []string{"d"}},
			[]float64{0.5, 0.5, 0.5}, 1, []float64{1, 1, 1}, 1, 0},
		{"evidence partly found", "c1", []string{"a", "b", "d", "e"}, &Ranked{Turns: []string{"e", "c", "b"}},
			[]float64{0.25, 0.25, 0.5}, 1, []float64{1, 1, 1}, 1, 0},
		{"mrr of a late hit", "c1", []string{"e"}, &Ranked{Turns: []string{"a", "b", "c", "e"}},
			[]float64{0, 0, 1}, 0.25, []float64{0, 0, 1}, 1, 0},
		{"nothing found, other session", "c1", []string{"a"}, &Ranked{Turns: []string{"d", "e"}},
			[]float64{0, 0, 0}, 0, []float64{0, 0, 0}, 1, 0},
		{"right session, wrong turn", "c1", []string{"a"}, &Ranked{Turns: []string{"c"}},
			[]float64{0, 0, 0}, 0, []float64{1, 1, 1}, 1, 0},
		{"entry that is not a turn", "c1", []string{"a"}, &Ranked{Turns: []string{"", "", "a"}, Sessions: []string{"s2", "s1"}},
			[]float64{0, 0, 1}, 1.0 / 3, []float64{0, 1, 1}, 1, 0},
		{"given session wins", "c1", []string{"d"}, &Ranked{Turns: []string{"a", "d"}, Sessions: []string{"s2"}},
			[]float64{0, 1, 1}, 0.5, []float64{1, 1, 1}, 1, 0},
		{"unknown turn ids", "c1", []string{"a"}, &Ranked{Turns: []string{"zz", "x"}},
			[]float64{0, 0, 0}, 0, []float64{0, 0, 0}, 1, 0},
		{"other conversation's turn", "c2", []string{"x"}, &Ranked{Turns: []string{"b", "x"}},
			[]float64{0, 1, 1}, 0.5, []float64{0, 1, 1}, 1, 0},
		{"dangling evidence caps recall", "c1", []string{"a", "zz"}, &Ranked{Turns: []string{"a", "b"}},
			[]float64{0.5, 0.5, 0.5}, 1, []float64{1, 1, 1}, 1, 0},
		{"no result", "c1", []string{"a"}, nil,
			[]float64{0, 0, 0}, 0, []float64{0, 0, 0}, 1, 1},
		{"empty list", "c1", []string{"a"}, &Ranked{},
			[]float64{0, 0, 0}, 0, []float64{0, 0, 0}, 1, 0},
		{"no evidence: skipped", "c1", nil, &Ranked{Turns: []string{"a"}},
			[]float64{0, 0, 0}, 0, []float64{0, 0, 0}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := Dataset{Conversations: twoConversations(), Questions: []Question{
				{ID: "q", Conversation: tt.conv, Text: "?", Evidence: tt.evidence, Category: SingleHop},
			}}
			var results []Ranked
			if tt.ranked != nil {
				r := *tt.ranked
				r.QuestionID = "q"
				results = append(results, r)
			}
			rep := Score(ds, results, ks)
			for _, m := range []Metrics{rep.Overall, rep.Categories[0]} {
				if m.Questions != 1 || m.Scored != tt.scored || m.Missing != tt.missing {
					t.Errorf("%s: questions %d scored %d missing %d, want 1 %d %d", m.Category, m.Questions, m.Scored, m.Missing, tt.scored, tt.missing)
				}
				for i, k := range ks {
					if !near(m.Recall[k], tt.recall[i]) {
						t.Errorf("%s r@%d = %v, want %v", m.Category, k, m.Recall[k], tt.recall[i])
					}
					if !near(m.SessionHit[k], tt.hit[i]) {
						t.Errorf("%s session@%d = %v, want %v", m.Category, k, m.SessionHit[k], tt.hit[i])
					}
				}
				if !near(m.MRR, tt.mrr) {
					t.Errorf("%s mrr = %v, want %v", m.Category, m.MRR, tt.mrr)
				}
			}
		})
	}
}

// sampleScore is a small run over several categories: averaging, row
// order, ignored and missing results.
func sampleScore() Report {
	ds := Dataset{Name: "hand-made", Conversations: twoConversations(), Questions: []Question{
		{ID: "q1", Conversation: "c1", Evidence: []string{"b"}, Category: SingleHop},
		{ID: "q2", Conversation: "c1", Evidence: []string{"a", "d"}, Category: MultiHop},
		{ID: "q3", Conversation: "c1", Category: Temporal},
		{ID: "q4", Conversation: "c1", Evidence: []string{"e", "zz"}, Category: Adversarial},
		{ID: "q5", Conversation: "c2", Evidence: []string{"x"}, Category: SingleHop},
		{ID: "q6", Conversation: "c1", Evidence: []string{"c"}},
		{ID: "q7", Conversation: "c2", Evidence: []string{"a"}, Category: "commonsense"},
		{ID: "q8", Conversation: "c1", Evidence: []string{"d"}, Category: "bridging"},
	}}
	results := []Ranked{
		{QuestionID: "q5", Turns: []string{"a", "x"}},
		{QuestionID: "q1", Turns: []string{"b", "b", "a"}},
		{QuestionID: "q2", Turns: []string{"c", "d", "e", "a"}},
		{QuestionID: "q3", Turns: []string{"a"}},
		{QuestionID: "q4", Turns: []string{"d", "e"}},
		{QuestionID: "q6", Turns: []string{"a", "b"}},
		{QuestionID: "q1", Turns: []string{"zz"}},
		{QuestionID: "nope", Turns: []string{"a"}},
		{QuestionID: "q8", Turns: []string{"a", "b", "c", "e", "d"}},
	}
	return Score(ds, results, []int{5, 1, 0, 2, 5})
}

func TestScoreRows(t *testing.T) {
	rep := sampleScore()
	if !slices.Equal(rep.Ks, []int{1, 2, 5}) {
		t.Errorf("ks = %v, want [1 2 5]", rep.Ks)
	}
	if rep.Ignored != 2 {
		t.Errorf("ignored = %d, want 2 (a repeat and an unknown question)", rep.Ignored)
	}
	var order []string
	for _, m := range rep.Categories {
		order = append(order, m.Category)
	}
	if want := []string{SingleHop, MultiHop, Temporal, Adversarial, "bridging", "commonsense"}; !slices.Equal(order, want) {
		t.Errorf("category order %v, want %v", order, want)
	}
	o := rep.Overall
	if o.Questions != 8 || o.Scored != 7 || o.Missing != 1 {
		t.Errorf("overall questions %d scored %d missing %d, want 8 7 1", o.Questions, o.Scored, o.Missing)
	}
	// Per question r@1: q1 1, q2 0, q4 0, q5 0, q6 0, q7 0 (missing), q8 0.
	// r@2: q1 1, q2 .5, q4 .5, q5 1, q6 0, q7 0, q8 0. r@5: q2 and q8 reach 1.
	if want := 1.0 / 7; !near(o.Recall[1], want) {
		t.Errorf("overall r@1 = %v, want %v", o.Recall[1], want)
	}
	if want := 3.0 / 7; !near(o.Recall[2], want) {
		t.Errorf("overall r@2 = %v, want %v", o.Recall[2], want)
	}
	if want := 4.5 / 7; !near(o.Recall[5], want) {
		t.Errorf("overall r@5 = %v, want %v", o.Recall[5], want)
	}
	// MRR: q1 1, q2 1/2, q4 1/2, q5 1/2, q6 0, q7 0, q8 1/5.
	if want := (1 + 0.5 + 0.5 + 0.5 + 0.2) / 7; !near(o.MRR, want) {
		t.Errorf("overall mrr = %v, want %v", o.MRR, want)
	}
	// session@1: q1 yes, q2 c∈s1 yes, q4 d∈s2 yes, q5 a∈c2/s1 yes, q6 a∈s1 yes, q7 no, q8 a∈s1 no.
	if want := 5.0 / 7; !near(o.SessionHit[1], want) {
		t.Errorf("overall session@1 = %v, want %v", o.SessionHit[1], want)
	}
	single := rep.Categories[0]
	if single.Questions != 2 || !near(single.Recall[1], 0.5) || !near(single.Recall[2], 1) {
		t.Errorf("single-hop row %+v", single)
	}
	temporal := rep.Categories[2]
	if temporal.Questions != 1 || temporal.Scored != 0 || temporal.Recall[5] != 0 {
		t.Errorf("temporal row %+v, want one unscored question", temporal)
	}
}

func TestScoreDefaultKs(t *testing.T) {
	rep := Score(Dataset{}, nil, nil)
	if !slices.Equal(rep.Ks, DefaultKs()) {
		t.Errorf("ks = %v, want %v", rep.Ks, DefaultKs())
	}
	if rep.Overall.Category != "overall" || rep.Categories != nil {
		t.Errorf("empty dataset report %+v", rep)
	}
}

package evaluate

import (
	"cmp"
	"slices"
)

// Ranked is what search returned for one question: turn ids, best first.
// Turn ids are read within the question's conversation. A repeated turn id
// is collapsed into its first place. An entry may leave its turn id empty
// when the hit is not a turn (a summary, say); it then counts for
// session-hit only and is never collapsed.
type Ranked struct {
	QuestionID string
	Turns      []string
	// Sessions optionally gives the session id of each entry, parallel to
	// Turns; where absent or empty, the dataset's session of the turn is used.
	Sessions []string
}

// DefaultKs are the cut-offs reported when Score is given none.
func DefaultKs() []int { return []int{1, 5, 10, 25, 50} }

// entry is one collapsed result: a turn id (maybe empty) and its session.
type entry struct{ turn, session string }

// tally sums one row of the report before it is averaged.
type tally struct {
	questions, scored, missing int
	recall, hit                []float64 // parallel to ks
	rr                         float64
}

// Score measures results against the gold evidence of ds at each cut-off
// in ks (DefaultKs when empty). Questions without evidence are counted but
// not scored; a question with evidence and no result scores zero. Results
// for unknown questions, and any but the first result for a question, are
// ignored and counted.
func Score(ds Dataset, results []Ranked, ks []int) Report {
	ks = cleanKs(ks)
	idx := ds.turnIndex()
	byQuestion := make(map[string]Ranked, len(results))
	known := make(map[string]bool, len(ds.Questions))
	for _, q := range ds.Questions {
		known[q.ID] = true
	}
	rep := Report{Dataset: ds.Name, Ks: ks}
	for _, r := range results {
		if _, dup := byQuestion[r.QuestionID]; dup || !known[r.QuestionID] {
			rep.Ignored++
			continue
		}
		byQuestion[r.QuestionID] = r
	}

	overall := newTally(len(ks))
	cats := make(map[string]*tally)
	for _, q := range ds.Questions {
		rows := []*tally{overall}
		if q.Category != "" {
			t := cats[q.Category]
			if t == nil {
				t = newTally(len(ks))
				cats[q.Category] = t
			}
			rows = append(rows, t)
		}
		for _, t := range rows {
			t.questions++
		}
		if !q.Scored() {
			continue
		}
		r, ok := byQuestion[q.ID]
		for _, t := range rows {
			t.scored++
			if !ok {
				t.missing++
			}
		}
		turns := idx[q.Conversation]
		list := collapse(r, turns)
		evidence := make(map[string]bool, len(q.Evidence))
		evSessions := make(map[string]bool)
		for _, e := range q.Evidence {
			evidence[e] = true
			if s, ok := turns[e]; ok {
				evSessions[s] = true
			}
		}
		rr := 0.0
		for i, e := range list {
			if evidence[e.turn] {
				rr = 1 / float64(i+1)
				break
			}
		}
		for i, k := range ks {
			found, hit := 0, false
			for _, e := range list[:min(k, len(list))] {
				if evidence[e.turn] {
					found++
				}
				if e.session != "" && evSessions[e.session] {
					hit = true
				}
			}
			recall := float64(found) / float64(len(evidence))
			for _, t := range rows {
				t.recall[i] += recall
				if hit {
					t.hit[i]++
				}
			}
		}
		for _, t := range rows {
			t.rr += rr
		}
	}

	rep.Overall = overall.metrics("overall", ks)
	names := make([]string, 0, len(cats))
	for name := range cats {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(categoryRank(a), categoryRank(b)), cmp.Compare(a, b))
	})
	for _, name := range names {
		rep.Categories = append(rep.Categories, cats[name].metrics(name, ks))
	}
	return rep
}

// cleanKs drops cut-offs below 1 and repeats, and sorts the rest.
func cleanKs(ks []int) []int {
	var out []int
	for _, k := range ks {
		if k > 0 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 {
		return DefaultKs()
	}
	return out
}

// collapse drops repeated turn ids, keeping first places, and finds each
// entry's session.
func collapse(r Ranked, turns map[string]string) []entry {
	list := make([]entry, 0, len(r.Turns))
	seen := make(map[string]bool, len(r.Turns))
	for i, t := range r.Turns {
		if t != "" {
			if seen[t] {
				continue
			}
			seen[t] = true
		}
		s := ""
		if i < len(r.Sessions) {
			s = r.Sessions[i]
		}
		if s == "" {
			s = turns[t]
		}
		list = append(list, entry{t, s})
	}
	return list
}

func newTally(n int) *tally {
	return &tally{recall: make([]float64, n), hit: make([]float64, n)}
}

func (t *tally) metrics(name string, ks []int) Metrics {
	m := Metrics{
		Category:   name,
		Questions:  t.questions,
		Scored:     t.scored,
		Missing:    t.missing,
		Recall:     make(map[int]float64, len(ks)),
		SessionHit: make(map[int]float64, len(ks)),
	}
	for i, k := range ks {
		m.Recall[k] = mean(t.recall[i], t.scored)
		m.SessionHit[k] = mean(t.hit[i], t.scored)
	}
	m.MRR = mean(t.rr, t.scored)
	return m
}

// mean is sum/n, or 0 for no questions (JSON has no NaN).
func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

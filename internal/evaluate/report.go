package evaluate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Report is the outcome of Score: one row for all questions, one per
// category (LoCoMo's in a fixed order, then others by name). Values are
// fractions in [0, 1].
type Report struct {
	Dataset    string    `json:"dataset,omitempty"`
	Ks         []int     `json:"ks"`
	Overall    Metrics   `json:"overall"`
	Categories []Metrics `json:"categories"`
	// Ignored counts results that named no question of the dataset or
	// repeated one.
	Ignored int `json:"ignored_results"`
}

// Metrics is one row of a Report. In JSON the maps become flat fields
// "r@5", "session@5", alongside "mrr".
type Metrics struct {
	Category   string
	Questions  int // all questions in the row
	Scored     int // those with evidence: the ones averaged
	Missing    int // scored questions that got no ranked result
	Recall     map[int]float64
	MRR        float64
	SessionHit map[int]float64
}

// jsonDigits is the rounding of values in JSON: finer than any difference
// a few thousand questions can make, coarse enough to read.
const jsonDigits = 1e6

// MarshalJSON writes the fields in a fixed order, cut-offs ascending.
func (m Metrics) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	name, err := json.Marshal(m.Category)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, `{"category":%s,"questions":%d,"scored":%d,"missing":%d`, name, m.Questions, m.Scored, m.Missing)
	value := func(key string, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			v = 0
		}
		v = math.Round(v*jsonDigits) / jsonDigits
		fmt.Fprintf(&b, `,%q:%s`, key, strconv.FormatFloat(v, 'f', -1, 64))
	}
	for _, k := range sortedKs(m.Recall) {
		value("r@"+strconv.Itoa(k), m.Recall[k])
	}
	value("mrr", m.MRR)
	for _, k := range sortedKs(m.SessionHit) {
		value("session@"+strconv.Itoa(k), m.SessionHit[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes; unknown fields are ignored
// so an older binary can still read a newer golden file.
func (m *Metrics) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	out := Metrics{Recall: map[int]float64{}, SessionHit: map[int]float64{}}
	for key, raw := range fields {
		var dst any
		switch {
		case key == "category":
			dst = &out.Category
		case key == "questions":
			dst = &out.Questions
		case key == "scored":
			dst = &out.Scored
		case key == "missing":
			dst = &out.Missing
		case key == "mrr":
			dst = &out.MRR
		default:
			prefix, num, ok := strings.Cut(key, "@")
			k, err := strconv.Atoi(num)
			if !ok || err != nil || k < 1 || (prefix != "r" && prefix != "session") {
				continue
			}
			var v float64
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("metric %s: %w", key, err)
			}
			if prefix == "r" {
				out.Recall[k] = v
			} else {
				out.SessionHit[k] = v
			}
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("metric %s: %w", key, err)
		}
	}
	*m = out
	return nil
}

func sortedKs(m map[int]float64) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// rows returns the overall row then the category rows.
func (r Report) rows() []Metrics { return append([]Metrics{r.Overall}, r.Categories...) }

// compareSlack absorbs the rounding of values in JSON golden files.
const compareSlack = 1 / jsonDigits

// Compare lists every metric of golden that r falls short of by more than
// tolerance (a fraction: 0.005 is half a point), every row or metric golden
// has and r lacks, and every row whose number of scored questions changed
// (the figures would not be comparable). Empty means no regression.
func (r Report) Compare(golden Report, tolerance float64) []string {
	tolerance = max(tolerance, 0)
	var out []string
	current := make(map[string]Metrics)
	for _, m := range r.rows() {
		current[m.Category] = m
	}
	for _, g := range golden.rows() {
		m, ok := current[g.Category]
		if !ok {
			out = append(out, fmt.Sprintf("%s: row missing", g.Category))
			continue
		}
		if m.Scored != g.Scored {
			out = append(out, fmt.Sprintf("%s: %d scored questions, golden has %d", g.Category, m.Scored, g.Scored))
		}
		check := func(metric string, have float64, present bool, want float64, scale float64, digits int) {
			switch {
			case !present:
				out = append(out, fmt.Sprintf("%s %s: missing, golden %.*f", g.Category, metric, digits, want*scale))
			case want-have > tolerance+compareSlack:
				out = append(out, fmt.Sprintf("%s %s: %.*f, golden %.*f (-%.*f)", g.Category, metric,
					digits, have*scale, digits, want*scale, digits, (want-have)*scale))
			}
		}
		for _, k := range sortedKs(g.Recall) {
			v, ok := m.Recall[k]
			check("r@"+strconv.Itoa(k), v, ok, g.Recall[k], 100, 1)
		}
		check("mrr", m.MRR, true, g.MRR, 1, 3)
		for _, k := range sortedKs(g.SessionHit) {
			v, ok := m.SessionHit[k]
			check("session@"+strconv.Itoa(k), v, ok, g.SessionHit[k], 100, 1)
		}
	}
	return out
}

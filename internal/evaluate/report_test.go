package evaluate

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFormatGolden(t *testing.T) {
	var b strings.Builder
	sampleScore().Format(&b)
	golden(t, filepath.Join("testdata", "report.golden"), b.String())
}

func TestReportJSON(t *testing.T) {
	rep := sampleScore()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "report.json.golden"), string(data)+"\n")
	var back Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if drops := back.Compare(rep, 0); drops != nil {
		t.Errorf("report read back from JSON falls short of itself: %q", drops)
	}
	if drops := rep.Compare(back, 0); drops != nil {
		t.Errorf("report falls short of its JSON form: %q", drops)
	}
	if back.Dataset != rep.Dataset || !slices.Equal(back.Ks, rep.Ks) || back.Ignored != rep.Ignored || len(back.Categories) != len(rep.Categories) {
		t.Errorf("read back %+v, want %+v", back, rep)
	}
	for k, v := range rep.Overall.Recall {
		if d := back.Overall.Recall[k] - v; d > 1e-6 || d < -1e-6 {
			t.Errorf("r@%d read back as %v, was %v", k, back.Overall.Recall[k], v)
		}
	}
	if err := json.Unmarshal([]byte(`{"category":"x","r@5":"high"}`), &Metrics{}); err == nil || !strings.Contains(err.Error(), "r@5") {
		t.Errorf("bad metric value: %v", err)
	}
}

func TestCompare(t *testing.T) {
	row := func(name string, scored int, r5, mrr, s5 float64) Metrics {
		return Metrics{Category: name, Questions: scored, Scored: scored,
			Recall: map[int]float64{5: r5}, MRR: mrr, SessionHit: map[int]float64{5: s5}}
	}
	golden := Report{Ks: []int{5}, Overall: row("overall", 10, 0.6, 0.5, 0.8),
		Categories: []Metrics{row(SingleHop, 6, 0.7, 0.6, 0.9), row(Temporal, 4, 0.45, 0.35, 0.65)}}
	tests := []struct {
		name string
		cur  Report
		tol  float64
		want []string
	}{
		{"same", golden, 0, nil},
		{"better", Report{Overall: row("overall", 10, 0.9, 0.9, 0.9),
			Categories: []Metrics{row(SingleHop, 6, 0.8, 0.7, 1), row(Temporal, 4, 0.5, 0.4, 0.7)}}, 0, nil},
		{"within tolerance", Report{Overall: row("overall", 10, 0.596, 0.496, 0.796),
			Categories: golden.Categories}, 0.005, nil},
		{"drops", Report{Overall: row("overall", 10, 0.55, 0.45, 0.8),
			Categories: []Metrics{row(SingleHop, 6, 0.7, 0.6, 0.85), row(Temporal, 4, 0.45, 0.35, 0.65)}}, 0.005, []string{
			"overall r@5: 55.0, golden 60.0 (-5.0)",
			"overall mrr: 0.450, golden 0.500 (-0.050)",
			"single-hop session@5: 85.0, golden 90.0 (-5.0)",
		}},
		{"negative tolerance is zero", Report{Overall: row("overall", 10, 0.599, 0.5, 0.8),
			Categories: golden.Categories}, -1, []string{"overall r@5: 59.9, golden 60.0 (-0.1)"}},
		{"missing row and metric, scored changed", Report{
			Overall:    Metrics{Category: "overall", Scored: 9, Recall: map[int]float64{10: 1}, MRR: 0.5, SessionHit: map[int]float64{5: 0.8}},
			Categories: []Metrics{row(SingleHop, 6, 0.7, 0.6, 0.9)}}, 0, []string{
			"overall: 9 scored questions, golden has 10",
			"overall r@5: missing, golden 60.0",
			"temporal: row missing",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cur.Compare(golden, tt.tol); !slices.Equal(got, tt.want) {
				t.Errorf("Compare = %q\nwant      %q", got, tt.want)
			}
		})
	}
}

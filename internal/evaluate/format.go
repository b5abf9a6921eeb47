package evaluate

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format writes the report as an aligned table: recall and session-hit in
// percent with one decimal, MRR as a fraction, then a legend. The output
// depends only on the report, so it can be kept as a golden file.
func (r Report) Format(w io.Writer) {
	var b strings.Builder
	name := r.Dataset
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(&b, "dataset %s: %d questions, %d with evidence, %d without a result, %d results ignored\n",
		name, r.Overall.Questions, r.Overall.Scored, r.Overall.Missing, r.Ignored)

	rows := r.rows()
	width := len("category")
	for _, m := range rows {
		width = max(width, len(m.Category))
	}
	count := func(s string) { fmt.Fprintf(&b, "%10s", s) }
	cell := func(s string) { fmt.Fprintf(&b, "%7s", s) }
	fmt.Fprintf(&b, "%-*s", width, "category")
	count("questions")
	count("scored")
	for _, k := range r.Ks {
		cell("r@" + strconv.Itoa(k))
	}
	cell("mrr")
	for _, k := range r.Ks {
		cell("s@" + strconv.Itoa(k))
	}
	b.WriteByte('\n')
	for _, m := range rows {
		fmt.Fprintf(&b, "%-*s", width, m.Category)
		count(strconv.Itoa(m.Questions))
		count(strconv.Itoa(m.Scored))
		if m.Scored == 0 {
			// Nothing was averaged: a dash, not a misleading zero.
			for range 2*len(r.Ks) + 1 {
				cell("-")
			}
			b.WriteByte('\n')
			continue
		}
		for _, k := range r.Ks {
			cell(strconv.FormatFloat(m.Recall[k]*100, 'f', 1, 64))
		}
		cell(strconv.FormatFloat(m.MRR, 'f', 3, 64))
		for _, k := range r.Ks {
			cell(strconv.FormatFloat(m.SessionHit[k]*100, 'f', 1, 64))
		}
		b.WriteByte('\n')
	}
	b.WriteString("questions: all; scored: those with evidence, the only ones averaged (- when none)\n")
	b.WriteString("r@k: % of a question's evidence turns among the first k distinct turns, averaged\n")
	b.WriteString("mrr: mean of 1/rank of the first evidence turn (0 when none is returned)\n")
	b.WriteString("s@k: % of questions with one of the first k results in a session holding evidence\n")
	io.WriteString(w, b.String())
}

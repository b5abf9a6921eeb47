package model

import "testing"

// FuzzDecodeAnswers: any model answer decodes into the extraction and
// turn-fact shapes or fails with an error, never a panic.
func FuzzDecodeAnswers(f *testing.F) {
	f.Add(`{"worth_keeping":false,"slug":"","task":"","task_group":"","outcome":"","tasks":[],"keywords":[],"preference_signals":[],"knowledge":[],"failure_shields":[],"rollout_summary":""}`)
	f.Add("Sure! ```json\n{\"facts\":[{\"kind\":\"fact\"}]}\n```")
	f.Add(`{"facts":[{"kind":"event","subject":"a","predicate":"b","object":"c","class":"task","category":"x"}]} trailing`)
	f.Fuzz(func(t *testing.T, text string) {
		var x extractAnswer
		if decodeObject(text, &x) == nil {
			_ = x.check()
		}
		var tf turnAnswer
		if decodeObject(text, &tf) == nil {
			_ = tf.check()
		}
		_ = slugWords(text)
		_ = predicateName(text)
	})
}

// FuzzParsePrices: a price setting parses or names what is wrong.
func FuzzParsePrices(f *testing.F) {
	f.Add("gpt-4o-mini=0.15/0.6, claude-haiku-4-5=1/5")
	f.Add("x=/")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePrices(s)
		if err != nil {
			return
		}
		for name, pr := range p {
			if name == "" || pr.In < 0 || pr.Out < 0 {
				t.Fatalf("accepted %q → %v", s, p)
			}
		}
	})
}

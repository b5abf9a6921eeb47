package openaiembed

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/openai/openai-go/v3"
)

func decode(t *testing.T, s string) []openai.Embedding {
	t.Helper()
	var d []openai.Embedding
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestVectorsChecksTheAnswer(t *testing.T) {
	cases := []struct {
		name string
		data string
		n    int
		ok   bool
	}{
		{"in order", `[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]`, 2, true},
		{"reordered", `[{"index":1,"embedding":[3,4]},{"index":0,"embedding":[1,2]}]`, 2, true},
		{"no index", `[{"embedding":[1,2]},{"embedding":[3,4]}]`, 2, true},
		{"base64", `[{"index":0,"embedding":"AAAAPwAAgL4="}]`, 1, true},
		{"too few", `[{"index":0,"embedding":[1,2]}]`, 2, false},
		{"dimensions differ", `[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3]}]`, 2, false},
		{"duplicate index", `[{"index":1,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]`, 2, false},
		{"index out of range", `[{"index":5,"embedding":[1,2]}]`, 1, false},
		{"empty", `[{"index":0,"embedding":[]}]`, 1, false},
		{"beyond float32", `[{"index":0,"embedding":[1e300]}]`, 1, false},
	}
	for _, c := range cases {
		got, err := vectors(decode(t, c.data), c.n, "m")
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v", c.name, err)
			continue
		}
		if c.ok && c.name == "reordered" && (got[0][0] != 1 || got[1][0] != 3) {
			t.Errorf("reordered: %v", got)
		}
		if c.ok && c.name == "base64" && (got[0][0] != 0.5 || got[0][1] != -0.25) {
			t.Errorf("base64: %v", got)
		}
	}
}

func FuzzVectors(f *testing.F) {
	f.Add(`[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]`, 2)
	f.Add(`[{"index":0,"embedding":"AAAAPwAAgL4="}]`, 1)
	f.Add(`[{"index":-1,"embedding":[1]}]`, 1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		var d []openai.Embedding
		if json.Unmarshal([]byte(s), &d) != nil || n < 0 || n > 64 {
			return
		}
		got, err := vectors(d, n, "m")
		if err != nil {
			return
		}
		if len(got) != n {
			t.Fatalf("%d vectors for %d texts", len(got), n)
		}
		for _, v := range got {
			if len(v) != len(got[0]) || len(v) == 0 {
				t.Fatal("ragged or empty vectors accepted")
			}
			for _, f := range v {
				if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
					t.Fatal("a non-finite value accepted")
				}
			}
		}
	})
}

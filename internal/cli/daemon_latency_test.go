package cli

import (
	"testing"
	"time"
)

func TestLatencyWindow(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name     string
		add      []time.Duration
		n        int
		p50, p95 time.Duration
	}{
		{"none", nil, 0, 0, 0},
		{"one", []time.Duration{3 * ms}, 1, 3 * ms, 3 * ms},
		{"unsorted", []time.Duration{9 * ms, 1 * ms, 5 * ms, 2 * ms}, 4, 2 * ms, 9 * ms},
	}
	for _, c := range cases {
		var w latencyWindow
		for _, d := range c.add {
			w.add(d)
		}
		n, p50, p95 := w.percentiles()
		if n != c.n || p50 != c.p50 || p95 != c.p95 {
			t.Errorf("%s: n %d p50 %s p95 %s, want %d %s %s", c.name, n, p50, p95, c.n, c.p50, c.p95)
		}
	}
	// Past its size the window holds the newest answers only.
	var w latencyWindow
	for range len(w.ring) {
		w.add(time.Second)
	}
	for i := range len(w.ring) {
		w.add(time.Duration(i+1) * time.Microsecond)
	}
	n, p50, p95 := w.percentiles()
	if n != len(w.ring) || p50 != 128*time.Microsecond || p95 != 244*time.Microsecond {
		t.Fatalf("after wrapping: n %d p50 %s p95 %s", n, p50, p95)
	}
}

package opencode

import (
	"strings"
	"testing"
)

func TestRenderJSON(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"empty", ``, ``},
		{"null", `null`, ``},
		{"empty object", `{}`, ``},
		{"keys keep their order", `{"b":1,"a":"x"}`, "b: 1\na: x"},
		{"strings are decoded", `{"command":"echo \"hi\"\nls\t-l","u":"\u00e9"}`, "command: echo \"hi\"\nls\t-l\nu: é"},
		{"scalars", `{"n":1.5e3,"t":true,"f":false,"z":null}`, "n: 1.5e3\nt: true\nf: false\nz: null"},
		{"nested", `{"o":{"k":"v","e":{},"l":[]},"x":1}`, "o:\n  k: v\n  e: {}\n  l: []\nx: 1"},
		{"arrays", `{"a":[1,"two",{"k":"v"},[3]]}`, "a:\n  - 1\n  - two\n  -\n    k: v\n  -\n    - 3"},
		{"top-level array", `["a","b"]`, "- a\n- b"},
		{"top-level string", `"just text"`, "just text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderJSON([]byte(c.in)); got != c.want {
				t.Errorf("renderJSON(%s) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestRenderJSONDeep: nesting past the limit is written as compact JSON
// instead of recursing without bound.
func TestRenderJSONDeep(t *testing.T) {
	in := strings.Repeat(`{"k":`, 200) + `"leaf"` + strings.Repeat(`}`, 200)
	got := renderJSON([]byte(in))
	if !strings.Contains(got, `{"k":"leaf"}`) || strings.Count(got, "\n") != maxRenderDepth-1 {
		t.Errorf("deep render: %d lines", strings.Count(got, "\n")+1)
	}
}

func TestRenderOutput(t *testing.T) {
	cases := map[string]string{
		`"line one\nline two"`: "line one\nline two",
		`{"success":true}`:     "success: true",
		``:                     "",
		`"unterminated`:        "",
	}
	for in, want := range cases {
		if got := renderOutput([]byte(in)); got != want {
			t.Errorf("renderOutput(%s) = %q, want %q", in, got, want)
		}
	}
}

package corpus

import (
	"encoding/json"
	"testing"
)

func TestEncWritesFieldsInOrder(t *testing.T) {
	var e enc
	e.open()
	e.str("b", "x")
	e.num("a", -3)
	e.obj("o")
	e.boolean("t", true)
	e.null("n")
	e.close()
	e.arr("l")
	e.strElem("1")
	e.open()
	e.float("f", 1.5)
	e.close()
	e.closeArr()
	e.raw("r", []byte(`[1]`))
	e.close()
	want := `{"b":"x","a":-3,"o":{"t":true,"n":null},"l":["1",{"f":1.5}],"r":[1]}`
	if string(e.b) != want {
		t.Fatalf("got  %s\nwant %s", e.b, want)
	}
	e.reset()
	e.open()
	e.close()
	if string(e.b) != "{}" {
		t.Fatalf("after reset: %s", e.b)
	}
}

func TestAppendQuoted(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{`say "hi"`, `"say \"hi\""`},
		{"a\\b\n\t\r\x01", `"a\\b\n\t\r\u0001"`},
		{"<tag> & 中文 →", `"<tag> & 中文 →"`},
		{"bad \xff byte", `"bad \ufffd byte"`},
	} {
		if got := string(appendQuoted(nil, tc.in)); got != tc.want {
			t.Errorf("appendQuoted(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzAppendQuoted checks that any string comes back from a JSON decoder
// as itself, with each invalid byte replaced by U+FFFD.
func FuzzAppendQuoted(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\", "\x00\x1f\x7f", "中文\u2028", "\xff\xfe", "\xe4\xb8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := appendQuoted(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", s, b, err)
		}
		if want := string([]rune(s)); got != want {
			t.Fatalf("%q round-trips to %q, want %q", s, got, want)
		}
	})
}

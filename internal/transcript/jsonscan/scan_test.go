package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// scanCases are inputs on which the scanner must agree with encoding/json.
var scanCases = []string{
	``, ` `, `{}`, ` [ ] `, `{"a":1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{"a":}`, `{1:2}`,
	`"x"`, `"x`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\u12"`,
	`"\x"`, `"a\/b\"c\\d\b\f\n\r\t"`, "\"\x01\"", "\"\x7f\xff\xfe\xed\xa0\x80\"", `"é"`,
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-`, `1e`, `-1.5e-10`, `2a`,
	`true`, `tru`, `truex`, `null`, `nul`, `false`, `[true,false,null]`, `{"a":[{"b":{}}]}`,
	"\xef\xbb\xbf{}", "{}\x00", `{"a":1}{}`, `{"a":1} x`, "\t\r\n{}\n",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

func TestScanAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range scanCases {
		checkScan(t, []byte(c))
	}
}

func FuzzScan(f *testing.F) {
	for _, c := range scanCases {
		if len(c) < 1000 {
			f.Add([]byte(c))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScan(t, data)
	})
}

// checkScan compares validity, string decoding and the walk over Members
// and items with what encoding/json makes of data.
func checkScan(t *testing.T, data []byte) {
	t.Helper()
	valid := Valid(data)
	if valid != json.Valid(data) {
		t.Fatalf("Valid(%.80q) = %v, encoding/json says %v", data, valid, !valid)
	}
	if !valid {
		return
	}
	v := data[SkipSpace(data, 0):]
	v = v[:ValueEnd(v, 0)]
	switch v[0] {
	case '"':
		var want string
		if err := json.Unmarshal(v, &want); err != nil {
			t.Fatal(err)
		}
		if got := Unquote(v); got != want {
			t.Fatalf("Unquote(%.80q) = %q, want %q", v, got, want)
		}
	case '{':
		var want map[string]json.RawMessage
		if err := json.Unmarshal(v, &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		it := MembersOf(v)
		for k, val, ok := it.Next(); ok; k, val, ok = it.Next() {
			got[Unquote(k)] = string(val)
		}
		if len(got) != len(want) {
			t.Fatalf("%.80q: %d Members, want %d", v, len(got), len(want))
		}
		for k, w := range want {
			if got[k] != string(w) {
				t.Fatalf("%.80q: member %q = %.40q, want %.40q", v, k, got[k], w)
			}
		}
	case '[':
		var want []json.RawMessage
		if err := json.Unmarshal(v, &want); err != nil {
			t.Fatal(err)
		}
		it := ElementsOf(v)
		n := 0
		for val, ok := it.Next(); ok; val, ok = it.Next() {
			if n >= len(want) || string(val) != string(want[n]) {
				t.Fatalf("%.80q: item %d = %.40q", v, n, val)
			}
			n++
		}
		if n != len(want) {
			t.Fatalf("%.80q: %d items, want %d", v, n, len(want))
		}
	}
}

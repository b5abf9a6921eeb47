package setup

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestJSONDocKeepsOrderNumbersAndText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"order kept", `{"b":1,"a":2,"c":{"z":1,"y":2}}`, "{\n  \"b\": 1,\n  \"a\": 2,\n  \"c\": {\n    \"z\": 1,\n    \"y\": 2\n  }\n}"},
		{"number literals kept", `{"a":1.50,"b":1e3,"c":-0,"d":10000000000000000000001}`, "{\n  \"a\": 1.50,\n  \"b\": 1e3,\n  \"c\": -0,\n  \"d\": 10000000000000000000001\n}"},
		{"duplicate key: first place, last value", `{"a":1,"b":2,"a":3}`, "{\n  \"a\": 3,\n  \"b\": 2\n}"},
		{"empty containers", `{"a":{},"b":[],"c":[{}]}`, "{\n  \"a\": {},\n  \"b\": [],\n  \"c\": [\n    {}\n  ]\n}"},
		{"no HTML escaping", `{"a":"<b> & </b>"}`, "{\n  \"a\": \"<b> & </b>\"\n}"},
		{"escapes", `{"a":"tab\t nl\n q\" bs\\ \u0001 \u2028 é ✓"}`, "{\n  \"a\": \"tab\\t nl\\n q\\\" bs\\\\ \\u0001 \\u2028 é ✓\"\n}"},
		{"literals", `{"t":true,"f":false,"n":null}`, "{\n  \"t\": true,\n  \"f\": false,\n  \"n\": null\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decodeJSON([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(encodeJSON(v, "  ")); got != tt.want {
				t.Errorf("encode:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestJSONDocErrorsSayWhere(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"comment", "{\n  // no\n  \"a\": 1\n}", "line 2"},
		{"trailing comma", "{\n  \"a\": 1,\n}\n", "line 3"},
		{"two values", `{} {}`, "after the top-level value"},
		{"truncated", "{\"a\": [1,", "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeJSON([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestJSONFileKeepsLayout(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"four spaces, final newline", "{\n    \"a\": [\n        1\n    ]\n}\n"},
		{"tabs, no final newline", "{\n\t\"a\": {\n\t\t\"b\": true\n\t}\n}"},
		{"BOM", "\ufeff{\n  \"a\": 1\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseJSONFile([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(f.bytes()); got != tt.in {
				t.Errorf("got %q, want %q", got, tt.in)
			}
		})
	}
	for _, in := range []string{"", "  \n", "[]", "3"} {
		f, err := parseJSONFile([]byte(in))
		if strings.TrimSpace(in) == "" {
			if err != nil || f.root.Len() != 0 {
				t.Errorf("%q: want an empty object, got %v", in, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q: want an error for a non-object top level", in)
		}
	}
}

func TestObjectSetDelete(t *testing.T) {
	o := NewObject()
	o.Set("a", 1)
	o.Set("b", 2)
	o.Set("c", 3)
	o.Set("a", 4)
	if !o.Delete("b") || o.Delete("b") {
		t.Fatal("delete reports wrongly")
	}
	o.Set("b", 5)
	if got := strings.Join(o.Keys(), ","); got != "a,c,b" {
		t.Fatalf("keys %s", got)
	}
	if v, _ := o.Get("a"); v != 4 {
		t.Fatalf("a = %v", v)
	}
}

// FuzzJSONDoc checks the document model against encoding/json: whatever
// encoding/json accepts, the model decodes, and its encoding decodes
// (with encoding/json) to the same value; whatever it rejects, the model
// rejects too.
func FuzzJSONDoc(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `"x"`, `1.50`, `{"a":[1,2,{"b":null}],"c":"\u2028<&>"}`,
		`{"a":1,"a":{"b":2}}`, "{\"a\":\"\xff\"}", `[1,]`, `{"a" 1}`, `{} x`, ` [ true , false ] `,
		`{"deep":[[[[[[[[[[{}]]]]]]]]]]}`, `"\ud800"`, `-0.0e-0`, `01`,
		"{\n  \"a\": {\"b\": [1, 2]},\n  \"c\": [{\"d\": {}}]\n}\n", "{\n\t\"x\": [\n\t\t[]\n\t],\"a\":{\"a\":1,\"a\":{}}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decodeJSON(data)
		if !json.Valid(data) {
			if err == nil {
				t.Fatalf("decoded invalid JSON %q", data)
			}
			return
		}
		if err != nil {
			t.Fatalf("rejected valid JSON %q: %v", data, err)
		}
		out := encodeJSON(v, "  ")
		want, got := decodeStd(t, data), decodeStd(t, out)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("value changed:\n in  %q\n out %q", data, out)
		}
		v2, err := decodeJSON(out)
		if err != nil || !equalJSON(v, v2) || !bytes.Equal(encodeJSON(v2, "  "), out) {
			t.Fatalf("encoding is not stable for %q: %v", data, err)
		}
		checkEditedFile(t, data)
	})
}

// checkEditedFile changes a file the way setup does (a key added at the
// top and one level down) and checks that the written file, which keeps
// the source text of everything untouched, holds exactly the edit.
func checkEditedFile(t *testing.T, data []byte) {
	f, err := parseJSONFile(data)
	if err != nil || bytes.HasPrefix(data, utf8BOM) {
		return
	}
	want, ok := decodeStd(t, data).(map[string]any)
	if !ok {
		return
	}
	for _, k := range f.root.Keys() {
		if o, ok := f.root.vals[k].(*Object); ok {
			o.Set("cairn-test", json.Number("1"))
			want[k].(map[string]any)["cairn-test"] = json.Number("1")
			break
		}
	}
	f.root.Set("cairn-top", "x")
	want["cairn-top"] = "x"
	out := f.bytes()
	if got := decodeStd(t, out); !reflect.DeepEqual(got, want) {
		t.Fatalf("edit of %q gave %q", data, out)
	}
}

func decodeStd(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json: %v on %q", err, data)
	}
	return v
}

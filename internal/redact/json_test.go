package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	tok := expand(t, "{{ghp_|an:36}}")
	cases := []struct {
		name, in, want string
		n              int
	}{
		{"clean", `{"a": [1, 2.5e3, true, null, "text"]}`, `{"a": [1, 2.5e3, true, null, "text"]}`, 0},
		{"token in a value", `{"text": "use ` + tok + ` now"}`, `{"text": "use [REDACTED:github-pat] now"}`, 1},
		{"layout kept", "{\n  \"k\" :\t\"" + tok + "\" }", "{\n  \"k\" :\t\"[REDACTED:github-pat]\" }", 1},
		{"escaped token", `{"t": "\u0067hp_` + tok[4:] + `"}`, `{"t": "[REDACTED:github-pat]"}`, 1},
		{"after an escaped newline", `{"t": "line\n` + tok + `"}`, `{"t": "line\n[REDACTED:github-pat]"}`, 1},
		{"key names the secret", `{"password": "hunter2", "user": "hunter2"}`, `{"password": "[REDACTED:password-assignment]", "user": "hunter2"}`, 1},
		{"env-style key", `{"env": {"DB_PASSWORD": "postgres"}}`, `{"env": {"DB_PASSWORD": "[REDACTED:password-assignment]"}}`, 1},
		{"placeholder kept", `{"password": "<your password>", "token": "${TOKEN}"}`, `{"password": "<your password>", "token": "${TOKEN}"}`, 0},
		{"array under a secret key", `{"password": ["hunter2"]}`, `{"password": ["hunter2"]}`, 0},
		{"keys left alone", `{"` + tok + `": 1}`, `{"` + tok + `": 1}`, 0},
		{"private span", `{"t": "a <private>b</private> c"}`, `{"t": "a  c"}`, 1},
		{"escaped private tag", `{"t": "a \u003cprivate\u003eb\u003c/private\u003e c"}`, `{"t": "a  c"}`, 1},
		{"re-encoded string", `{"t": "q\"` + tok + `\"\\ é"}`, `{"t": "q\"[REDACTED:github-pat]\"\\ é"}`, 1},
		{"nested JSON text", `{"content": "{\"password\": \"s3cr3t!\"}"}`, `{"content": "{\"password\": \"[REDACTED:password-assignment]\"}"}`, 1},
		{"invalid JSON as text", `{"t": "` + tok + `"`, `{"t": "[REDACTED:github-pat]"`, 1},
		{"top-level string", `"` + tok + `"`, `"[REDACTED:github-pat]"`, 1},
	}
	r := Default()
	for _, c := range cases {
		out, n := r.RedactJSON([]byte(c.in))
		if string(out) != c.want || n != c.n {
			t.Errorf("%s:\n got %s (%d)\nwant %s (%d)", c.name, out, n, c.want, c.n)
		}
		if json.Valid([]byte(c.in)) && !json.Valid(out) {
			t.Errorf("%s: output is not valid JSON", c.name)
		}
	}
}

func TestRedactJSONUnchangedIsRaw(t *testing.T) {
	raw := []byte(`{"a": "b"}`)
	out, n := RedactJSON(raw)
	if n != 0 || &out[0] != &raw[0] {
		t.Fatal("unchanged document was copied")
	}
}

// TestJSONStrings checks the string decoder and encoder against
// encoding/json.
func TestJSONStrings(t *testing.T) {
	for _, s := range []string{
		"", "plain", "tab\tnl\nquote\"back\\slash/", "\x00\x01\x1f", "é ü 日本 😀",
		"\u2028\u2029", "<>&", "invalid \xff utf8",
	} {
		q, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(q, &want); err != nil {
			t.Fatal(err)
		}
		if got := decodeJSONString(string(q)); got != want {
			t.Errorf("decode %s = %q, want %q", q, got, want)
		}
		enc := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(enc, &back); err != nil || back != want {
			t.Errorf("encode %q = %s, decodes to %q (%v)", s, enc, back, err)
		}
	}
	for _, q := range []string{`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\u00E9\/"`} {
		var want string
		if err := json.Unmarshal([]byte(q), &want); err != nil {
			t.Fatal(err)
		}
		if got := decodeJSONString(q); got != want {
			t.Errorf("decode %s = %q, want %q", q, got, want)
		}
	}
}

func TestJSONValidation(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `0`, `-0.5e+10`, `"x"`, ` {"a":[{"b":null}]} `, `[1,2,3]`,
		`{`, `{"a"}`, `{"a":}`, `[1,]`, `01`, `1.`, `.5`, `tru`, `"\x"`, `"a` + "\n" + `"`,
		`{"a":1,}`, `[1 2]`, `{"a":1}{}`, "", "  ", `1e`, `-`, `"\u12"`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat("[", 100) + strings.Repeat("]", 100),
	} {
		_, _, ok := Default().redactJSON(doc)
		if want := json.Valid([]byte(doc)); ok != want {
			t.Errorf("valid(%.40q) = %v, encoding/json says %v", doc, ok, want)
		}
	}
}

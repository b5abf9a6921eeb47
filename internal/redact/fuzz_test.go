package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// fuzzSeeds gives the fuzzers the corpus and the awkward cases: escapes,
// private tags that form only after a cut, markers already in the text.
func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		"",
		"password=hunter2",
		`{"password": "s3cr3t!", "token": "x"}`,
		`{\"password\": \"s3cr3t!\"}`,
		"<pri<private>x</private>vate>tail",
		"a <private>b <private>c</private> d</private> e </private> f <PRIVATE attr=1>g",
		"[REDACTED:github-pat] password=[REDACTED:password-assignment]",
		"Authorization: Bearer [REDACTED:jwt]",
		"postgres://u:[REDACTED:url-password]@h/db",
		"x\\u003dpassword=abc123\\n",
		"-----BEGIN RSA PRIVATE KEY-----\\nMIIE\\n",
		"AKIA<private>x</private>IOSFODNN7EXAMPLE",
		"password=abc[REDACTED:jwt]def and token=x1[REDACTED:npm-token]yz12345678",
		"00000000000000.atlasv1.00000000000000000000000000000000000000000000000000000000000=00000000000000.atlasv1.000000000000000000000000000000000000000000000000000000000000",
	}
	for _, name := range []string{"testdata/positive.txt", "testdata/negative.txt"} {
		for _, l := range corpusLines(f, name) {
			text, _ := parseMarks(f, l)
			seeds = append(seeds, text)
		}
	}
	return seeds
}

var markerRE = regexp.MustCompile(`\[REDACTED:[a-z0-9-]+\]`)

func FuzzRedact(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	r := Default()
	f.Fuzz(func(t *testing.T, s string) {
		out, n := r.Redact(s)
		if n == 0 && out != s {
			t.Fatalf("no replacement but text changed: %q → %q", s, out)
		}
		again, m := r.Redact(out)
		if again != out || m != 0 {
			t.Fatalf("not idempotent:\n in  %q\n once %q\n twice %q", s, out, again)
		}
		// Markers in the input survive untouched.
		for _, mk := range markerRE.FindAllString(StripPrivate(s), -1) {
			if strings.Count(out, mk) < strings.Count(StripPrivate(s), mk) {
				t.Fatalf("marker %s was re-redacted: %q → %q", mk, s, out)
			}
		}
		// Find agrees with Redact: with no private span, applying its
		// findings gives Redact's output.
		fs := r.Find(s)
		if StripPrivate(s) == s {
			var b strings.Builder
			last := 0
			for _, fd := range fs {
				if fd.Start < last || fd.End <= fd.Start {
					t.Fatalf("findings overlap or are empty: %v", fs)
				}
				b.WriteString(s[last:fd.Start])
				b.WriteString(Marker(fd.Kind))
				last = fd.End
			}
			b.WriteString(s[last:])
			if b.String() != out {
				t.Fatalf("Find and Redact disagree on %q:\n %q\n %q", s, b.String(), out)
			}
		}
		// What Find reports is gone from the output (markers aside).
		if strings.IndexByte(s, 0) >= 0 {
			return
		}
		rest := markerRE.ReplaceAllString(out, "\x00")
		for _, fd := range fs {
			secret := s[fd.Start:fd.End]
			if fd.Kind == KindPrivate || len(secret) < 4 || strings.Count(s, secret) > 1 {
				continue
			}
			if strings.Contains(rest, secret) {
				t.Fatalf("%s %q survives in %q", fd.Kind, secret, out)
			}
		}
		if kind, ok := r.Match(s); ok != (n > 0) || (ok && kind == "") {
			t.Fatalf("Match = %q, %v but Redact made %d changes", kind, ok, n)
		}
	})
}

func FuzzRedactJSON(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
		if b, err := json.Marshal(map[string]any{"text": s, "password": s, "list": []string{s}}); err == nil {
			f.Add(string(b))
		}
	}
	r := Default()
	f.Fuzz(func(t *testing.T, s string) {
		out, n := r.RedactJSON([]byte(s))
		valid := json.Valid([]byte(s))
		if valid && !json.Valid(out) {
			t.Fatalf("valid input, invalid output: %q → %q", s, out)
		}
		if n == 0 && string(out) != s {
			t.Fatalf("no replacement but text changed: %q → %q", s, out)
		}
		again, m := r.RedactJSON(out)
		if string(again) != string(out) || m != 0 {
			t.Fatalf("not idempotent:\n in  %q\n once %q\n twice %q", s, out, again)
		}
		if !valid {
			return
		}
		// Every decoded string value of the output is clean on its own.
		var v any
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		walkStrings(v, func(str string) {
			if red, k := r.Redact(str); k != 0 {
				t.Fatalf("value %q still redacts to %q", str, red)
			}
		})
	})
}

func walkStrings(v any, fn func(string)) {
	switch x := v.(type) {
	case string:
		fn(x)
	case []any:
		for _, e := range x {
			walkStrings(e, fn)
		}
	case map[string]any:
		for _, e := range x {
			walkStrings(e, fn)
		}
	}
}

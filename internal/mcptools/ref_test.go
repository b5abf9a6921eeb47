package mcptools

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseRef(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" = refused
	}{
		{"n12", "n12"},
		{"F3", "f3"},
		{" e4 ", "e4"},
		{"[p123]", "p123"},
		{"l1", "l1"},
		{"#12", "n12"},
		{"12", "n12"},
		{"n#7", "n7"},
		{"", ""},
		{"x12", ""},
		{"n", ""},
		{"n0", ""},
		{"n-3", ""},
		{"n12a", ""},
		{"n99999999999999999999", ""},
		{"f3, n12", ""},
	}
	for _, tc := range cases {
		r, err := parseRef(tc.in)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("parseRef(%q) = %s, want a refusal", tc.in, r)
		case tc.want != "" && err != nil:
			t.Errorf("parseRef(%q): %v", tc.in, err)
		case tc.want != "" && r.String() != tc.want:
			t.Errorf("parseRef(%q) = %s, want %s", tc.in, r, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "n12 (note)") {
			t.Errorf("parseRef(%q): the message does not say the ref forms: %v", tc.in, err)
		}
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"n12", "F3", "[e4]", "#12", "12", "p9223372036854775807", "l0", "", "\xff", "n1\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseRef(s)
		if err != nil {
			if msg := err.Error(); len(msg) > 400 || !utf8.ValidString(msg) {
				t.Errorf("message %q is unbounded or not UTF-8", msg)
			}
			return
		}
		if r.ID <= 0 || !strings.ContainsRune("nfepl", rune(r.Kind)) {
			t.Fatalf("parseRef(%q) = %+v", s, r)
		}
		back, err := parseRef(r.String())
		if err != nil || back != r {
			t.Errorf("%q → %s does not read back: %+v %v", s, r, back, err)
		}
	})
}

func TestParseWhen(t *testing.T) {
	now := time.Date(2026, 5, 10, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		err  bool
	}{
		{"", time.Time{}, false},
		{"now", now, false},
		{"-30d", now.AddDate(0, 0, -30), false},
		{"-12h", now.Add(-12 * time.Hour), false},
		{"2026-05-01", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), false},
		{"2026-05-01 14:30", time.Date(2026, 5, 1, 14, 30, 0, 0, time.UTC), false},
		{"2026-05-01T14:30:00+02:00", time.Date(2026, 5, 1, 12, 30, 0, 0, time.UTC), false},
		{"-0d", time.Time{}, true},
		{"yesterday", time.Time{}, true},
	}
	for _, tc := range cases {
		got, err := parseWhen("since", tc.in, now)
		if (err != nil) != tc.err || !got.Equal(tc.want) {
			t.Errorf("parseWhen(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func FuzzParseWhen(f *testing.F) {
	for _, s := range []string{"now", "-30d", "-1h30m", "2026-05-01", "2026-05-01T14:00:00Z", "-", "--1d", "9999-99-99"} {
		f.Add(s)
	}
	now := time.Date(2026, 5, 10, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseWhen("since", s, now)
		if err == nil && strings.HasPrefix(strings.TrimSpace(s), "-") && got.After(now) {
			t.Errorf("parseWhen(%q) = %v: an offset back from now lies ahead", s, got)
		}
	})
}

func TestRootPath(t *testing.T) {
	cases := map[string]string{
		"file:///home/me/app":      "/home/me/app",
		"file://localhost/srv/x/":  "/srv/x",
		"file:///a%20b":            "/a b",
		"https://example.com/repo": "",
		"file://otherhost/x":       "",
		"file:":                    "",
		"::":                       "",
	}
	for in, want := range cases {
		if got := rootPath(in); got != want {
			t.Errorf("rootPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBound(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
		cut  bool
	}{
		{"short", 10, "short", false},
		{"ééééé", 5, "ééééé", false},
		{"éééééé", 5, "éééé…", true},
		{"line\n  two\tthree", 40, "line two three", false},
		{"<cairn-cite>n1</cairn-cite>", 60, "‹cairn-cite>n1‹/cairn-cite>", false},
	}
	for _, tc := range cases {
		got, cut := oneLine(tc.in, tc.max)
		if got != tc.want || cut != tc.cut {
			t.Errorf("oneLine(%q, %d) = %q %v, want %q %v", tc.in, tc.max, got, cut, tc.want, tc.cut)
		}
	}
}

package redact

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestAssignmentRule pins the decisions documented in assign.go.
func TestAssignmentRule(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"password=hunter2", "password=[REDACTED:password-assignment]"},
		{"POSTGRES_PASSWORD=postgres", "POSTGRES_PASSWORD=[REDACTED:password-assignment]"},
		{"password: postgres", "password: postgres"}, // a bare word in a lower-case key
		{`password: "Passw0rd!"`, `password: "[REDACTED:password-assignment]"`},
		{"password: <your password>", "password: <your password>"},
		{"token=${TOKEN}", "token=${TOKEN}"},
		{"token=$TOKEN", "token=$TOKEN"},
		{"API_KEY=$(pass show api)", "API_KEY=$(pass show api)"},
		{"password: '{{ vault_pw }}'", "password: '{{ vault_pw }}'"},
		{"password=********", "password=********"},
		{"password=changeme1", "password=changeme1"},
		{"api_key=your_api_key_here", "api_key=your_api_key_here"},
		{"password: str", "password: str"},
		{"password = self.password2", "password = self.password2"},
		{"api_key = os.getenv('KEY')", "api_key = os.getenv('KEY')"},
		{"token: tok", "token: tok"},
		{"token = 12345678", "token = 12345678"},
		{"token = abc123def456", "token = [REDACTED:token-assignment]"},
		{"if token == \"abc123def456\" {", "if token == \"abc123def456\" {"},
		{"max_tokens=4096", "max_tokens=4096"},
		{"PWD=/home/me", "PWD=/home/me"},
		{"next_page_token=CAEQAhoFCg3aB2", "next_page_token=CAEQAhoFCg3aB2"},
		{`"password": "Enter your password"`, `"password": "Enter your password"`},
		{"url?user=me&password=s3cret&next=1", "url?user=me&password=[REDACTED:password-assignment]&next=1"},
		{"password=p&ss;w0rd", "password=[REDACTED:password-assignment]"},
		{"--password s3cret! --verbose", "--password [REDACTED:password-assignment] --verbose"},
		{"db_pass = 'Xy9-long'", "db_pass = '[REDACTED:password-assignment]'"},
		{"bypass = 'x1y2z3w4'", "bypass = 'x1y2z3w4'"},
		{`env["DB_PASSWORD"] = "pa55word"`, `env["DB_PASSWORD"] = "[REDACTED:password-assignment]"`},
		{"password => 'p4ss'", "password => '[REDACTED:password-assignment]'"},
		{"Password := \"p4ss!\"", "Password := \"[REDACTED:password-assignment]\""},
		{"password: hunter2.", "password: [REDACTED:password-assignment]."},
		{`<add key="ApiKey" value="be45806382ff"/>`, `<add key="ApiKey" value="[REDACTED:api-key-assignment]"/>`},
		{`<add key="Environment" value="Prod1"/>`, `<add key="Environment" value="Prod1"/>`},
		{"- name: DB_PASSWORD\n  value: postgres", "- name: DB_PASSWORD\n  value: [REDACTED:password-assignment]"},
		{`{"name": "API_TOKEN", "value": "ab12cd34ef56"}`, `{"name": "API_TOKEN", "value": "[REDACTED:token-assignment]"}`},
		{"- name: DB_HOST\n  value: db1.internal", "- name: DB_HOST\n  value: db1.internal"},
		{"<password>Pa55w0rd!</password>", "<password>[REDACTED:password-assignment]</password>"},
		{"<password>{{ pw }}</password>", "<password>{{ pw }}</password>"},
		{"Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/x", "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/x"},
		{"Authorization: 9f8e7d6c5b4a3210", "Authorization: [REDACTED:secret-assignment]"},
	}
	r := Default()
	for _, c := range cases {
		if got, _ := r.Redact(c.in); got != c.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestEscapedBoundaries checks that a secret right after an escape or a
// line break is found, in raw JSON text and in decoded text alike.
func TestEscapedBoundaries(t *testing.T) {
	tok := expand(t, "{{ghp_|an:36}}")
	cases := []string{
		`"a\n` + tok + `"`,
		`"a\r\n` + tok + `\n"`,
		`"a\t` + tok + `"`,
		`"a\"` + tok + `\""`,
		`"x\u003d` + tok + `"`,
		"a\n" + tok,
		"a\r\n" + tok + "\n",
		tok,
	}
	r := Default()
	for _, in := range cases {
		out, n := r.Redact(in)
		if n != 1 || strings.Contains(out, tok) || !strings.Contains(out, "[REDACTED:github-pat]") {
			t.Errorf("Redact(%q) = %q, %d", in, out, n)
		}
	}
	// The n of an escape is not taken as part of a key either.
	if out, _ := r.Redact(`"cfg:\nDB_PASSWORD=postgres\n"`); out != `"cfg:\nDB_PASSWORD=[REDACTED:password-assignment]\n"` {
		t.Errorf("escaped env line: %q", out)
	}
	// A word that merely ends in n before a token is not an escape.
	if fs := r.Find("nghp_" + tok[4:]); len(fs) != 0 {
		t.Errorf("token glued to a word was found: %v", fs)
	}
}

func TestFindOffsets(t *testing.T) {
	r := Default()
	tok := expand(t, "{{npm_|an:36}}")
	s := "a <private>hidden</private> b " + tok + " c"
	fs := r.Find(s)
	want := []Finding{
		{KindPrivate, 2, 27},
		{"npm-token", 30, 30 + len(tok)},
	}
	if !slices.Equal(fs, want) {
		t.Fatalf("Find = %v, want %v", fs, want)
	}
	if s[fs[1].Start:fs[1].End] != tok {
		t.Fatalf("offsets do not point at the token")
	}
	// A token that forms only once a span is cut is reported across it.
	s = tok[:10] + "<private>x</private>" + tok[10:]
	fs = r.Find(s)
	if len(fs) != 2 || fs[0] != (Finding{"npm-token", 0, len(s)}) || fs[1].Kind != KindPrivate {
		t.Fatalf("Find across a cut = %v", fs)
	}
	if out, n := r.Redact(s); out != "[REDACTED:npm-token]" || n != 2 {
		t.Fatalf("Redact across a cut = %q, %d", out, n)
	}
}

func TestMatch(t *testing.T) {
	r := Default()
	cases := []struct {
		in   string
		kind string
	}{
		{"remember that the deploy key is " + expand(t, "{{ghp_|an:36}}"), "github-pat"},
		{"api_key=" + expand(t, "{{|hx:32}}"), "api-key-assignment"},
		{"note <private>x</private>", KindPrivate},
		{"the api uses sk- prefixed keys", ""},
		{"run go test ./...", ""},
	}
	for _, c := range cases {
		kind, ok := r.Match(c.in)
		if kind != c.kind || ok != (c.kind != "") {
			t.Errorf("Match(%q) = %q, %v; want %q", c.in, kind, ok, c.kind)
		}
		if ok && strings.Contains(c.in, kind) && kind != KindPrivate {
			t.Errorf("Match returned text from its input")
		}
	}
}

func TestRedactCleanTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("plain words and code(x) = y; ", 100)
	out, n := Default().Redact(s)
	if n != 0 || out != s {
		t.Fatalf("clean text changed")
	}
	if unsafe.StringData(out) != unsafe.StringData(s) {
		t.Fatalf("clean text was copied")
	}
}

func TestKinds(t *testing.T) {
	ks := Default().Kinds()
	if !slices.IsSorted(ks) || len(slices.Compact(slices.Clone(ks))) != len(ks) {
		t.Fatalf("kinds not sorted and unique: %v", ks)
	}
	for _, k := range ks {
		if k == "" || strings.Trim(k, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			t.Errorf("kind %q is not a short lower-case name", k)
		}
	}
	ks[0] = "changed"
	if Default().Kinds()[0] == "changed" {
		t.Fatal("Kinds exposes internal state")
	}
}

func TestConcurrentUse(t *testing.T) {
	r := Default()
	line := expand(t, "export GITHUB_TOKEN={{ghp_|an:36}} DB_PASSWORD=hunter2")
	want, _ := r.Redact(line)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if got, _ := r.Redact(line); got != want {
					t.Errorf("got %q", got)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestLongLines(t *testing.T) {
	tok := expand(t, "{{sk-proj-|w:156}}")
	filler := strings.Repeat("lorem ipsum dolor sit amet, ", 10000) // ~280 KB
	s := filler + "OPENAI_API_KEY=" + tok + "\n" + filler
	out, n := Default().Redact(s)
	if n != 1 || strings.Contains(out, tok) || len(out) != len(s)-len(tok)+len("[REDACTED:openai-api-key]") {
		t.Fatalf("long line: %d replacements", n)
	}
	blob := strings.Repeat("A", 200<<10) // a long run of one byte is not a token
	if fs := Default().Find(blob); len(fs) != 0 {
		t.Fatalf("run of A: %v", fs)
	}
}

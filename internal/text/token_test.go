package text

import (
	"slices"
	"strings"
	"testing"
)

// words splits a space-separated expectation, so tables stay readable.
func words(s string) []string { return strings.Fields(s) }

func TestTokens(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"only punctuation", " ,;!? -- ... // ", ""},
		{"ascii words lowercased and stemmed", "The Deployed services deploys Deploying",
			"the deploy servic deploy deploy"},
		{"stop words stay in the index", "it is what it is", "it is what it is"},
		{"short technical words", "CI Go k8s S3 UI DB PR QA JS TS AI",
			"ci go k8s s3 ui db pr qa js ts ai"},
		{"snake_case", "snake_case", "snake_case snake case"},
		{"camelCase", "camelCase", "camelcase camel case"},
		{"acronym run", "HTTPServer", "httpserver http server"},
		{"camel with digits", "s3Bucket base64Encode", "s3bucket s3 bucket base64encode base64 encod"},
		{"acronym with lowercase tail stays whole", "IPv6 URLs", "ipv6 url"},
		{"caps plural", "APIs PRs", "api pr"},
		{"path", "path/to/file.go", "path/to/file.go path to file.go file go"},
		{"ticket", "PAY-1432", "pay-1432 pay 1432"},
		{"version", "v1.2.3", "v1.2.3 1.2.3"},
		{"pre-release version", "v2.0.0-rc.1", "v2.0.0-rc.1 2.0.0-rc.1"},
		{"dotted number", "3.14 192.168.0.1", "3.14 192.168.0.1"},
		{"version inside a path", "go/1.22/bin", "go/1.22/bin go 1.22 bin"},
		{"url", "https://github.com/cairn-memory/cairn/issues/42?tab=files#top",
			"https github.com/cairn-memory/cairn/issues/42 github.com github com cairn-memory cairn memori cairn issu 42 tab file top"},
		{"email", "alice@example.com", "alic example.com exampl com"},
		{"joiners trimmed", "...hello... --flag _private_ ./run.sh",
			"hello flag privat run.sh run sh"},
		{"apostrophes", "don't user's 'quoted' rock’n’roll", "dont user quot rocknrol"},
		{"fullwidth ascii", "Ｆｕｌｌ ｐｎｐｍ １２３", "full pnpm 123"},
		{"diacritics kept, combining marks dropped", "café naïve Straße cafe\u0301",
			"café naïve straße cafe"},
		{"final sigma folded as FTS5 folds it", "ΟΔΟΣ οδος", "οδοσ οδοσ"},
		{"cyrillic", "Привет Мир", "привет мир"},
		{"chinese bigrams", "统一用", "统一 一用"},
		{"lone cjk char", "用 pnpm", "用 pnpm"},
		{"cjk punctuation splits runs", "决定。统一", "决定 统一"},
		{"chinese sentence", "我们决定统一用 pnpm，不要用 npm。",
			"我们 们决 决定 定统 统一 一用 pnpm 不要 要用 npm"},
		{"japanese sentence", "デプロイ先をRenderに変更しました",
			"デプ プロ ロイ イ先 先を render に変 変更 更し しま まし した"},
		{"korean", "배포 대상", "배포 대상"},
		{"digits split from cjk", "重试3次", "重试 3 次"},
		{"mixed code and prose", "fix the flaky TestParseURL in internal/net/url_test.go for PAY-1432",
			"fix the flaki testparseurl test pars url in internal/net/url_test.go internal net url_test.go url test go for pay-1432 pay 1432"},
		{"random-looking camel is not split", "aZ3kQ9xPw", "az3kq9xpw"},
		{"blob dropped", strings.Repeat("ab", 41) + " ok", "ok"},
		{"invalid utf-8 separates", "abc\xffdef", "abc def"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokens(tt.in)
			if !slices.Equal(got, words(tt.want)) {
				t.Errorf("Tokens(%q)\n got  %q\n want %q", tt.in, got, words(tt.want))
			}
			if text := IndexText(tt.in); text != strings.Join(got, " ") {
				t.Errorf("IndexText(%q) = %q, want Tokens joined: %q", tt.in, text, strings.Join(got, " "))
			}
		})
	}
}

// TestTokensLongLine: transcript lines of hundreds of KiB are normal.
func TestTokensLongLine(t *testing.T) {
	line := strings.Repeat("deploying k8s/", 20000) + strings.Repeat("统一", 20000)
	toks := Tokens(line)
	counts := map[string]int{}
	for _, tok := range toks {
		counts[tok]++
	}
	want := map[string]int{"deploy": 20000, "k8s": 20000, "统一": 20000, "一统": 19999}
	for tok, n := range want {
		if counts[tok] != n {
			t.Errorf("%q occurs %d times, want %d", tok, counts[tok], n)
		}
	}
}

func TestQueryTokens(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"english stop words dropped", "what did we decide about the deploy target?", "decid deploy target"},
		{"go and short technical words kept", "how do I run go tests in CI on k8s with S3",
			"run go test ci k8s s3"},
		{"contractions are stop words", "don't use npm, it's slow", "use npm slow"},
		{"parts that are stop words dropped, wholes kept", "path/to/file.go",
			"path/to/file.go path file.go file go"},
		{"chinese stop words", "我们决定统一用 pnpm，不要用 npm。", "决定 定统 统一 一用 pnpm 要用 npm"},
		{"content character keeps a bigram", "目的", "目的"},
		{"stop word alone", "的", ""},
		{"lone content char", "书", "书"},
		{"japanese particles", "デプロイ先をRenderに変更しました", "デプ プロ ロイ イ先 render 変更"},
		{"only stop words", "the of and to", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QueryTokens(tt.in); !slices.Equal(got, words(tt.want)) {
				t.Errorf("QueryTokens(%q)\n got  %q\n want %q", tt.in, got, words(tt.want))
			}
		})
	}
}

// TestQueryTokensSubsetOfTokens: a query can only ask for what the index
// could hold, for the same text.
func TestQueryTokensSubsetOfTokens(t *testing.T) {
	for _, s := range []string{
		"我们决定统一用 pnpm，不要用 npm。",
		"的目的是什么",
		"デプロイ先をRenderに変更しました",
		"fix the flaky TestParseURL in internal/net/url_test.go for PAY-1432",
		"the the the",
	} {
		assertSubset(t, s, QueryTokens(s), Tokens(s))
	}
}

func assertSubset(t *testing.T, s string, sub, of []string) {
	t.Helper()
	for _, tok := range sub {
		if !slices.Contains(of, tok) {
			t.Errorf("%q: %q is not among the index tokens %q", s, tok, of)
		}
	}
}

func TestIsStopWord(t *testing.T) {
	for _, w := range words("the a is of dont 的 我们 を ました") {
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false, want true", w)
		}
	}
	for _, w := range words("go ci cd ui db pr qa js ts ai k8s s3 up down one npm 决定 render") {
		if IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = true, want false", w)
		}
	}
}

// TestStopListsAreTokens: every stop word must be spelled as the tokenizer
// writes words before stemming, or it could never match.
func TestStopListsAreTokens(t *testing.T) {
	for w := range englishStop {
		if got := scanWords(w); !slices.Equal(got, []string{w}) {
			t.Errorf("english stop word %q scans as %q", w, got)
		}
	}
	for w := range cjkStop {
		if n := len([]rune(w)); n > maxCJKStop {
			t.Errorf("CJK stop word %q is %d runes, longer than maxCJKStop", w, n)
		}
	}
}

// scanWords returns the raw lowercased words the scanner finds.
func scanWords(s string) []string {
	var c wordCollector
	var sc scanner
	sc.scan(s, &c)
	return c.words
}

type wordCollector struct{ words []string }

func (c *wordCollector) word(low, _ []byte)      { c.words = append(c.words, string(low)) }
func (c *wordCollector) cjk(run []byte, _ []int) { c.words = append(c.words, string(run)) }

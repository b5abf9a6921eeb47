package capture

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// markRow is one labelled sentence of testdata/markers_*.tsv.
type markRow struct {
	line     int
	sentence string
	want     string // none, note:<class>, fact:<predicate>
	object   string // for facts, the expected object
}

func readMarkRows(t *testing.T, name string) []markRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []markRow
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 {
			t.Fatalf("%s:%d: want sentence<TAB>expected", name, n)
		}
		r := markRow{line: n, sentence: cols[0], want: cols[1]}
		if len(cols) > 2 {
			r.object = cols[2]
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// markLabel renders what Markers made of one sentence.
func markLabel(ds []memory.Draft) string {
	if len(ds) == 0 {
		return "none"
	}
	d := ds[0]
	if d.Kind == memory.KindFact {
		return "fact:" + d.Predicate
	}
	return string(d.Kind) + ":" + string(d.Class)
}

// TestMarkersTable measures precision and recall per language over the
// labelled tables. A prediction counts as right only with the expected
// kind and class (notes) or predicate and object (facts).
func TestMarkersTable(t *testing.T) {
	// markers_<lang>.tsv is the main table; _heldout and _blind were written
	// later, each after the rules had been tuned on the tables before it,
	// and their headers record how the rules first scored on them.
	for _, name := range []string{"en", "en_heldout", "en_blind", "zh", "zh_heldout", "zh_blind"} {
		t.Run(name, func(t *testing.T) {
			rows := readMarkRows(t, "markers_"+name+".tsv")
			pos, neg := 0, 0
			for _, r := range rows {
				if r.want == "none" {
					neg++
				} else {
					pos++
				}
			}
			if !strings.Contains(name, "_") && (pos < 60 || neg < 60) {
				t.Fatalf("table has %d positive and %d negative rows; want at least 60 of each", pos, neg)
			}
			predicted, correct, detected := 0, 0, 0
			for _, r := range rows {
				ds := Markers(r.sentence)
				got := markLabel(ds)
				if len(ds) > 1 {
					t.Errorf("line %d: %d drafts from one sentence: %q", r.line, len(ds), r.sentence)
				}
				ok := got == r.want
				if ok && r.object != "" && ds[0].Object != r.object {
					ok = false
					t.Logf("line %d: object %q, want %q", r.line, ds[0].Object, r.object)
				}
				if got != "none" {
					predicted++
					if r.want != "none" {
						detected++
					}
				}
				if ok && got != "none" {
					correct++
				}
				if !ok {
					t.Logf("line %d: got %s, want %s: %q", r.line, got, r.want, r.sentence)
				}
			}
			precision := markRatio(correct, predicted)
			recall := markRatio(correct, pos)
			t.Logf("%s: %d positive, %d negative; precision %.3f (%d/%d), recall %.3f (%d/%d), detection recall %.3f",
				name, pos, neg, precision, correct, predicted, recall, correct, pos, markRatio(detected, pos))
			if precision < 0.95 {
				t.Errorf("%s precision %.3f < 0.95", name, precision)
			}
			if recall < 0.85 {
				t.Errorf("%s recall %.3f < 0.85", name, recall)
			}
		})
	}
}

func markRatio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func TestMarkersDrafts(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []memory.Draft
	}{
		{
			name: "note keeps inline code and the user's words",
			text: "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`.",
			want: []memory.Draft{{
				Kind: memory.KindNote, Object: "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`.",
				Class: memory.ClassConvention, Category: "commit", Cardinality: memory.Many, Confidence: markConfConvention,
				Evidence: memory.Evidence{Quote: "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`."},
			}},
		},
		{
			name: "ticket fact",
			text: "I'm on PAY-1432 this week.",
			want: []memory.Draft{{
				Kind: memory.KindFact, Subject: "user", Predicate: "current_ticket", Object: "PAY-1432",
				Class: memory.ClassTask, Cardinality: memory.One, Confidence: markConfFact,
				Evidence: memory.Evidence{Quote: "I'm on PAY-1432 this week."},
			}},
		},
		{
			name: "deploy target keeps its apposition",
			text: "Heads up: our deploy target is now Render, Oregon region.",
			want: []memory.Draft{{
				Kind: memory.KindFact, Subject: "production", Predicate: "deploy_target", Object: "Render, Oregon region",
				Class: memory.ClassEnvironment, Category: "deploy", Cardinality: memory.One, Confidence: markConfFact,
				Evidence: memory.Evidence{Quote: "Heads up: our deploy target is now Render, Oregon region."},
			}},
		},
		{
			name: "ci fact",
			text: "our CI now runs on Buildkite",
			want: []memory.Draft{{
				Kind: memory.KindFact, Subject: "project", Predicate: "ci", Object: "Buildkite",
				Class: memory.ClassConvention, Category: "ci", Cardinality: memory.One, Confidence: markConfFact,
				Evidence: memory.Evidence{Quote: "our CI now runs on Buildkite"},
			}},
		},
		{
			name: "chinese decision",
			text: "我们决定统一用 pnpm，不要用 npm。",
			want: []memory.Draft{{
				Kind: memory.KindNote, Object: "我们决定统一用 pnpm，不要用 npm。", Class: memory.ClassDecision,
				Category: "package-manager", Cardinality: memory.Many, Confidence: markConfExplicit,
				Evidence: memory.Evidence{Quote: "我们决定统一用 pnpm，不要用 npm。"},
			}},
		},
		{
			name: "ticket in inline code",
			text: "I'm on `ENG-7` now",
			want: []memory.Draft{{
				Kind: memory.KindFact, Subject: "user", Predicate: "current_ticket", Object: "ENG-7",
				Class: memory.ClassTask, Cardinality: memory.One, Confidence: markConfFact,
				Evidence: memory.Evidence{Quote: "I'm on `ENG-7` now"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Markers(tt.text)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Markers(%q)\n got %+v\nwant %+v", tt.text, got, tt.want)
			}
		})
	}
}

// TestMarkersIgnore checks that only the user's prose is read.
func TestMarkersIgnore(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // objects, in order
	}{
		{"code fence", "Look at this:\n```go\n// Always use tabs.\nfunc f() {}\n```\nThanks.", nil},
		{"tilde fence", "~~~\nNever commit to main.\n~~~", nil},
		{"block quote", "> We always squash-merge.\nWhat do you think?", nil},
		{"indented code", "Here:\n\n    // never use panic\n    x := 1\n", nil},
		{"inline code", "Run `always use tabs` please.", nil},
		{"quoted words", `The error says "never use this endpoint" and I don't get it.`, nil},
		{"chinese quotes", "日志里写着“必须重启服务”，怎么回事？", nil},
		{"memory block", "<cairn-memory>\nAlways run tests before commit.\n</cairn-memory>\nCan you fix the build?", nil},
		{"memory block mid sentence", "We always <cairn-memory>x</cairn-memory> use tabs.", nil},
		{"client tag", "<system-reminder>\nNever use emojis.\n</system-reminder>\nfix it", nil},
		{"table", "| rule | value |\n| always | squash |", nil},
		{"prose after code", "```\nnever\n```\nWe use pnpm for everything.", []string{"We use pnpm for everything."}},
		{"list items", "Rules:\n- Always run the tests before you commit.\n- Never commit directly to main.\n1. Use pnpm, not npm.",
			[]string{"Always run the tests before you commit.", "Never commit directly to main.", "Use pnpm, not npm."}},
		{"soft wrap", "We decided to keep the cache in\nmemory with a size cap.", []string{"We decided to keep the cache in\nmemory with a size cap."}},
		{"abbreviation", "Never use globals, e.g. package-level maps.", []string{"Never use globals, e.g. package-level maps."}},
		{"duplicates", "Never commit to main. Never commit to main.", []string{"Never commit to main."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Markers(tt.text) {
				got = append(got, d.Object)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, markCollapse(w))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Markers(%q) objects = %q, want %q", tt.text, got, want)
			}
		})
	}
}

// collapseSpace is the whitespace normalization the fuzz property uses.
func markNormSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

func FuzzMarkers(f *testing.F) {
	for _, s := range []string{
		"Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`.",
		"I'm on PAY-1432 this week.",
		"Our deploy target is now Render, Oregon region.",
		"我们决定统一用 pnpm，不要用 npm。",
		"CI 现在跑在 Buildkite 上。",
		"<cairn-memory>Always x</cairn-memory> never use tabs.",
		"<cairn-<cairn-memory>a</cairn-memory>memory>b",
		"```\nalways\n```\n> never\n- [ ] don't use `x` \"y\"",
		"we switched to `pnpm`",
		"\xff\xfe always use tabs",
		"I'm working on \"the thing\".",
		"1. 以后别在回答里加 emoji。2、我这周在做 ENG-1",
		"`` ` `` always use ``",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		first := Markers(in)
		if again := Markers(in); !reflect.DeepEqual(first, again) {
			t.Fatalf("not deterministic on %q", in)
		}
		norm := markNormSpace(in)
		for _, d := range first {
			if d.Object == "" || !strings.Contains(norm, d.Object) {
				t.Fatalf("object %q is not in the input %q", d.Object, in)
			}
			if !utf8.ValidString(d.Object) {
				t.Fatalf("object %q is not valid UTF-8", d.Object)
			}
			if d.Kind == memory.KindFact && (d.Cardinality != memory.One || d.Subject == "" || d.Predicate == "") {
				t.Fatalf("bad fact %+v", d)
			}
			if d.Kind == memory.KindNote && d.Cardinality != memory.Many {
				t.Fatalf("bad note %+v", d)
			}
		}
	})
}

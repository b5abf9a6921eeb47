package text

import (
	"math"
	"testing"
)

func TestJaccard(t *testing.T) {
	tests := []struct {
		name string
		a, b []string
		want float64
	}{
		{"same set", words("a b c"), words("c b a"), 1},
		{"duplicates do not count", words("a a b"), words("a b b"), 1},
		{"disjoint", words("a b"), words("c d"), 0},
		{"half", words("a b c"), words("b c d"), 0.5},
		{"one empty", nil, words("a"), 0},
		{"both empty", nil, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Jaccard(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Jaccard(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// TestJaccardNearDuplicate: notes worded alike merge at 0.8, different
// decisions do not.
func TestJaccardNearDuplicate(t *testing.T) {
	a := Tokens("Always run the tests before committing.")
	b := Tokens("always run the tests before you commit")
	c := Tokens("Never run the linter before committing.")
	if got := Jaccard(a, b); got < 0.8 {
		t.Errorf("near-duplicates score %v, want at least 0.8", got)
	}
	if got := Jaccard(a, c); got >= 0.8 {
		t.Errorf("different notes score %v, want below 0.8", got)
	}
}

func TestBigramOverlap(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       float64
	}{
		{"identical", "night", "night", 1},
		{"case, spaces and punctuation ignored", "Hello, World!", "helloworld", 1},
		{"dice on bigrams", "night", "nacht", 0.25}, // ni ig gh ht / na ac ch ht: 2·1/8
		{"repeated bigrams counted", "aaa", "aa", 2.0 / 3},
		{"disjoint", "abc", "xyz", 0},
		{"too short to share", "a", "b", 0},
		{"both empty", "", "  ", 1},
		{"cjk", "统一用pnpm", "统一用pnpm。", 1},
		{"fullwidth folded", "ＰＮＰＭ", "pnpm", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BigramOverlap(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("BigramOverlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// TestRestatement runs the check the temporal package makes: overlap of
// 0.7 or more and no new content means the same fact in other words.
func TestRestatement(t *testing.T) {
	tests := []struct {
		prev, next string
		overlap    bool // BigramOverlap >= 0.7
		newContent bool
	}{
		{"Our CI runs on CircleCI.", "our CI is running on CircleCI", true, false},
		{"retry failed uploads 3 attempts", "retry failed uploads 5 attempts", true, true},
		{"retry failed uploads three times", "retry failed uploads five times", true, true},
		{"use npm for installs", "don't use npm for installs", true, true},
		{"deploy target is Hetzner Cloud", "deploy target is Render Cloud", true, true},
		{"the service listens on port 8080", "the service listens on port 8081", true, true},
		{"tests live in internal/net/url_test.go", "tests live in internal/net/uri_test.go", true, true},
		{"我们决定统一用 pnpm", "我们决定统一用 pnpm。", true, false},
		{"重试3次", "重试5次", false, true},
		{"deploy with pnpm and docker", "deploy with yarn and docker", true, true},
		{"The on-call engineer is Selin", "the on-call engineer is selin", true, false},
	}
	for _, tt := range tests {
		if got := BigramOverlap(tt.prev, tt.next) >= 0.7; got != tt.overlap {
			t.Errorf("BigramOverlap(%q, %q) >= 0.7 is %v, want %v (%.3f)", tt.prev, tt.next, got, tt.overlap, BigramOverlap(tt.prev, tt.next))
		}
		if got := NewContent(tt.prev, tt.next); got != tt.newContent {
			t.Errorf("NewContent(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.newContent)
		}
	}
}

func TestNewContentOneWay(t *testing.T) {
	if NewContent("retry 3 times, wait 5s", "retry 3 times") {
		t.Error("dropping a detail counted as new content")
	}
	if !NewContent("retry 3 times", "retry 3 times, wait 5s") {
		t.Error("adding a detail did not count as new content")
	}
}

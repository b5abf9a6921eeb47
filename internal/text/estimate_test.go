package text

import (
	"strings"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
	}{
		{"empty", "", 0},
		{"one char rounds up", "a", 1},
		{"four ascii chars a token", "abcd", 1},
		{"five ascii chars", "abcde", 2},
		{"prose", strings.Repeat("word ", 100), 125},
		{"one token per cjk character", "我们决定统一用", 7},
		{"cjk punctuation counts as cjk", "用。", 2},
		{"kana and hangul", "デプロイ배포", 6},
		{"other non-ascii at half a token", "éééé", 2},
		{"mixed", "用 pnpm", 1 + 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EstimateTokens(tt.in); got != tt.want {
				t.Errorf("EstimateTokens(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

package app

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSearchCommand(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	work := t.TempDir()
	path := filepath.Join(t.TempDir(), "proj", "s.jsonl")
	writeLines(t, path, claudeLines("s", work, time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC), []ccTurn{
		{User: "We moved production to Render, Oregon region.", Answer: "Noted: production deploys go to Render (Oregon)."},
		{User: "我们决定统一用 pnpm，不要用 npm。", Answer: "好的，统一用 pnpm。"},
		{User: "fix the flaky TestParseURL in internal/net/url_test.go", Answer: "Fixed the race in TestParseURL."},
	}))
	importJSON(t, path)
	cases := []struct{ query, want string }{
		{"where does production deploy", "Render"},
		{"用什么包管理器 pnpm", "pnpm"},
		{"url_test.go flaky", "TestParseURL"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "search", c.query, "--cwd", work, "--json")
		if code != 0 {
			t.Fatalf("%q: exit %d %s", c.query, code, errOut)
		}
		var res struct {
			Terms []string
			Hits  []struct {
				Layer, Text  string
				Score        float64
				RankScore    float64 `json:"rank_score"`
				LexicalScore float64 `json:"lexical_score"`
				Session      string
				TurnSeq      int `json:"turn_seq"`
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Text, c.want) {
			t.Fatalf("%q: hits %+v", c.query, res.Hits)
		}
		h := res.Hits[0]
		if (h.Layer != "L0" && h.Layer != "L2") || h.Session != "s" || h.TurnSeq == 0 || h.Score <= 0 || h.RankScore != 1 {
			t.Fatalf("%q: hit lacks its score parts or source: %+v", c.query, h)
		}
	}
	// Another directory is another place: nothing leaks by default.
	code, out, _ := run(t, "search", "Render", "--cwd", t.TempDir())
	if code != 0 || !strings.Contains(out, "no matches") {
		t.Fatalf("search from another place: %d %s", code, out)
	}
	code, out, _ = run(t, "search", "Render", "--cwd", t.TempDir(), "--place", "everywhere")
	if code != 0 || !strings.Contains(out, "Render") {
		t.Fatalf("--place everywhere: %d %s", code, out)
	}
	if code, _, errOut := run(t, "search", "x", "--layer", "L9", "--cwd", work); code != 2 || !strings.Contains(errOut, "unknown layer") {
		t.Fatalf("bad layer: %d %s", code, errOut)
	}
}

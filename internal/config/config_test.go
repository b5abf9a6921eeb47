package config

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestDefaultsAreTheSeedsValues(t *testing.T) {
	l, err := Parse(nil, "none", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Config
	checks := []struct {
		key  string
		want string
	}{
		{"capture.settling_window", "30m"},
		{"capture.episode_cap", "300"},
		{"recall.l1_limit", "12"},
		{"recall.l2_limit", "3"},
		{"recall.l0_limit", "3"},
		{"recall.l3_limit", "1"},
		{"rank.weight_l1", "1"},
		{"rank.weight_l2", "0.92"},
		{"rank.weight_l0", "0.85"},
		{"rank.weight_l3", "0.75"},
		{"vault.summary_tokens", "2500"},
		{"phase1.idle", "6h"},
		{"phase1.max_age", "10d"},
		{"phase2.unused", "30d"},
		{"capture.merge_jaccard", "0.8"},
		{"temporal.restatement", "0.7"},
		{"search.max_query_terms", "12"},
		{"recall.max_chars", "9000"},
	}
	for _, ch := range checks {
		got, ok := c.Get(ch.key)
		if !ok || got != ch.want {
			t.Errorf("%s = %q (%v), want %q", ch.key, got, ok, ch.want)
		}
		if src := l.Source(ch.key); src != FromDefault {
			t.Errorf("%s source = %s, want default", ch.key, src)
		}
	}
	if c.Capture.SettlingWindow.D() != 30*time.Minute {
		t.Errorf("settling window %v", c.Capture.SettlingWindow.D())
	}
}

func TestSourcesFileThenEnv(t *testing.T) {
	file := []byte("[recall]\nl1_limit = 8\nbudget_tokens = 400\n[phase1]\nidle = \"2h\"\n")
	l, err := Parse(file, "/x/config.toml", env(map[string]string{"CAIRN_RECALL_BUDGET_TOKENS": "700", "CAIRN_MEMORY_RECALL": "false"}))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key  string
		val  string
		from Source
	}{
		{"recall.l1_limit", "8", FromFile},
		{"recall.budget_tokens", "700", FromEnv},
		{"memory.recall", "false", FromEnv},
		{"phase1.idle", "2h", FromFile},
		{"recall.l2_limit", "3", FromDefault},
	}
	for _, c := range cases {
		got, _ := l.Config.Get(c.key)
		if got != c.val || l.Source(c.key) != c.from {
			t.Errorf("%s = %s from %s, want %s from %s", c.key, got, l.Source(c.key), c.val, c.from)
		}
	}
	if l.Config.Memory.Recall {
		t.Error("env override of memory.recall not applied")
	}
}

func TestErrorsNameTheProblem(t *testing.T) {
	cases := []struct {
		name string
		file string
		env  map[string]string
		want string
	}{
		{"unknown key", "[recall]\nl1_limt = 3\n", nil, "recall.l1_limt"},
		{"unknown table", "[bogus]\nx = 1\n", nil, "bogus"},
		{"syntax", "[recall\n", nil, "line 2"},
		{"bad env int", "", map[string]string{"CAIRN_RECALL_L1_LIMIT": "many"}, "CAIRN_RECALL_L1_LIMIT"},
		{"bad duration", "[capture]\nsettling_window = \"soon\"\n", nil, "soon"},
		{"range", "[capture]\nmerge_jaccard = 1.5\n", nil, "capture.merge_jaccard"},
		{"environment rung", "[temporal]\nrung_environment = \"repo\"\n", nil, "never be wider than project"},
		{"version", "[memory]\nversion = \"v3\"\n", nil, "memory.version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.file), "cfg.toml", env(c.env))
			if err == nil {
				t.Fatal("no error")
			}
			if memory.ErrorCode(err) != memory.CodeInvalid || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q (code %s) does not name %q", err, memory.ErrorCode(err), c.want)
			}
		})
	}
}

func TestEveryKeyHasDocAndEnv(t *testing.T) {
	l, err := Parse(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, k := range l.Keys {
		if k.Doc == "" || !strings.HasPrefix(k.Env, "CAIRN_") || seen[k.Env] {
			t.Errorf("key %s: doc %q env %q (duplicate %v)", k.Name, k.Doc, k.Env, seen[k.Env])
		}
		seen[k.Env] = true
	}
	if len(l.Keys) < 40 {
		t.Errorf("only %d keys", len(l.Keys))
	}
}

func TestDuration(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30m", 30 * time.Minute, true},
		{"10d", 240 * time.Hour, true},
		{"1d12h", 36 * time.Hour, true},
		{"d", 0, false},
		{"-5m", 0, false},
		{"xd", 0, false},
	}
	for _, c := range cases {
		got, err := ParseDuration(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%q: %v %v", c.in, got, err)
		}
	}
	for _, d := range []Duration{Duration(30 * time.Minute), Duration(6 * time.Hour), Duration(240 * time.Hour), Duration(90 * time.Second), Duration(36 * time.Hour)} {
		back, err := ParseDuration(d.String())
		if err != nil || Duration(back) != d {
			t.Errorf("round trip %v → %q → %v %v", d.D(), d.String(), back, err)
		}
	}
}

func TestSet(t *testing.T) {
	c, err := Default().Set("memory.capture", "false")
	if err != nil || c.Memory.Capture {
		t.Fatalf("set: %v %v", err, c.Memory.Capture)
	}
	if _, err := Default().Set("memory.nope", "1"); err == nil {
		t.Fatal("unknown key accepted")
	}
	if _, err := Default().Set("recall.max_chars", "20000"); err == nil {
		t.Fatal("out of range accepted")
	}
}

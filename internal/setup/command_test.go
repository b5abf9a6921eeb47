package setup

import (
	"strings"
	"testing"
)

func TestCairnCommandRecognition(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"/opt/cairn/bin/cairn hook codex Stop", true},
		{"cairn hook codex SessionStart", true},
		{"CAIRN_HOME=/x /usr/local/bin/cairn hook codex Stop", true},
		{"CAIRN_HOME='/a b' '/my apps/cairn' hook codex Stop", true},
		{"env CAIRN_HOME=/x cairn hook codex Stop", true},
		{`"/home/x/go/bin/cairn" hook codex Stop`, true},
		{"cairn hook claude-code Stop", false}, // another client's
		{"cairn mcp", false},
		{"cairn-notes hook codex Stop", false},
		{"echo cairn hook codex Stop", false},
		{"/bin/sh -c 'cairn hook codex Stop'", false},
		{"cairn hook", false},
		{"'unterminated cairn hook codex", false},
		{"/opt/cairn/bin/cairn-hook codex Stop", true},
		{"GOMAXPROCS=1 /opt/cairn/bin/cairn-hook codex Stop", true},
		{"CAIRN_HOME=/x '/my apps/cairn-hook' codex UserPromptSubmit", true},
		{"cairn-hook claude-code Stop", false}, // another client's
		{"cairn-hook codex", false},
		{"cairn-hooks codex Stop", false},
	}
	for _, tt := range tests {
		if got := isCairnCommand(tt.cmd, testCairn, Codex); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

func TestShellQuoteRoundTrips(t *testing.T) {
	for _, s := range []string{"/plain/path", "/with space/x", "/it's", `/q"uote`, "/$HOME/x", ""} {
		words, err := splitWords(shellQuote(s) + " hook")
		if err != nil || len(words) != 2 || words[0] != s {
			t.Errorf("%q → %q → %q (%v)", s, shellQuote(s), words, err)
		}
	}
}

func TestOurHandlerLeavesASharedGroup(t *testing.T) {
	root := parseJSONString(t, `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [
		{"type": "command", "command": "echo mine"},
		{"type": "command", "command": "cairn hook codex SessionStart", "timeout": 10}
	]}]}}`)
	spec := hookSpec{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Command: "/opt/cairn/bin/cairn hook codex SessionStart", Timeout: 10}
	ed, err := applyHooks(root, []hookSpec{spec}, oursFor(testCairn, Codex))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(string(encodeJSON(root, "")), "\n", "")
	want := `{"hooks": {"SessionStart": [{"matcher": "startup","hooks": [{"type": "command","command": "echo mine"}]},{"matcher": "startup|resume|clear|compact","hooks": [{"type": "command","command": "/opt/cairn/bin/cairn hook codex SessionStart","timeout": 10}]}]}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	mustEqual(t, "changes", len(ed.changes), 1)
	// The shared group kept its place; cairn's old spot is a dropped
	// position, so Codex's trust record for it goes too.
	mustEqual(t, "dropped", ed.dropped, []hookPos{{"SessionStart", 0, 1}})
}

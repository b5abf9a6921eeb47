package claudecode

import (
	"encoding/json"
	"testing"
)

func TestCleanHuman(t *testing.T) {
	cases := []struct {
		name, in, text, command string
		interrupted             bool
	}{
		{"plain", "fix the bug", "fix the bug", "", false},
		{"reminder span", "<system-reminder>\nnote\n</system-reminder>\nfix it", "fix it", "", false},
		{"unclosed reminder", "fix it <system-reminder>and the rest", "fix it", "", false},
		{"marker", "a <cairn-memory v=\"1\">recall</cairn-memory> b", "a  b", "", false},
		{"marker formed by removal", "<cairn-<cairn-memory>x</cairn-memory>memory>hidden</cairn-memory>ok", "ok", "", false},
		{"command", "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the parser</command-args>", "", "/review the parser", false},
		{"command without slash", "<command-name>compact</command-name>", "", "/compact", false},
		{"local stdout", "<local-command-stdout>done</local-command-stdout>", "", "", false},
		{"task notification", "<task-notification>\n<task-id>1</task-id>\n</task-notification>", "", "", false},
		{"bash mode", "<bash-input>ls</bash-input>", "", "", false},
		{"interrupt", "[Request interrupted by user]", "", "", true},
		{"interrupt for tool", "[Request interrupted by user for tool use]", "", "", true},
		{"not a tag", "use <system-reminders> here", "use <system-reminders> here", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, cmd, intr := cleanHuman(c.in)
			if text != c.text || cmd != c.command || intr != c.interrupted {
				t.Errorf("cleanHuman(%q) = %q %q %v, want %q %q %v", c.in, text, cmd, intr, c.text, c.command, c.interrupted)
			}
		})
	}
}

func TestRenderInput(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty", `{}`, ""},
		{"null", `null`, ""},
		{"scalars keep order", `{"command":"ls -la","timeout":30000,"run_in_background":true,"x":null}`,
			"command: ls -la\ntimeout: 30000\nrun_in_background: true\nx: null"},
		{"newlines are real", `{"content":"line one\nline two"}`, "content: line one\nline two"},
		{"nested", `{"todos":[{"content":"a","status":"done"},"b"],"opts":{}}`,
			"todos:\n  -\n    content: a\n    status: done\n  - b\nopts:\n  {}"},
		{"not an object", `"just text"`, "just text"},
		{"broken", `{"a":`, `{"a":`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInput(json.RawMessage(c.in)); got != c.want {
				t.Errorf("renderInput(%s) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestRenderInputDeep(t *testing.T) {
	in := ""
	for range 40 {
		in += `{"a":`
	}
	in += `1`
	for range 40 {
		in += `}`
	}
	got := renderInput(json.RawMessage(in))
	if got == "" || len(got) > 2*len(in)+40*40 {
		t.Errorf("deep input rendered as %d bytes", len(got))
	}
}

func TestMentionsFile(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"look at @src/main.go", true},
		{"@README.md first", true},
		{"mail me at bob@example.com", false},
		{"use @Override", false},
		{"just @", false},
	}
	for _, c := range cases {
		if got := mentionsFile(c.in); got != c.want {
			t.Errorf("mentionsFile(%q) = %v", c.in, got)
		}
	}
}

func TestResultText(t *testing.T) {
	var in any
	raw := `[{"type":"text","text":"listing\n<system-reminder>do not</system-reminder>"},{"type":"image","source":{"type":"base64","data":"AAAA"}}]`
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	text, images, intr := resultText(in)
	if text != "listing\n\n[image]" || images != 1 || intr {
		t.Errorf("resultText = %q %d %v", text, images, intr)
	}
}

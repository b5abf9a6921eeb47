package capture_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
)

var t0 = time.Date(2026, 10, 4, 9, 0, 0, 0, time.UTC)

// turnOf builds a completed turn from parts, numbering them and giving
// each a time a second after the last.
func turnOf(parts ...memory.Part) memory.Turn {
	t := memory.Turn{ID: 7, Seq: 3, Request: "do it", Status: memory.TurnCompleted, StartedAt: t0, EndedAt: t0.Add(time.Hour)}
	for i, p := range parts {
		p.Seq = i
		p.Time = t0.Add(time.Duration(i+1) * time.Second)
		t.Parts = append(t.Parts, p)
	}
	return t
}

func callP(tool, text string) memory.Part {
	return memory.Part{Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: tool, Text: text}
}

func resP(tool, text string) memory.Part {
	return memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: tool, Text: text}
}

func errP(tool, text string) memory.Part {
	p := resP(tool, text)
	p.IsError = true
	return p
}

// codexOut frames output the way Codex's exec tools report it.
func codexOut(code int, out string) string {
	return "Chunk ID: 1a2b3c\nWall time: 0.1000 seconds\nProcess exited with code " + itoa(code) +
		"\nOriginal token count: 12\nOutput:\n" + out
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var shop = memory.Session{ID: 1, ExternalID: "sess-1", Provider: memory.ProviderClaudeCode, Cwd: "/home/ana/shop",
	Place: memory.Place{Worktree: "/home/ana/shop", Project: "/home/ana/shop/.git"}}

// want is one expected draft: "kind predicate object @part".
type want struct {
	kind      memory.Kind
	pred, obj string
	part      int
}

func TestToolDrafts(t *testing.T) {
	tests := []struct {
		name  string
		sess  memory.Session
		parts []memory.Part
		want  []want
	}{
		{
			name: "claude code commit with heredoc message",
			parts: []memory.Part{
				callP("Bash", "command: git add .nvmrc && git commit -m \"$(cat <<'EOF'\nadd .nvmrc\n\nPins Node 20.\nEOF\n)\"\ndescription: Commit the nvmrc file"),
				resP("Bash", "[main 7e2964f] add .nvmrc\n 1 file changed, 1 insertion(+)\n create mode 100644 .nvmrc"),
			},
			want: []want{{memory.KindEvent, "committed", "7e2964f add .nvmrc", 1}, {memory.KindFact, "current_branch", "main", 1}},
		},
		{
			name: "claude code amended commit",
			parts: []memory.Part{
				callP("Bash", "command: git commit --amend -m 'PAY-1432: add .nvmrc to pin Node 20'\ndescription: Amend"),
				resP("Bash", "[add-nvmrc 7e2964f7] PAY-1432: add .nvmrc to pin Node 20\n Date: Sat Oct 3 18:02:11 2026 +0200\n 1 file changed, 1 insertion(+)"),
			},
			want: []want{{memory.KindEvent, "committed", "7e2964f7 PAY-1432: add .nvmrc to pin Node 20", 1}, {memory.KindFact, "current_branch", "add-nvmrc", 1}},
		},
		{
			name: "root commit and detached head",
			parts: []memory.Part{
				callP("Bash", "command: git commit -m init"),
				resP("Bash", "[main (root-commit) 0a1b2c3] init"),
				callP("Bash", "command: git commit -m wip"),
				resP("Bash", "[detached HEAD 4d5e6f7] wip"),
			},
			want: []want{{memory.KindEvent, "committed", "0a1b2c3 init", 1}, {memory.KindFact, "current_branch", "main", 1}, {memory.KindEvent, "committed", "4d5e6f7 wip", 3}},
		},
		{
			name: "commit the user rejected proposes nothing",
			parts: []memory.Part{
				callP("Bash", "command: git commit -m x"),
				errP("Bash", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."),
			},
		},
		{
			name:  "commit with no result proposes nothing",
			parts: []memory.Part{callP("Bash", "command: git commit -m x")},
		},
		{
			name: "commit with no commit line proposes nothing",
			parts: []memory.Part{
				callP("Bash", "command: git commit -q -m x"),
				resP("Bash", ""),
			},
		},
		{
			name: "failed commit is only an error",
			parts: []memory.Part{
				callP("Bash", "command: git commit -m x"),
				errP("Bash", "Exit code 1\nhusky - pre-commit hook exited with code 1 (error)\n[main 1234567] never"),
			},
			want: []want{{memory.KindEvent, "tool_error", "Bash: husky - pre-commit hook exited with code 1 (error)", 1}},
		},
		{
			name: "push of a named branch",
			parts: []memory.Part{
				callP("Bash", "command: git push -u origin add-nvmrc"),
				resP("Bash", "To github.com:acme/shop.git\n * [new branch]      add-nvmrc -> add-nvmrc\nbranch 'add-nvmrc' set up to track 'origin/add-nvmrc'."),
			},
			want: []want{{memory.KindEvent, "pushed", "origin/add-nvmrc", 1}},
		},
		{
			name: "bare push names the current branch",
			parts: []memory.Part{
				callP("Bash", "command: git push"),
				resP("Bash", "To github.com:acme/shop.git\n   1a2b3c4..5d6e7f8  feature/cart -> feature/cart"),
			},
			want: []want{{memory.KindEvent, "pushed", "origin/feature/cart", 1}, {memory.KindFact, "current_branch", "feature/cart", 1}},
		},
		{
			name: "push HEAD to a new remote branch",
			parts: []memory.Part{
				callP("Bash", "command: git push upstream HEAD"),
				resP("Bash", "To github.com:acme/shop.git\n * [new branch]      HEAD -> fix-login"),
			},
			want: []want{{memory.KindEvent, "pushed", "upstream/fix-login", 1}, {memory.KindFact, "current_branch", "fix-login", 1}},
		},
		{
			name: "rejected push is an error, not a push",
			parts: []memory.Part{
				callP("Bash", "command: git push origin main"),
				errP("Bash", "Exit code 1\nTo github.com:acme/shop.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:acme/shop.git'"),
			},
			want: []want{{memory.KindEvent, "tool_error", "Bash: error: failed to push some refs to 'github.com:acme/shop.git'", 1}},
		},
		{
			name: "up-to-date and dry-run pushes move nothing",
			parts: []memory.Part{
				callP("Bash", "command: git push"),
				resP("Bash", "Everything up-to-date"),
				callP("Bash", "command: git push --dry-run origin main"),
				resP("Bash", "To github.com:acme/shop.git\n   1a2b3c4..5d6e7f8  main -> main"),
			},
		},
		{
			name: "deleting a remote branch or pushing tags is not a push of work",
			parts: []memory.Part{
				callP("Bash", "command: git push origin --delete old-branch"),
				resP("Bash", "To github.com:acme/shop.git\n - [deleted]         old-branch"),
				callP("Bash", "command: git push origin :old-branch"),
				resP("Bash", "To github.com:acme/shop.git\n - [deleted]         old-branch"),
				callP("Bash", "command: git push --tags"),
				resP("Bash", "To github.com:acme/shop.git\n * [new tag]         v1.0.0 -> v1.0.0"),
			},
		},
		{
			name: "checkout -b and switch",
			parts: []memory.Part{
				callP("Bash", "command: git checkout -b add-nvmrc"),
				resP("Bash", "Switched to a new branch 'add-nvmrc'"),
				callP("Bash", "command: cd /home/ana/shop && git -C . switch -c router-cache"),
				resP("Bash", ""),
			},
			want: []want{{memory.KindFact, "current_branch", "router-cache", 3}},
		},
		{
			name: "checkout of a file is not a branch",
			parts: []memory.Part{
				callP("Bash", "command: git checkout -- src/app.js"),
				resP("Bash", "Updated 1 path from the index"),
			},
		},
		{
			name: "gh pr create",
			parts: []memory.Part{
				callP("Bash", "command: gh pr create --title \"Add .nvmrc\" --body \"Pins Node 20\" --base main"),
				resP("Bash", "Creating pull request for add-nvmrc into main in acme/shop\n\nhttps://github.com/acme/shop/pull/42"),
			},
			want: []want{{memory.KindEvent, "opened_pr", "https://github.com/acme/shop/pull/42 Add .nvmrc", 1}},
		},
		{
			name: "gh pr create that failed",
			parts: []memory.Part{
				callP("Bash", "command: gh pr create --fill"),
				errP("Bash", "Exit code 1\na pull request for branch \"x\" into branch \"main\" already exists:\nhttps://github.com/acme/shop/pull/41"),
			},
			want: []want{{memory.KindEvent, "tool_error", "Bash: a pull request for branch \"x\" into branch \"main\" already exists:", 1}},
		},
		{
			name: "forge MCP tool opens a pull request",
			parts: []memory.Part{
				callP("mcp__github__create_pull_request", "owner: acme\nrepo: shop\ntitle: Fix login\nhead: fix-login\nbase: main"),
				resP("mcp__github__create_pull_request", `{"number":7,"html_url":"https://github.com/acme/shop/pull/7","state":"open"}`),
			},
			want: []want{{memory.KindEvent, "opened_pr", "https://github.com/acme/shop/pull/7 Fix login", 1}},
		},
		{
			name: "claude code edits, one draft per path",
			parts: []memory.Part{
				callP("Edit", "file_path: /home/ana/shop/src/app.js\nold_string: a\nnew_string: b"),
				resP("Edit", "The file /home/ana/shop/src/app.js has been updated."),
				callP("MultiEdit", "file_path: /home/ana/shop/src/app.js\nedits:\n  -\n    old_string: c\n    new_string: d"),
				resP("MultiEdit", "Applied 1 edit to /home/ana/shop/src/app.js"),
				callP("Write", "file_path: /tmp/notes.md\ncontent: file_path: not this one"),
				resP("Write", "File created successfully at: /tmp/notes.md"),
				callP("NotebookEdit", "notebook_path: /home/ana/shop/nb/explore.ipynb\nnew_source: print(1)"),
				resP("NotebookEdit", "Updated cell"),
			},
			want: []want{
				{memory.KindEvent, "edited_file", "src/app.js", 0},
				{memory.KindEvent, "edited_file", "/tmp/notes.md", 4},
				{memory.KindEvent, "edited_file", "nb/explore.ipynb", 6},
			},
		},
		{
			name: "parallel edits with results out of order",
			parts: []memory.Part{
				callP("Edit", "file_path: /home/ana/shop/a.go\nold_string: x\nnew_string: y"),
				callP("Edit", "file_path: /home/ana/shop/b.go\nold_string: x\nnew_string: y"),
				resP("Edit", "The file /home/ana/shop/b.go has been updated."),
				errP("Edit", "<tool_use_error>String to replace not found in file.</tool_use_error>"),
			},
			want: []want{
				{memory.KindEvent, "edited_file", "b.go", 1},
				{memory.KindEvent, "tool_error", "Edit: <tool_use_error>String to replace not found in file.</tool_use_error>", 3},
			},
		},
		{
			name: "claude code task and agent",
			parts: []memory.Part{
				callP("Task", "description: Draft beads for linting setup\nsubagent_type: Plan\nprompt: Draft bead content for\nmany lines"),
				resP("Task", "Here is the plan."),
				callP("Agent", "prompt: Find every caller of parseDate\nand list them"),
				resP("Agent", "Found 3 callers."),
				callP("Task", "description: Never answered\nprompt: x"),
			},
			want: []want{
				{memory.KindEvent, "delegated_task", "Draft beads for linting setup", 0},
				{memory.KindEvent, "delegated_task", "Find every caller of parseDate and list them", 2},
			},
		},
		{
			name: "codex commit through exec_command",
			parts: []memory.Part{
				callP("exec_command", "cmd: git commit -m 'fix: guard nil config'\nworkdir: /home/ana/shop\nyield_time_ms: 1000"),
				resP("exec_command", codexOut(0, "[main 1a2b3c4] fix: guard nil config\n 1 file changed, 2 insertions(+)\n")),
			},
			want: []want{{memory.KindEvent, "committed", "1a2b3c4 fix: guard nil config", 1}, {memory.KindFact, "current_branch", "main", 1}},
		},
		{
			name: "codex background push finished by write_stdin",
			parts: []memory.Part{
				callP("exec_command", "cmd: git push\nworkdir: /home/ana/shop\nyield_time_ms: 1000"),
				resP("exec_command", "Chunk ID: a1\nWall time: 1.0 seconds\nProcess running with session ID 4711\nOriginal token count: 0\nOutput:\n"),
				callP("write_stdin", "session_id: 999\nchars: \nyield_time_ms: 1000"),
				resP("write_stdin", codexOut(3, "other: broken")),
				callP("write_stdin", "session_id: 4711\nchars: \nyield_time_ms: 1000"),
				resP("write_stdin", codexOut(0, "To github.com:acme/shop.git\n   1a2b3c4..5d6e7f8  main -> main\n")),
			},
			want: []want{
				{memory.KindEvent, "tool_error", "write_stdin: other: broken", 3},
				{memory.KindEvent, "pushed", "origin/main", 5},
				{memory.KindFact, "current_branch", "main", 5},
			},
		},
		{
			name: "codex background command that never finished",
			parts: []memory.Part{
				callP("exec_command", "cmd: git push\nyield_time_ms: 1000"),
				resP("exec_command", "Chunk ID: a1\nWall time: 1.0 seconds\nProcess running with session ID 12\nOriginal token count: 0\nOutput:\n"),
			},
		},
		{
			name: "codex apply_patch",
			parts: []memory.Part{
				callP("apply_patch", "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+new\n*** Delete File: src/old.ts\n*** Update File: src/c.ts\n*** Move to: src/d.ts\n@@\n-a\n+b\n*** End Patch"),
				resP("apply_patch", "Success. Updated the following files:\nM src/a.ts\nA src/b.ts\nD src/old.ts\nM src/d.ts\n"),
			},
			want: []want{
				{memory.KindEvent, "edited_file", "src/a.ts", 0},
				{memory.KindEvent, "edited_file", "src/b.ts", 0},
				{memory.KindEvent, "edited_file", "src/c.ts", 0},
				{memory.KindEvent, "edited_file", "src/d.ts", 0},
			},
		},
		{
			name: "codex apply_patch through the shell",
			parts: []memory.Part{
				callP("exec_command", "cmd: apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: /home/ana/shop/go.mod\n@@\n-go 1.22\n+go 1.26\n*** End Patch\nEOF"),
				resP("exec_command", codexOut(0, "Success. Updated the following files:\nM go.mod\n")),
			},
			want: []want{{memory.KindEvent, "edited_file", "go.mod", 0}},
		},
		{
			name: "codex spawn_agent",
			parts: []memory.Part{
				callP("spawn_agent", "agent_type: explorer\nmessage: review the cache code"),
				{Role: memory.RoleTool, Kind: memory.KindSubagent, Tool: "spawn_agent", Text: "new_agent_role: explorer\nnew_thread_id: t-1"},
				callP("spawn_agent", "agent_type: worker\nmessage: never started"),
			},
			want: []want{{memory.KindEvent, "delegated_task", "review the cache code", 0}},
		},
		{
			name: "codex errors and quiet searches",
			parts: []memory.Part{
				callP("exec_command", "cmd: rg -n compact src"),
				resP("exec_command", codexOut(1, "")),
				callP("exec_command", "cmd: ps -ef | rg chrome"),
				errP("exec_command", codexOut(1, "zsh:1: operation not permitted: ps\n")),
				callP("exec_command", "cmd: npm test"),
				errP("exec_command", codexOut(1, "\x1b[31m(node:1) Warning: ignored\n FAIL  src/a.test.ts > adds\nAssertionError: expected 1 to be 2\n")),
				callP("exec_command", "cmd: python3 tool.py"),
				errP("exec_command", codexOut(1, "Traceback (most recent call last):\n  File \"tool.py\", line 3, in <module>\n    main()\nKeyError: 'port'\n")),
				callP("exec_command", "cmd: make build"),
				errP("exec_command", codexOut(2, "")),
			},
			want: []want{
				{memory.KindEvent, "tool_error", "exec_command: zsh:1: operation not permitted: ps", 3},
				{memory.KindEvent, "tool_error", "exec_command: FAIL src/a.test.ts > adds", 5},
				{memory.KindEvent, "tool_error", "exec_command: KeyError: 'port'", 7},
				{memory.KindEvent, "tool_error", "exec_command: failed: make build", 9},
			},
		},
		{
			name: "old codex shell tool with an argv list",
			parts: []memory.Part{
				callP("shell", "command:\n  - bash\n  - -lc\n  - git checkout -b feat/y\nworkdir: /home/ana/shop"),
				resP("shell", "Switched to a new branch 'feat/y'"),
			},
			want: []want{{memory.KindFact, "current_branch", "feat/y", 1}},
		},
		{
			name: "opencode bash, edit, write, task, read error, aborted tool",
			sess: memory.Session{ExternalID: "ses_1", Provider: memory.ProviderOpenCode, Cwd: "/tmp/ocr/demo-repo"},
			parts: []memory.Part{
				callP("bash", "command: git commit -am 'wip: cart'\ndescription: Commit"),
				resP("bash", "[dev 0123abc] wip: cart\n 2 files changed, 3 insertions(+)\n"),
				callP("edit", "filePath: /tmp/ocr/demo-repo/main.go\noldString: a\nnewString: b"),
				resP("edit", "Edit applied successfully."),
				callP("write", "filePath: /tmp/ocr/demo-repo/NOTES.md\ncontent: # Notes"),
				resP("write", "Wrote file successfully."),
				callP("task", "description: List repo files\nprompt: SUBAGENT: list the files\nsubagent_type: general"),
				resP("task", "<task id=\"ses_2\" state=\"completed\">\n<task_result>\nREADME.md and main.go.\n</task_result>\n</task>"),
				callP("read", "filePath: /tmp/ocr/demo-repo/missing.txt"),
				errP("read", "File not found: /tmp/ocr/demo-repo/missing.txt"),
				callP("edit", "filePath: /tmp/ocr/demo-repo/x.go"),
				errP("edit", "Tool execution aborted"),
				{Role: memory.RoleUser, Kind: memory.KindSubagent, Tool: "general", Text: "a subtask the user asked for"},
			},
			want: []want{
				{memory.KindEvent, "committed", "0123abc wip: cart", 1},
				{memory.KindFact, "current_branch", "dev", 1},
				{memory.KindEvent, "edited_file", "main.go", 2},
				{memory.KindEvent, "edited_file", "NOTES.md", 4},
				{memory.KindEvent, "delegated_task", "List repo files", 6},
				{memory.KindEvent, "tool_error", "read: File not found: /tmp/ocr/demo-repo/missing.txt", 9},
			},
		},
		{
			name: "a result with no call still reports its error",
			parts: []memory.Part{
				errP("", "Exit code 127\nbash: foo: command not found"),
			},
			want: []want{{memory.KindEvent, "tool_error", "tool: bash: foo: command not found", 0}},
		},
		{
			name: "the same error twice is one draft",
			parts: []memory.Part{
				callP("Bash", "command: go test ./..."),
				errP("Bash", "Exit code 1\n--- FAIL: TestX (0.00s)"),
				callP("Bash", "command: go test ./..."),
				errP("Bash", "Exit code 1\n--- FAIL: TestX (0.00s)"),
			},
			want: []want{{memory.KindEvent, "tool_error", "Bash: --- FAIL: TestX (0.00s)", 1}},
		},
		{
			name: "huge output gives a short object",
			parts: []memory.Part{
				callP("Bash", "command: ./build.sh"),
				errP("Bash", "Exit code 1\nerror: "+strings.Repeat("très long message ", 200)),
			},
			want: []want{{memory.KindEvent, "tool_error", "", 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.sess
			if s.ExternalID == "" {
				s = shop
			}
			turn := turnOf(tc.parts...)
			got := capture.ToolDrafts(s, turn)
			if len(got) != len(tc.want) {
				var lines []string
				for _, d := range got {
					lines = append(lines, renderDraft(d))
				}
				t.Fatalf("got %d drafts, want %d:\n%s", len(got), len(tc.want), strings.Join(lines, "\n"))
			}
			for i, w := range tc.want {
				d := got[i]
				if d.Kind != w.kind || d.Predicate != w.pred || (w.obj != "" && d.Object != w.obj) || d.Evidence.PartSeq != w.part {
					t.Errorf("draft %d = %s\nwant %s %s %q @%d", i, renderDraft(d), w.kind, w.pred, w.obj, w.part)
				}
				if n := utf8.RuneCountInString(d.Object); n > 160 || !utf8.ValidString(d.Object) {
					t.Errorf("draft %d object has %d runes or is not UTF-8", i, n)
				}
				p := turn.Parts[w.part]
				if !d.ValidAt.Equal(p.Time) || d.Evidence.TurnID != turn.ID || d.Evidence.TurnSeq != turn.Seq ||
					d.Evidence.Source != "tool" || d.Evidence.SessionRef != s.ExternalID || d.Evidence.Quote == "" {
					t.Errorf("draft %d: valid %v evidence %+v", i, d.ValidAt, d.Evidence)
				}
				checkShape(t, d)
			}
		})
	}
}

// checkShape holds each predicate to its class, category and kind.
func checkShape(t *testing.T, d memory.Draft) {
	t.Helper()
	cat := map[string]string{
		"committed": "git", "pushed": "git", "opened_pr": "git", "edited_file": "file",
		"delegated_task": "process", "tool_error": "command", "current_branch": "branch",
	}[d.Predicate]
	if d.Category != cat || d.Class != memory.ClassTask {
		t.Errorf("%s: class %s category %s", d.Predicate, d.Class, d.Category)
	}
	if d.Predicate == "current_branch" && (d.Kind != memory.KindFact || d.Cardinality != memory.One) {
		t.Errorf("current_branch: kind %s cardinality %s", d.Kind, d.Cardinality)
	}
}

func TestToolDraftsSubject(t *testing.T) {
	parts := []memory.Part{callP("Bash", "command: git commit -m x"), resP("Bash", "[main 1234567] x")}
	for _, tc := range []struct {
		s    memory.Session
		want string
	}{
		{shop, "shop"},
		{memory.Session{Cwd: "/srv/wt/feature-a/"}, "feature-a"},
		{memory.Session{Cwd: `C:\src\app`}, "app"},
		{memory.Session{}, "repo"},
	} {
		got := capture.ToolDrafts(tc.s, turnOf(parts...))
		if len(got) == 0 || got[0].Subject != tc.want {
			t.Errorf("session %+v: subject %v, want %s", tc.s.Place, got, tc.want)
		}
	}
}

func FuzzToolDrafts(f *testing.F) {
	f.Add("Bash", "command: git commit -m 'x'", "[main 1234567] x", false)
	f.Add("Bash", "command: git push origin HEAD", "To x\n * [new branch]      HEAD -> y", false)
	f.Add("exec_command", "cmd: apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n*** End Patch\nEOF", codexOut(0, "ok"), false)
	f.Add("shell", "command:\n  - bash\n  - -lc\n  - gh pr create -t \"T\"", "https://github.com/a/b/pull/1", false)
	f.Add("Task", "description: \"unterminated", "ok", true)
	f.Add("exec_command", "cmd: 'unterminated \\", codexOut(2, "\xff\xfe error"), true)
	f.Fuzz(func(t *testing.T, tool, input, output string, isErr bool) {
		res := resP(tool, output)
		res.IsError = isErr
		ds := capture.ToolDrafts(shop, turnOf(callP(tool, input), res))
		for _, d := range ds {
			if n := utf8.RuneCountInString(d.Object); n == 0 || n > 160 || strings.Contains(d.Object, "\n") {
				t.Fatalf("object %q", d.Object)
			}
			if d.Evidence.PartSeq < 0 || d.Evidence.PartSeq > 1 {
				t.Fatalf("evidence part %d", d.Evidence.PartSeq)
			}
		}
	})
}

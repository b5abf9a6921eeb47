package capture

import (
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// call is one tool call of a turn with what came back.
type call struct {
	part   memory.Part  // the tool_call; Kind is empty for a result with no call
	result *memory.Part // the part that closed the call, nil while missing
	output string       // every chunk of output the call produced, joined
	exit   int          // the exit code, when hasExit
	// hasExit is set when the output reports an exit code.
	hasExit bool
	// absorbed marks a write_stdin poll whose output belongs to an earlier
	// command; its own drafts would duplicate that command's.
	absorbed bool
}

// tool names the call's tool.
func (c *call) tool() string {
	if c.part.Kind != "" {
		return c.part.Tool
	}
	if c.result != nil {
		return c.result.Tool
	}
	return ""
}

// rejected reports whether the user refused or interrupted the call.
func (c *call) rejected() bool {
	if c.result == nil {
		return false
	}
	// The clients' rejection notes are short and come first; a long
	// output is a real one and need not be lowercased whole.
	head := c.output
	if len(head) > 512 {
		head = head[:512]
	}
	low := strings.ToLower(head)
	for _, s := range rejectionNotes {
		if strings.Contains(low, s) {
			return true
		}
	}
	return false
}

// rejectionNotes are what the clients write when a call was refused or
// cut off by the user rather than failed.
var rejectionNotes = []string{
	"the user doesn't want to proceed with this tool use",
	"the tool use was rejected",
	"user rejected",
	"[request interrupted by user",
	"rejected by user",
	"aborted by user",
	"the user rejected permission",
	"tool execution aborted",
	"user denied",
}

// failed reports whether the call came back as an error.
func (c *call) failed() bool {
	return c.result != nil && (c.result.IsError || (c.hasExit && c.exit != 0))
}

// succeeded reports whether the call came back and did not fail, so its
// effects may be trusted.
func (c *call) succeeded() bool {
	return c.result != nil && !c.failed() && !c.rejected() && !c.running()
}

// running reports whether the only output so far says the process is still
// running (a Codex background command whose end the turn never saw).
func (c *call) running() bool {
	_, ok := runningSession(c.output)
	return ok && !c.hasExit
}

// pairCalls matches each result of a turn with its call. Codex and
// OpenCode write a result right after its call; Claude Code may write a
// batch of calls and then their results in any order, and parts carry no
// call id, so a result takes the earliest open call of the same tool whose
// input it echoes (a file path, a query), else the earliest open call of
// that tool. A result with no call becomes a call of its own.
func pairCalls(t memory.Turn) []*call {
	var calls []*call
	var open []*call
	parts := make([]memory.Part, len(t.Parts))
	for i, p := range t.Parts {
		// Importers strip cairn's marker; a tool that printed a transcript
		// could still carry one, and memory must not read itself back.
		p.Text = memory.StripMarked(p.Text)
		parts[i] = p
	}
	for i := range parts {
		p := parts[i]
		switch {
		case p.Kind == memory.KindToolCall:
			c := &call{part: p}
			calls = append(calls, c)
			open = append(open, c)
		case p.Kind == memory.KindToolResult || p.Kind == memory.KindSubagent:
			// A subagent part closes a spawn call (Codex); one with no open
			// call is a subtask the user asked for (OpenCode), not a result.
			k := -1
			if p.Kind == memory.KindToolResult || p.Tool != "" {
				k = matchOpen(open, p)
			}
			if k < 0 {
				if p.Kind == memory.KindToolResult {
					calls = append(calls, &call{result: &parts[i], output: p.Text})
				}
				continue
			}
			c := open[k]
			open = append(open[:k], open[k+1:]...)
			c.result = &parts[i]
			c.output = p.Text
		}
	}
	for _, c := range calls {
		c.exit, c.hasExit = exitCode(c.output)
	}
	joinBackground(calls)
	return calls
}

// matchOpen picks the open call a result belongs to, or -1.
func matchOpen(open []*call, r memory.Part) int {
	first := -1
	for k, c := range open {
		if (r.Tool != "" || r.Kind == memory.KindSubagent) && c.part.Tool != r.Tool {
			continue
		}
		if first < 0 {
			first = k
		}
		if echoes(c.part.Text, r.Text) {
			return k
		}
	}
	return first
}

// echoes reports whether a result repeats the first value of its call's
// input, which tells apart parallel calls of one tool.
func echoes(input, output string) bool {
	line, _, _ := strings.Cut(input, "\n")
	_, v, ok := strings.Cut(line, ": ")
	v = strings.TrimSpace(v)
	return ok && len(v) >= 4 && strings.Contains(output, v)
}

// joinBackground follows Codex commands that outlived their first wait:
// the first result says "Process running with session ID N" and later
// write_stdin calls with "session_id: N" bring the rest of the output and
// the exit code. Their output is joined onto the command, and the polls are
// marked absorbed.
func joinBackground(calls []*call) {
	for i, c := range calls {
		id, ok := runningSession(c.output)
		if !ok || c.hasExit || c.part.Tool == "write_stdin" {
			continue
		}
		for _, d := range calls[i+1:] {
			if d.part.Tool != "write_stdin" || d.result == nil || fieldValue(d.part.Text, "session_id") != id {
				continue
			}
			d.absorbed = true
			c.output += "\n" + d.output
			c.result = d.result
			if d.hasExit {
				c.exit, c.hasExit = d.exit, true
				break
			}
		}
	}
}

const runningPrefix = "Process running with session ID "

// runningSession returns N from a "Process running with session ID N" line.
func runningSession(s string) (string, bool) {
	i := strings.Index(s, runningPrefix)
	if i < 0 {
		return "", false
	}
	rest := s[i+len(runningPrefix):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return rest[:n], n > 0
}

// exitCode reads the exit status a result reports: Codex's "Process exited
// with code N" line, or the "Exit code N" line Claude Code's Bash tool
// starts a failed result with. The last Codex line wins.
func exitCode(s string) (int, bool) {
	code, found := 0, false
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, " \t\r\n")
		var num string
		switch {
		case strings.HasPrefix(line, "Process exited with code "):
			num = line[len("Process exited with code "):]
		case strings.HasPrefix(line, "Exit code ") && !found:
			num = line[len("Exit code "):]
		default:
			continue
		}
		if n, err := strconv.Atoi(num); err == nil {
			code, found = n, true
		}
	}
	return code, found
}

// fieldKeys end a multi-line value in a rendered tool input: the keys the
// clients' shell and edit tools use besides the one being read.
var fieldKeys = map[string]bool{
	"command": true, "cmd": true, "description": true, "timeout": true, "run_in_background": true,
	"dangerouslyDisableSandbox": true, "workdir": true, "yield_time_ms": true, "max_output_tokens": true,
	"sandbox_permissions": true, "justification": true, "tty": true, "shell": true, "login": true,
	"with_escalated_permissions": true, "timeout_ms": true, "prefix_rule": true, "session_id": true,
	"chars": true, "file_path": true, "filePath": true, "content": true, "old_string": true,
	"new_string": true, "replace_all": true, "edits": true, "notebook_path": true, "new_source": true,
	"cell_id": true, "cell_type": true, "edit_mode": true, "prompt": true, "subagent_type": true,
	"model": true, "agent_type": true, "message": true, "patchText": true, "path": true, "title": true,
	"body": true, "head": true, "base": true, "oldString": true, "newString": true, "replaceAll": true,
	"items": true, "fork_context": true, "reasoning_effort": true,
}

// fieldValue reads one top-level "key: value" field from a tool input
// rendered as lines. A value runs on over the following lines until the
// next known key; a list ("key:" then "  - item" lines) is joined with
// spaces, and a shell invocation list (bash -lc SCRIPT) yields its script.
func fieldValue(text, key string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		v, ok := strings.CutPrefix(l, key+":")
		if !ok || (v != "" && v[0] != ' ') {
			continue
		}
		v = strings.TrimPrefix(v, " ")
		if v == "" {
			return listValue(lines[i+1:])
		}
		var b strings.Builder
		b.WriteString(v)
		shell := key == "command" || key == "cmd"
		for _, m := range lines[i+1:] {
			// A key inside a quoted shell word ("$(cat <<'EOF' … EOF)")
			// is part of a commit message, not a field.
			if isFieldLine(m) && !(shell && quoteOpen(b.String())) {
				break
			}
			b.WriteString("\n" + m)
		}
		return b.String()
	}
	return ""
}

// quoteOpen reports whether a shell text ends inside a quoted word.
func quoteOpen(s string) bool {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case c == q:
			q = 0
		case c == '\\' && q != '\'':
			i++
		}
	}
	return q != 0
}

// isFieldLine reports whether a line starts a known top-level field.
func isFieldLine(l string) bool {
	k, _, ok := strings.Cut(l, ":")
	return ok && fieldKeys[k]
}

// listValue joins "  - item" lines; ["bash", "-lc", script] gives script.
func listValue(lines []string) string {
	var items []string
	for _, l := range lines {
		item, ok := strings.CutPrefix(l, "  - ")
		if !ok {
			if strings.HasPrefix(l, "    ") && len(items) > 0 {
				items[len(items)-1] += "\n" + strings.TrimPrefix(l, "    ")
				continue
			}
			break
		}
		items = append(items, item)
	}
	if len(items) >= 3 && commandRuns(items[:1], "bash", "sh", "zsh") && strings.HasPrefix(items[1], "-") && strings.Contains(items[1], "c") {
		return strings.Join(items[2:], " ")
	}
	return strings.Join(items, " ")
}

// shellTools run a command line given in a "command" or "cmd" field.
var shellTools = map[string]bool{
	"bash": true, "exec_command": true, "shell": true, "local_shell": true, "container.exec": true,
	"shell_command": true, "run_terminal_cmd": true, "execute_command": true, "run_command": true,
}

// shellCommand returns the command line a shell tool call ran.
func shellCommand(p memory.Part) (string, bool) {
	if p.Kind != memory.KindToolCall || !shellTools[strings.ToLower(p.Tool)] {
		return "", false
	}
	if v := fieldValue(p.Text, "command"); v != "" {
		return v, true
	}
	if v := fieldValue(p.Text, "cmd"); v != "" {
		return v, true
	}
	return "", false
}

package distill

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// run is one tool call of a session with what came back.
type run struct {
	turn      int   // turn seq
	turnID    int64 // turn id
	order     int   // position of its result in the session, for before/after
	callSeq   int
	resultSeq int
	tool      string
	line      string // the shell command line; "" for other tools
	input     string
	output    string
	exit      int
	hasExit   bool
	done      bool // a result came back
	failed    bool
	rejected  bool // the user refused or interrupted it
	at        time.Time
}

// ok reports whether the call came back and worked.
func (r *run) ok() bool { return r.done && !r.failed && !r.rejected }

// rejectionNotes are what clients write when the user refused a call.
var rejectionNotes = []string{
	"the user doesn't want to proceed with this tool use", "the tool use was rejected", "user rejected",
	"[request interrupted by user", "rejected by user", "aborted by user", "the user rejected permission",
	"tool execution aborted", "user denied",
}

// pairRuns matches each tool result of a turn with its call: the earliest
// open call of the same tool (clients write parallel calls' results in
// call order, and parts carry no call id). A part's order is base plus its
// position in the turn.
func pairRuns(t memory.Turn, base int) []*run {
	var runs, open []*run
	for i, p := range t.Parts {
		switch p.Kind {
		case memory.KindToolCall:
			r := &run{turn: t.Seq, turnID: t.ID, order: base + i, callSeq: p.Seq, tool: p.Tool, input: p.Text, at: p.Time}
			r.line, _ = shellLine(p.Tool, p.Text)
			runs = append(runs, r)
			open = append(open, r)
		case memory.KindToolResult:
			k := -1
			for i, r := range open {
				if p.Tool == "" || strings.EqualFold(r.tool, p.Tool) {
					k = i
					break
				}
			}
			if k < 0 {
				continue
			}
			r := open[k]
			open = append(open[:k], open[k+1:]...)
			r.order, r.resultSeq, r.output, r.done = base+i, p.Seq, p.Text, true
			if !p.Time.IsZero() {
				r.at = p.Time
			}
			r.exit, r.hasExit = exitCode(p.Text)
			r.rejected = rejected(p.Text)
			r.failed = !r.rejected && (p.IsError || r.hasExit && r.exit != 0)
		}
	}
	return runs
}

func rejected(out string) bool {
	head := out
	if len(head) > 512 {
		head = head[:512]
	}
	low := strings.ToLower(head)
	for _, n := range rejectionNotes {
		if strings.Contains(low, n) {
			return true
		}
	}
	return false
}

// exitCode reads the status a result reports: Codex's "Process exited
// with code N" (the last wins) or the "Exit code N" line Claude Code
// starts a failed Bash result with.
func exitCode(s string) (int, bool) {
	code, found := 0, false
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
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

// envelope lines are the clients' framing of a tool's output.
var envelope = []string{
	"Chunk ID:", "Wall time:", "Process exited with code", "Process running with session ID",
	"Original token count:", "Output:", "Total output lines:", "Exit code ",
}

// The package's patterns are compiled on first use: package init runs at
// every cairn process start, a hook's included, which never distills.
var errorWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:error|err!|fatal|failed|failure|fail|panic|exception|not found|no such file|denied|cannot|can't|could not|unable|invalid|refused|undefined|unexpected|missing|timed out|conflict)\b`)
})

var ansi = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]") })

// errorLine picks the line of a failed call's output that says what went
// wrong: the first line naming an error, else the first line with words; a
// Python traceback gives its last line.
func errorLine(out string) string {
	var lines []string
	for line := range strings.Lines(ansi().ReplaceAllString(out, "")) {
		line = strings.TrimSpace(line)
		if line == "" || isEnvelope(line) || !strings.ContainsFunc(line, isWordRune) {
			continue
		}
		lines = append(lines, line)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "Traceback (most recent call last)") {
			return clip(lines[len(lines)-1], maxQuote)
		}
		if errorWords().MatchString(l) {
			return clip(l, maxQuote)
		}
	}
	if len(lines) > 0 {
		return clip(lines[0], maxQuote)
	}
	return ""
}

func isEnvelope(line string) bool {
	for _, e := range envelope {
		if strings.HasPrefix(line, e) {
			return true
		}
	}
	return false
}

func isWordRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f && (r < 0x2500 || r > 0x259f)
}

// editedPaths lists the files a successful edit call changed, relative to
// root when under it.
func editedPaths(r *run, root string) []string {
	var out []string
	add := func(p string) {
		p = strings.TrimSpace(p)
		if p == "" || strings.ContainsAny(p, "\n\t") {
			return
		}
		out = append(out, relPath(p, root))
	}
	tool := strings.ToLower(r.tool)
	patch := ""
	switch {
	case tool == "apply_patch" || tool == "patch":
		patch = r.input
	case strings.HasPrefix(strings.TrimSpace(r.line), "apply_patch"):
		patch = r.line
	case editTools[tool]:
		for _, k := range []string{"file_path", "filePath", "path", "notebook_path"} {
			if v := inputField(r.input, k); v != "" {
				add(v)
				break
			}
		}
	}
	for line := range strings.Lines(patch) {
		line = strings.TrimSpace(line)
		for _, pre := range []string{"*** Update File: ", "*** Add File: "} {
			if p, ok := strings.CutPrefix(line, pre); ok {
				add(p)
			}
		}
	}
	return out
}

// relPath makes p relative to root when it lies under it.
func relPath(p, root string) string {
	root = strings.TrimRight(root, "/")
	if root != "" {
		if rest, ok := strings.CutPrefix(p, root+"/"); ok {
			return rest
		}
	}
	return p
}

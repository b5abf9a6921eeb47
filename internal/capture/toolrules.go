package capture

import (
	"slices"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Bounds on what a tool rule writes: objects stay short, quotes a little
// longer, and nothing copies a large output.
const (
	maxObject    = 160
	maxTaskTitle = 120
	maxQuote     = 200
)

// ToolDrafts proposes statements from a turn's tool calls and results, by
// fixed rules with no model: commits, pushes, the current branch, opened
// pull requests, edited files, delegated subagent tasks and tool errors,
// in the shapes Claude Code, Codex and OpenCode write them. Each draft's
// evidence points at the part that shows it and its valid time is that
// part's time. A call whose result is missing, still running or refused
// by the user proposes nothing; a failed call proposes only its error.
func ToolDrafts(s memory.Session, t memory.Turn) []memory.Draft {
	r := &ruleRun{s: s, t: t, subject: subjectOf(s), root: rootOf(s), seen: map[string]bool{}}
	for _, c := range pairCalls(t) {
		switch {
		case c.absorbed || c.rejected():
		case c.failed():
			r.toolError(c)
		case c.succeeded() && c.part.Kind != "":
			if cmd, ok := shellCommand(c.part); ok {
				r.shell(c, cmd)
			}
			r.edits(c)
			r.delegated(c)
			r.prTool(c)
		}
	}
	r.flushBranch()
	slices.SortStableFunc(r.out, func(a, b ordered) int { return a.seq - b.seq })
	drafts := make([]memory.Draft, len(r.out))
	for i, o := range r.out {
		drafts[i] = o.d
	}
	return drafts
}

// ruleRun collects the drafts of one turn.
type ruleRun struct {
	s       memory.Session
	t       memory.Turn
	subject string
	root    string
	out     []ordered
	seen    map[string]bool // predicate + object already proposed this turn
	branch  *observed       // the last current branch seen
}

// ordered is a draft with the part sequence it rests on, for a stable
// order by position in the turn.
type ordered struct {
	d   memory.Draft
	seq int
}

// observed is a value seen at a part.
type observed struct {
	value string
	part  memory.Part
	quote string
}

// event proposes one event draft, once per predicate and object per turn.
func (r *ruleRun) event(pred, obj, category string, p memory.Part, quote string) {
	obj = clip(oneLine(obj), maxObject)
	if obj == "" || r.seen[pred+"\x1f"+obj] {
		return
	}
	r.seen[pred+"\x1f"+obj] = true
	r.add(memory.Draft{
		Kind: memory.KindEvent, Subject: r.subject, Predicate: pred, Object: obj,
		Class: memory.ClassTask, Category: category,
	}, p, quote)
}

func (r *ruleRun) add(d memory.Draft, p memory.Part, quote string) {
	d.ValidAt = p.Time
	if d.ValidAt.IsZero() {
		d.ValidAt = firstTime(r.t.EndedAt, r.t.StartedAt)
	}
	d.Evidence = memory.Evidence{
		SessionID: r.s.ID, SessionRef: r.s.ExternalID, TurnID: r.t.ID, TurnSeq: r.t.Seq,
		PartSeq: p.Seq, Source: "tool", Quote: clip(oneLine(quote), maxQuote),
	}
	r.out = append(r.out, ordered{d: d, seq: p.Seq})
}

// flushBranch proposes the last branch seen as the current branch.
func (r *ruleRun) flushBranch() {
	if r.branch == nil {
		return
	}
	r.add(memory.Draft{
		Kind: memory.KindFact, Subject: r.subject, Predicate: "current_branch", Object: r.branch.value,
		Class: memory.ClassTask, Category: "branch", Cardinality: memory.One,
	}, r.branch.part, r.branch.quote)
}

func (r *ruleRun) sawBranch(name string, p memory.Part, quote string) {
	name = strings.TrimPrefix(strings.TrimSpace(name), "refs/heads/")
	if name == "" || name == "HEAD" || strings.ContainsAny(name, " \t\n") {
		return
	}
	r.branch = &observed{value: name, part: p, quote: quote}
}

// shell applies the git and gh rules to a successful shell command.
func (r *ruleRun) shell(c *call, cmd string) {
	res := *c.result
	for _, w := range simpleCommands(cmd) {
		if sub, args, ok := gitArgs(w); ok {
			switch sub {
			case "commit", "cherry-pick", "revert":
				r.commits(c, res)
			case "push":
				r.push(c, res, args)
			case "checkout", "switch":
				r.checkout(c, res, sub, args)
			}
			continue
		}
		if commandRuns(w, "gh") && len(w) >= 3 && w[1] == "pr" && w[2] == "create" {
			title, _ := optionValue(w[3:], "--title", "-t")
			r.pr(c, res, title)
		}
		if commandRuns(w, "glab") && len(w) >= 3 && w[1] == "mr" && w[2] == "create" {
			title, _ := optionValue(w[3:], "--title", "-t")
			r.pr(c, res, title)
		}
	}
}

// commitLine is git's report of a new commit: "[main 7e2964f] add .nvmrc",
// "[main (root-commit) 1a2b3c4] init", "[detached HEAD 1a2b3c4] wip".
var commitLine = lazyRE(`(?m)^\[([^\]\n]+?) ([0-9a-f]{7,40})\] (.+)$`)

func (r *ruleRun) commits(c *call, res memory.Part) {
	for _, m := range commitLine.FindAllStringSubmatch(c.output, -1) {
		branch, sha, msg := strings.TrimSuffix(m[1], " (root-commit)"), m[2], strings.TrimSpace(m[3])
		r.event("committed", sha+" "+msg, "git", res, m[0])
		if !strings.HasPrefix(branch, "detached") {
			r.sawBranch(branch, res, m[0])
		}
	}
}

// pushRef is one updated ref in git push's report: "   1a2b..3c4d  main ->
// main", " * [new branch]      add-nvmrc -> add-nvmrc", " + 1a2b...3c4d
// fix -> fix (forced update)".
var pushRef = lazyRE(`(?m)^\s*[*+\-= ]?\s*(?:\[new branch\]|[0-9a-f]{4,40}\.\.\.?[0-9a-f]{4,40})\s+(\S+) -> (\S+)`)

// pushTrack is push -u's note: "branch 'x' set up to track 'origin/x'".
var pushTrack = lazyRE(`set up to track '([^'/]+)/([^']+)'`)

func (r *ruleRun) push(c *call, res memory.Part, args []string) {
	out := c.output
	if strings.Contains(out, "[rejected]") || strings.Contains(out, "error: failed to push") ||
		strings.Contains(out, "fatal:") {
		return
	}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--dry-run" || a == "-n" || a == "--delete" || a == "-d":
			return // nothing was pushed, or a branch was deleted
		case a == "--repo" || a == "-o" || a == "--push-option" || a == "--receive-pack" || a == "--exec":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	remote, branch, src := "", "", ""
	if len(pos) > 0 {
		remote = pos[0]
	}
	if len(pos) > 1 {
		spec := strings.TrimPrefix(pos[1], "+")
		if strings.HasPrefix(spec, ":") {
			return // ":branch" deletes it
		}
		src, branch, _ = strings.Cut(spec, ":")
		if branch == "" {
			branch = src
		}
	}
	quote := ""
	if m := pushRef.FindStringSubmatch(out); m != nil {
		quote = strings.TrimSpace(m[0])
		if branch == "" || branch == "HEAD" {
			branch = m[2]
		}
		if src == "" || src == "HEAD" {
			if m[1] != "HEAD" {
				src = m[1]
			} else {
				src = m[2]
			}
		}
	} else if !strings.Contains(out, "->") {
		return // "Everything up-to-date", or no report at all: nothing moved
	}
	if m := pushTrack.FindStringSubmatch(out); m != nil && remote == "" {
		remote = m[1]
	}
	if remote == "" {
		remote = "origin" // git's default when none is named and none is reported
	}
	branch = strings.TrimPrefix(branch, "refs/heads/")
	if branch == "" {
		return // tags only, or a report this rule cannot read
	}
	obj := remote + "/" + branch
	if quote == "" {
		quote = "git push " + strings.Join(args, " ")
	}
	r.event("pushed", obj, "git", res, quote)
	// Only a push of the checked-out branch tells which branch that is.
	if len(pos) < 2 || pos[1] == "HEAD" {
		r.sawBranch(src, res, quote)
	}
}

// switched is git's note on changing branch.
var switched = lazyRE(`Switched to (?:a new )?branch '([^']+)'|Already on '([^']+)'|Reset branch '([^']+)'`)

func (r *ruleRun) checkout(c *call, res memory.Part, sub string, args []string) {
	if m := switched.FindStringSubmatch(c.output); m != nil {
		r.sawBranch(m[1]+m[2]+m[3], res, m[0])
		return
	}
	// Some clients keep no stderr, where git writes that note; a new
	// branch named on the command line is enough.
	for i, a := range args {
		isNew := sub == "checkout" && (a == "-b" || a == "-B") ||
			sub == "switch" && (a == "-c" || a == "-C" || a == "--create")
		if isNew && i+1 < len(args) {
			r.sawBranch(args[i+1], res, "git "+sub+" "+a+" "+args[i+1])
			return
		}
	}
}

// prURL is a pull or merge request's web address.
var prURL = lazyRE(`https?://[^\s/]+/[^\s]+?/(?:pull|-/merge_requests)/\d+`)

func (r *ruleRun) pr(c *call, res memory.Part, title string) {
	url := prURL.FindString(c.output)
	if url == "" {
		return
	}
	obj := url
	if title = strings.TrimSpace(oneLine(title)); title != "" {
		obj += " " + title
	}
	r.event("opened_pr", obj, "git", res, url)
}

// prTool handles pull requests opened through a forge's MCP tool
// (create_pull_request): the address comes back in the result.
func (r *ruleRun) prTool(c *call) {
	if strings.HasSuffix(strings.ToLower(c.part.Tool), "create_pull_request") {
		r.pr(c, *c.result, fieldValue(c.part.Text, "title"))
	}
}

// edits proposes one edited_file per distinct path the call changed.
func (r *ruleRun) edits(c *call) {
	for _, f := range editedFiles(c.part, r.root) {
		if f.op != opDelete {
			r.event("edited_file", f.path, "file", c.part, c.part.Tool+" "+f.path)
		}
	}
}

// delegated proposes the task a subagent was given.
func (r *ruleRun) delegated(c *call) {
	var task string
	switch strings.ToLower(c.part.Tool) {
	case "task", "agent":
		task = firstNonEmpty(fieldValue(c.part.Text, "description"), fieldValue(c.part.Text, "prompt"))
	case "spawn_agent":
		task = firstNonEmpty(fieldValue(c.part.Text, "message"), fieldValue(c.part.Text, "prompt"),
			fieldValue(c.part.Text, "task"), fieldValue(c.part.Text, "items"))
	default:
		return
	}
	task = clip(oneLine(task), maxTaskTitle)
	r.event("delegated_task", task, "process", c.part, task)
}

// toolError proposes a failed call's error, unless the failure is a
// search or comparison that found nothing (grep, rg and diff exit 1).
func (r *ruleRun) toolError(c *call) {
	line := errorLine(c.output)
	cmd, isShell := shellCommand(c.part)
	if line == "" && isShell && c.hasExit && c.exit == 1 && quietOnOne(cmd) {
		return
	}
	if line == "" {
		switch {
		case isShell:
			line = "failed: " + clip(oneLine(cmd), 80)
		case c.hasExit:
			line = "exited with code " + itoa(c.exit)
		default:
			line = "failed"
		}
	}
	tool := c.tool()
	if tool == "" {
		tool = "tool"
	}
	r.event("tool_error", tool+": "+line, "command", *c.result, line)
}

// quietOnOne reports whether a command line ends in a program whose exit
// code 1 means "no match" or "differs", not failure.
func quietOnOne(cmd string) bool {
	cmds := simpleCommands(cmd)
	if len(cmds) == 0 {
		return false
	}
	w := cmds[len(cmds)-1]
	if sub, _, ok := gitArgs(w); ok {
		return sub == "diff" || sub == "grep"
	}
	return commandRuns(w, "grep", "egrep", "fgrep", "rg", "ag", "ack", "diff", "cmp", "test", "[")
}

func subjectOf(s memory.Session) string {
	if b := baseName(firstNonEmpty(s.Place.Worktree, s.Cwd)); b != "" {
		return b
	}
	return "repo"
}

func rootOf(s memory.Session) string {
	return strings.TrimRight(firstNonEmpty(s.Place.Worktree, s.Cwd), "/\\")
}

// baseName is the last element of a slash or backslash path.
func baseName(p string) string {
	p = strings.TrimRight(p, "/\\")
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		p = p[i+1:]
	}
	return p
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

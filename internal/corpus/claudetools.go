package corpus

import (
	"strings"
)

// claudeCall is one tool call: the tool_use block and its result.
type claudeCall struct {
	id, name  string
	input     func(e *enc) // the input object's fields
	result    string
	blocks    bool // result as a list of text blocks (MCP, Task)
	isErr     bool
	useResult func(e *enc) // writes the toolUseResult field, or nil
	secrets   int
}

func (k claudeCall) useBlock() func(e *enc) {
	return func(e *enc) {
		e.str("type", "tool_use")
		e.str("id", k.id)
		e.str("name", k.name)
		e.obj("input")
		k.input(e)
		e.close()
		e.obj("caller")
		e.str("type", "direct")
		e.close()
	}
}

// secretRate is the chance that a shell output leaks credentials.
const secretRate = 0.015

// bigReadRate is the chance that a file read returns a file so large that
// its line passes 64 KiB.
const bigReadRate = 0.004

// outputSize draws a tool output size no larger than left allows.
func (g *gen) outputSize(left int64) int {
	s := g.logBetween(120, 48_000)
	return int(max(120, min(s, left*3/4)))
}

// tool draws a tool call whose result is about left bytes at most.
func (c *claudeSession) tool(left int64) claudeCall {
	g := c.g
	id := "toolu_01" + g.chars(alnum, 22)
	switch c.plant {
	case 2:
		c.plant--
		return c.bash(id, g.allSecrets())
	case 1:
		c.plant--
		return c.read(id, g.between(70_000, 200_000))
	}
	if c.spawn > 0 && c.agentID == "" && g.chance(0.3) {
		c.spawn--
		return c.task(id)
	}
	if left > 300_000 && g.chance(bigReadRate) {
		return c.read(id, int(g.logBetween(70_000, 260_000)))
	}
	size := g.outputSize(left)
	switch x := g.r.IntN(100); {
	case x < 36:
		if g.chance(secretRate) {
			return c.bash(id, g.secretRun(c.project))
		}
		return c.bash(id, g.run(c.project, size))
	case x < 56:
		return c.read(id, size)
	case x < 68:
		return c.edit(id)
	case x < 78:
		return c.grepTool(id, size)
	case x < 83:
		return c.glob(id, size)
	case x < 87:
		return c.write(id, size)
	case x < 92:
		return c.todo(id)
	case x < 97:
		return c.mcp(id, size)
	}
	return c.fetch(id, size)
}

func (c *claudeSession) abs(rel string) string { return c.cwd + "/" + rel }

func (c *claudeSession) bash(id string, r shellRun) claudeCall {
	k := claudeCall{id: id, name: "Bash", result: r.out, secrets: r.secrets}
	k.input = func(e *enc) {
		e.str("command", r.cmd)
		e.str("description", r.desc)
	}
	if r.exit != 0 {
		k.isErr = true
		k.result = "Exit code " + itoa(r.exit) + "\n" + r.out
		k.useResult = func(e *enc) { e.str("toolUseResult", "Error: "+k.result) }
		return k
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.str("stdout", r.out)
		e.str("stderr", "")
		e.boolean("interrupted", false)
		e.boolean("isImage", false)
		e.boolean("noOutputExpected", false)
		e.close()
	}
	return k
}

func (c *claudeSession) read(id string, size int) claudeCall {
	g := c.g
	path := c.abs(g.relPath())
	lines := g.codeOfSize(path, size)
	k := claudeCall{id: id, name: "Read", result: numbered(lines, 1)}
	k.input = func(e *enc) { e.str("file_path", path) }
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.str("type", "text")
		e.obj("file")
		e.str("filePath", path)
		e.str("content", strings.Join(lines, "\n"))
		e.num("numLines", int64(len(lines)))
		e.num("startLine", 1)
		e.num("totalLines", int64(len(lines)))
		e.close()
		e.close()
	}
	return k
}

func (c *claudeSession) edit(id string) claudeCall {
	g := c.g
	path := c.abs(g.relPath())
	h := g.hunk(path)
	oldS, newS := strings.Join(h.removed, "\n"), strings.Join(h.added, "\n")
	snippet := append(append(append([]string{}, h.before...), h.added...), h.after...)
	k := claudeCall{id: id, name: "Edit",
		result: "The file " + path + " has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n" + numbered(snippet, h.at)}
	k.input = func(e *enc) {
		e.str("file_path", path)
		e.str("old_string", oldS)
		e.str("new_string", newS)
		e.boolean("replace_all", false)
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.str("filePath", path)
		e.str("oldString", oldS)
		e.str("newString", newS)
		e.arr("structuredPatch")
		e.open()
		e.num("oldStart", int64(h.at))
		e.num("oldLines", int64(len(h.before)+len(h.removed)+len(h.after)))
		e.num("newStart", int64(h.at))
		e.num("newLines", int64(len(snippet)))
		e.arr("lines")
		for _, l := range h.before {
			e.strElem(" " + l)
		}
		for _, l := range h.removed {
			e.strElem("-" + l)
		}
		for _, l := range h.added {
			e.strElem("+" + l)
		}
		for _, l := range h.after {
			e.strElem(" " + l)
		}
		e.closeArr()
		e.close()
		e.closeArr()
		e.boolean("userModified", false)
		e.boolean("replaceAll", false)
		e.close()
	}
	return k
}

func (c *claudeSession) write(id string, size int) claudeCall {
	g := c.g
	path := c.abs(g.relPath())
	content := strings.Join(g.codeOfSize(path, size/2+60), "\n") + "\n"
	k := claudeCall{id: id, name: "Write", result: "File created successfully at: " + path}
	k.input = func(e *enc) {
		e.str("file_path", path)
		e.str("content", content)
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.str("type", "create")
		e.str("filePath", path)
		e.str("content", content)
		e.arr("structuredPatch")
		e.closeArr()
		e.close()
	}
	return k
}

func (c *claudeSession) grepTool(id string, size int) claudeCall {
	g := c.g
	r := g.grep(size)
	pattern := strings.TrimSuffix(strings.TrimPrefix(r.cmd, "rg -n '"), "' .")
	k := claudeCall{id: id, name: "Grep", result: r.out}
	k.input = func(e *enc) {
		e.str("pattern", pattern)
		e.str("path", c.cwd)
		e.str("output_mode", "content")
		e.boolean("-n", true)
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.str("mode", "content")
		e.num("numFiles", 0)
		e.arr("filenames")
		e.closeArr()
		e.str("content", r.out)
		e.num("numLines", int64(strings.Count(r.out, "\n")))
		e.close()
	}
	return k
}

func (c *claudeSession) glob(id string, size int) claudeCall {
	g := c.g
	ext := g.pick(langExts)
	var files []string
	n := 0
	for n < size {
		f := c.abs(g.relPathExt(ext))
		files = append(files, f)
		n += len(f) + 1
	}
	k := claudeCall{id: id, name: "Glob", result: strings.Join(files, "\n")}
	k.input = func(e *enc) { e.str("pattern", "**/*"+ext) }
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.arr("filenames")
		for _, f := range files {
			e.strElem(f)
		}
		e.closeArr()
		e.num("durationMs", int64(g.between(3, 900)))
		e.num("numFiles", int64(len(files)))
		e.boolean("truncated", false)
		e.close()
	}
	return k
}

func (c *claudeSession) todo(id string) claudeCall {
	g := c.g
	type item struct{ content, status string }
	var items []item
	for i := range g.between(2, 7) {
		status := "pending"
		if i == 0 {
			status = "in_progress"
		}
		items = append(items, item{g.fill("{i} the {c} ({t})"), status})
	}
	write := func(e *enc) {
		for _, it := range items {
			e.open()
			e.str("content", it.content)
			e.str("status", it.status)
			e.str("activeForm", "Working on: "+it.content)
			e.close()
		}
	}
	k := claudeCall{id: id, name: "TodoWrite", result: "Todo list updated. Keep it current while you work through the items."}
	k.input = func(e *enc) {
		e.arr("todos")
		write(e)
		e.closeArr()
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.arr("oldTodos")
		e.closeArr()
		e.arr("newTodos")
		write(e)
		e.closeArr()
		e.close()
	}
	return k
}

func (c *claudeSession) mcp(id string, size int) claudeCall {
	g := c.g
	ticket := g.ticket()
	k := claudeCall{id: id, name: "mcp__linear__get_issue", blocks: true, result: g.issueJSON(ticket, size)}
	k.input = func(e *enc) { e.str("id", ticket) }
	return k
}

func (c *claudeSession) fetch(id string, size int) claudeCall {
	g := c.g
	url := "https://docs.example.com/" + g.pick(nameParts) + "/" + g.snake()
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(g.paragraph(g.between(2, 5)))
		b.WriteString("\n\n")
	}
	k := claudeCall{id: id, name: "WebFetch", result: b.String()}
	k.input = func(e *enc) {
		e.str("url", url)
		e.str("prompt", "Summarize what this page says about "+g.pick(components))
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.num("bytes", int64(b.Len()*3))
		e.num("code", 200)
		e.str("codeText", "OK")
		e.str("result", b.String())
		e.num("durationMs", int64(g.between(200, 9000)))
		e.str("url", url)
		e.close()
	}
	return k
}

// issueJSON is an issue tracker's answer of about size bytes, as an MCP
// server returns it.
func (g *gen) issueJSON(ticket string, size int) string {
	var b strings.Builder
	b.WriteString("{\n  \"identifier\": \"" + ticket + "\",\n  \"title\": \"" + g.fill("{i} the {c}") + "\",\n")
	b.WriteString("  \"state\": \"" + g.pick([]string{"Todo", "In Progress", "In Review", "Done"}) + "\",\n")
	b.WriteString("  \"priority\": " + itoa(g.between(0, 4)) + ",\n  \"description\": \"" + g.paragraph(g.between(2, 5)) + "\",\n  \"comments\": [")
	first := true
	for b.Len() < size {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString("\n    {\"author\": \"" + g.pick([]string{"sam", "alex", "priya", "wei", "jordan"}) + "\", \"body\": \"" + g.paragraph(g.between(1, 3)) + "\"}")
	}
	b.WriteString("\n  ]\n}")
	return b.String()
}

// task starts a subagent: the Task call, the subagent's own file, and the
// result the parent receives.
func (c *claudeSession) task(id string) claudeCall {
	g := c.g
	agentID := g.chars(lowerHex, 7)
	desc := g.fill("Investigate the {c}")
	prompt := g.fill("Look through {f} and the {c} and report every place that could cause {p}. ") + g.paragraph(g.between(1, 3))
	answer := g.answer(false)
	st, err := c.writeSubagent(agentID, prompt, answer)
	if err != nil && c.out.err == nil {
		c.out.err = err
	}
	c.subs = append(c.subs, st)
	k := claudeCall{id: id, name: "Task", blocks: true, result: answer}
	k.input = func(e *enc) {
		e.str("description", desc)
		e.str("prompt", prompt)
		e.str("subagent_type", "general-purpose")
	}
	k.useResult = func(e *enc) {
		e.obj("toolUseResult")
		e.str("status", "completed")
		e.str("prompt", prompt)
		e.str("agentId", agentID)
		e.arr("content")
		e.open()
		e.str("type", "text")
		e.str("text", answer)
		e.close()
		e.closeArr()
		e.num("totalDurationMs", int64(g.between(20_000, 400_000)))
		e.num("totalTokens", int64(g.between(5_000, 90_000)))
		e.num("totalToolUseCount", int64(g.between(2, 40)))
		e.close()
	}
	return k
}

// writeSubagent writes a subagent's transcript: one prompt, its tool
// rounds and the answer handed back.
func (c *claudeSession) writeSubagent(agentID, prompt, answer string) (fileStats, error) {
	g := c.g
	out, err := create(c.subagentPath(agentID))
	if err != nil {
		return fileStats{}, err
	}
	sub := &claudeSession{
		g: g, out: out, sid: c.sid, cwd: c.cwd, branch: c.branch, version: c.version,
		model: c.model, slug: c.slug, project: c.project, agentID: agentID, now: c.now,
	}
	budget := g.logBetween(200_000, 1_000_000)
	promptID := g.uuid4()
	sub.prompt(promptID, prompt)
	for out.st.bytes < budget-1500 {
		sub.round(budget - out.st.bytes - 1500)
	}
	msgID, reqID := "msg_01"+g.chars(alnum, 22), "req_011C"+g.chars(alnum, 20)
	sub.assistantLine(sub.parent, msgID, reqID, "end_turn", textBlock(answer))
	c.now = sub.now
	st := out.st
	st.sessions, st.subagents, st.turns = 1, 1, 1
	return st, out.close()
}

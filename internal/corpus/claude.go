package corpus

import (
	"path/filepath"
	"time"
)

// claudeSession writes one Claude Code 2.1 transcript: the main session
// file, or one subagent's file.
type claudeSession struct {
	g   *gen
	out *sink
	e   enc

	sid, cwd, branch, version, model, slug, project string
	agentID                                         string // set for a subagent's file
	dir                                             string // the project directory, for subagent files

	now    time.Time
	parent string // the line the next one continues; "" for none
	// plant counts down the forced calls that open the first session: an
	// output with every kind of secret (2), then a file read longer than
	// 64 KiB (1), so that even a tiny corpus exercises both.
	plant int
	// spawn is how many subagents are still to be started.
	spawn int
	// subs collects the subagent files written.
	subs []fileStats
}

// tick advances the clock by lo..hi milliseconds.
func (c *claudeSession) tick(lo, hi int) time.Time {
	c.now = c.now.Add(time.Duration(c.g.between(lo, hi)) * time.Millisecond)
	return c.now
}

// envelope opens a conversational line and writes the fields every such
// line carries.
func (c *claudeSession) envelope(parent string) {
	e := &c.e
	e.reset()
	e.open()
	if parent == "" {
		e.null("parentUuid")
	} else {
		e.str("parentUuid", parent)
	}
	e.boolean("isSidechain", c.agentID != "")
	e.str("userType", "external")
	e.str("cwd", c.cwd)
	e.str("sessionId", c.sid)
	e.str("version", c.version)
	e.str("gitBranch", c.branch)
	if c.agentID != "" {
		e.str("agentId", c.agentID)
	}
	if c.slug != "" {
		e.str("slug", c.slug)
	}
}

// finish closes a conversational line with its uuid and time and writes it.
func (c *claudeSession) finish(uuid string, extra func(e *enc)) {
	e := &c.e
	e.str("uuid", uuid)
	e.str("timestamp", stamp(c.now))
	if extra != nil {
		extra(e)
	}
	e.close()
	c.out.line(e.b)
}

// snapshot writes the file-history bookkeeping line Claude Code puts
// before each prompt.
func (c *claudeSession) snapshot(msgID string) {
	e := &c.e
	e.reset()
	e.open()
	e.str("type", "file-history-snapshot")
	e.str("messageId", msgID)
	e.obj("snapshot")
	e.str("messageId", msgID)
	e.obj("trackedFileBackups")
	e.close()
	e.str("timestamp", stamp(c.now))
	e.close()
	e.boolean("isSnapshotUpdate", false)
	e.close()
	c.out.line(e.b)
}

// queueOp writes the queue bookkeeping a message typed mid-turn leaves.
func (c *claudeSession) queueOp(text string) {
	for i, op := range []string{"enqueue", "remove"} {
		e := &c.e
		e.reset()
		e.open()
		e.str("type", "queue-operation")
		e.str("operation", op)
		e.str("timestamp", stamp(c.tick(200, 2000)))
		e.str("sessionId", c.sid)
		if i == 0 {
			e.str("content", text)
		}
		e.close()
		c.out.line(e.b)
	}
}

// progress writes hook progress lines hanging off parent, a side branch
// of the conversation as Claude Code 2.1 writes them.
func (c *claudeSession) progress(parent, toolUseID, event string, n int) string {
	for range n {
		uuid := c.g.uuid4()
		c.envelope(parent)
		e := &c.e
		e.str("type", "progress")
		e.obj("data")
		e.str("type", "hook_progress")
		e.str("hookEvent", event)
		e.str("hookName", event+":"+c.g.pick([]string{"Bash", "Edit", "startup"}))
		e.str("command", c.g.pick([]string{"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh", "~/.claude/hooks/notify.sh", "bun run ./hooks/check.ts"}))
		e.close()
		e.str("parentToolUseID", toolUseID)
		e.str("toolUseID", toolUseID)
		c.tick(1, 40)
		c.finish(uuid, nil)
		parent = uuid
	}
	return parent
}

// prompt writes the user's prompt and makes it the chain's head.
func (c *claudeSession) prompt(uuid, text string) {
	g := c.g
	c.tick(5_000, 240_000)
	c.envelope(c.parent)
	e := &c.e
	e.str("type", "user")
	e.obj("message")
	e.str("role", "user")
	switch {
	case g.chance(0.1):
		e.arr("content")
		e.open()
		e.str("type", "text")
		e.str("text", "<system-reminder>\nThe user opened "+g.relPath()+" in the IDE. This may or may not be related to the current task.\n</system-reminder>")
		e.close()
		e.open()
		e.str("type", "text")
		e.str("text", text)
		e.close()
		e.closeArr()
	case g.chance(0.25):
		e.arr("content")
		e.open()
		e.str("type", "text")
		e.str("text", text)
		e.close()
		e.closeArr()
	default:
		e.str("content", text)
	}
	e.close()
	c.finish(uuid, func(e *enc) {
		if c.agentID == "" && g.chance(0.5) {
			e.obj("thinkingMetadata")
			e.num("maxThinkingTokens", 31999)
			e.close()
			e.arr("todos")
			e.closeArr()
			e.str("permissionMode", g.pick([]string{"default", "acceptEdits", "bypassPermissions"}))
		}
	})
	c.parent = uuid
}

// assistantLine writes one content block of an assistant message; Claude
// Code 2.1 writes each block of a reply as its own line sharing the
// message id.
func (c *claudeSession) assistantLine(parent, msgID, reqID, stop string, block func(e *enc)) string {
	g := c.g
	uuid := g.uuid4()
	c.envelope(parent)
	e := &c.e
	e.obj("message")
	e.str("model", c.model)
	e.str("id", msgID)
	e.str("type", "message")
	e.str("role", "assistant")
	e.arr("content")
	e.open()
	block(e)
	e.close()
	e.closeArr()
	if stop == "" {
		e.null("stop_reason")
	} else {
		e.str("stop_reason", stop)
	}
	e.null("stop_sequence")
	e.obj("usage")
	e.num("input_tokens", int64(g.between(1, 12)))
	cacheNew := int64(g.between(0, 20000))
	e.num("cache_creation_input_tokens", cacheNew)
	e.num("cache_read_input_tokens", int64(g.between(10000, 180000)))
	e.obj("cache_creation")
	e.num("ephemeral_5m_input_tokens", 0)
	e.num("ephemeral_1h_input_tokens", cacheNew)
	e.close()
	e.num("output_tokens", int64(g.between(1, 3000)))
	e.str("service_tier", "standard")
	e.str("inference_geo", "not_available")
	e.close()
	e.close()
	e.str("requestId", reqID)
	e.str("type", "assistant")
	c.tick(300, 9_000)
	c.finish(uuid, nil)
	return uuid
}

// textBlock and thinkingBlock write assistant content blocks.
func textBlock(text string) func(e *enc) {
	return func(e *enc) {
		e.str("type", "text")
		e.str("text", text)
	}
}

func (c *claudeSession) thinkingBlock() func(e *enc) {
	text, sig := c.g.thinking(), c.g.chars(base64Set, c.g.between(200, 600))
	return func(e *enc) {
		e.str("type", "thinking")
		e.str("thinking", text)
		e.str("signature", sig)
	}
}

// turn writes one prompt and everything up to the answer, using about
// budget bytes. It returns the number of subagent files written.
func (c *claudeSession) turn(budget int64) {
	g := c.g
	start := c.out.st.bytes
	promptID := g.uuid4()
	c.snapshot(promptID)
	text := g.prompt()
	zh := isChinese(text)
	c.prompt(promptID, text)

	// The answer costs about 1.5 KB; tool rounds fill the rest.
	for {
		left := budget - (c.out.st.bytes - start) - 1500
		if left <= 0 || (c.out.st.bytes > start+2000 && left < 600) {
			break
		}
		c.round(left)
	}
	msgID, reqID := "msg_01"+g.chars(alnum, 22), "req_011C"+g.chars(alnum, 20)
	parent := c.parent
	if g.chance(0.3) {
		parent = c.assistantLine(parent, msgID, reqID, "", c.thinkingBlock())
	}
	stop := ""
	if g.chance(0.5) {
		stop = "end_turn"
	}
	c.parent = c.assistantLine(parent, msgID, reqID, stop, textBlock(g.answer(zh)))
}

// round writes one assistant message with tool calls and their results.
func (c *claudeSession) round(left int64) {
	g := c.g
	msgID, reqID := "msg_01"+g.chars(alnum, 22), "req_011C"+g.chars(alnum, 20)
	parent := c.parent
	if g.chance(0.3) {
		parent = c.assistantLine(parent, msgID, reqID, "", c.thinkingBlock())
	}
	if g.chance(0.5) {
		parent = c.assistantLine(parent, msgID, reqID, "", textBlock(g.remark()))
	}
	n := 1
	if g.chance(0.2) {
		n = g.between(2, 3)
	}
	calls := make([]claudeCall, n)
	for i := range calls {
		calls[i] = c.tool(left / int64(n))
	}
	uses := make([]string, n)
	for i, call := range calls {
		uses[i] = c.assistantLine(parent, msgID, reqID, "", call.useBlock())
		parent = uses[i]
	}
	if g.chance(0.03) {
		c.queueOp(g.fill("also check {f} while you are there"))
	}
	for i, call := range calls {
		from := uses[i]
		if i == n-1 && g.chance(0.3) {
			c.progress(from, call.id, "PreToolUse", g.between(1, 3))
		}
		c.tick(50, 20_000)
		parent = c.toolResult(from, call)
	}
	c.parent = parent
}

// toolResult writes the user line that carries a tool's result.
func (c *claudeSession) toolResult(parent string, call claudeCall) string {
	uuid := c.g.uuid4()
	c.envelope(parent)
	e := &c.e
	e.str("type", "user")
	e.obj("message")
	e.str("role", "user")
	e.arr("content")
	e.open()
	e.str("tool_use_id", call.id)
	e.str("type", "tool_result")
	if call.blocks {
		e.arr("content")
		e.open()
		e.str("type", "text")
		e.str("text", call.result)
		e.close()
		e.closeArr()
	} else {
		e.str("content", call.result)
	}
	e.boolean("is_error", call.isErr)
	e.close()
	e.closeArr()
	e.close()
	c.finish(uuid, func(e *enc) {
		if call.useResult != nil {
			call.useResult(e)
		}
		e.str("sourceToolAssistantUUID", parent)
	})
	c.out.st.secrets += call.secrets
	return uuid
}

// sessionStart writes the hook lines a session begins with.
func (c *claudeSession) sessionStart() {
	id := c.g.uuid4()
	c.parent = c.progress("", id, "SessionStart", c.g.between(1, 2))
}

// subagentPath is where Claude Code 2.1 keeps a subagent's transcript.
func (c *claudeSession) subagentPath(agentID string) string {
	return filepath.Join(c.dir, c.sid, "subagents", "agent-"+agentID+".jsonl")
}

func isChinese(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

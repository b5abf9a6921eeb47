package corpus

import (
	"strings"
	"time"
)

// codexSession writes one Codex rollout.
type codexSession struct {
	g   *gen
	out *sink
	e   enc
	arg enc // builds function-call arguments, which are JSON inside a string

	id, cwd, branch, version, model, project string
	now                                      time.Time
	turnID                                   string
	tokens                                   int64
	plant                                    int // as in claudeSession
}

func (x *codexSession) tick(lo, hi int) {
	x.now = x.now.Add(time.Duration(x.g.between(lo, hi)) * time.Millisecond)
}

// record opens a {"timestamp","type","payload"} line; the caller writes
// the payload's fields and calls done.
func (x *codexSession) record(typ string) *enc {
	e := &x.e
	e.reset()
	e.open()
	e.str("timestamp", stamp(x.now))
	e.str("type", typ)
	e.obj("payload")
	return e
}

func (x *codexSession) done() {
	x.e.close()
	x.e.close()
	x.out.line(x.e.b)
}

func (x *codexSession) event(typ string) *enc {
	e := x.record("event_msg")
	e.str("type", typ)
	return e
}

func (x *codexSession) item(typ string) *enc {
	e := x.record("response_item")
	e.str("type", typ)
	return e
}

// meta writes session_meta, with the long base instructions real rollouts
// carry.
func (x *codexSession) meta() {
	g := x.g
	e := x.record("session_meta")
	e.str("id", x.id)
	e.str("timestamp", stamp(x.now))
	e.str("cwd", x.cwd)
	e.str("originator", g.pick([]string{"codex_cli_rs", "codex-tui", "Codex Desktop"}))
	e.str("cli_version", x.version)
	e.str("source", g.pick([]string{"cli", "vscode", "exec"}))
	e.str("model_provider", "openai")
	e.obj("base_instructions")
	var b strings.Builder
	b.WriteString("You are a coding agent working in the user's repository. Be direct and careful.\n\n# Working rules\n\n")
	for range g.between(30, 60) {
		b.WriteString("- ")
		b.WriteString(g.fill("Prefer to {i} code only when asked; keep changes small {r}."))
		b.WriteByte('\n')
	}
	e.str("text", b.String())
	e.close()
	e.obj("git")
	e.str("commit_hash", g.commitHash(40))
	e.str("branch", x.branch)
	e.str("repository_url", "git@github.com:acme/"+x.project+".git")
	e.close()
	x.done()
}

// context writes the developer and user messages Codex injects at the
// start of a conversation: permissions, AGENTS.md and the environment.
func (x *codexSession) context() {
	g := x.g
	e := x.item("message")
	e.str("role", "developer")
	e.arr("content")
	e.open()
	e.str("type", "input_text")
	e.str("text", "<permissions instructions>\nFilesystem sandboxing decides what may be written. The sandbox is workspace-write: reading is allowed everywhere, writing only inside the workspace. Network access is restricted.\n</permissions instructions>")
	e.close()
	e.closeArr()
	x.done()

	e = x.item("message")
	e.str("role", "user")
	e.arr("content")
	e.open()
	e.str("type", "input_text")
	var b strings.Builder
	b.WriteString("# AGENTS.md instructions for " + x.cwd + "\n\n<INSTRUCTIONS>\n")
	for range g.between(8, 30) {
		b.WriteString("- ")
		b.WriteString(g.sentence())
		b.WriteByte('\n')
	}
	b.WriteString("</INSTRUCTIONS>")
	e.str("text", b.String())
	e.close()
	e.open()
	e.str("type", "input_text")
	e.str("text", "<environment_context>\n  <cwd>"+x.cwd+"</cwd>\n  <shell>zsh</shell>\n  <current_date>"+x.now.Format("2006-01-02")+"</current_date>\n</environment_context>")
	e.close()
	e.closeArr()
	x.done()
}

func (x *codexSession) turnContext() {
	e := x.record("turn_context")
	e.str("turn_id", x.turnID)
	e.str("cwd", x.cwd)
	e.str("current_date", x.now.Format("2006-01-02"))
	e.str("timezone", "Europe/Berlin")
	e.str("approval_policy", "on-request")
	e.obj("sandbox_policy")
	e.str("type", "workspace-write")
	e.arr("writable_roots")
	e.closeArr()
	e.boolean("network_access", false)
	e.boolean("exclude_tmpdir_env_var", false)
	e.boolean("exclude_slash_tmp", false)
	e.close()
	e.str("model", x.model)
	e.str("effort", x.g.pick([]string{"medium", "high", "xhigh"}))
	e.str("summary", "auto")
	x.done()
}

// tokenCount writes the usage event Codex logs after each model call.
func (x *codexSession) tokenCount() {
	g := x.g
	in, out := int64(g.between(2_000, 40_000)), int64(g.between(20, 2_000))
	x.tokens += in + out
	e := x.event("token_count")
	e.obj("info")
	e.obj("total_token_usage")
	e.num("input_tokens", x.tokens)
	e.num("cached_input_tokens", x.tokens*3/4)
	e.num("output_tokens", x.tokens/20)
	e.num("reasoning_output_tokens", x.tokens/40)
	e.num("total_tokens", x.tokens+x.tokens/20)
	e.close()
	e.obj("last_token_usage")
	e.num("input_tokens", in)
	e.num("cached_input_tokens", in/2)
	e.num("output_tokens", out)
	e.num("reasoning_output_tokens", out/2)
	e.num("total_tokens", in+out)
	e.close()
	e.num("model_context_window", 258400)
	e.close()
	e.null("rate_limits")
	x.done()
}

func (x *codexSession) reasoning() {
	g := x.g
	e := x.item("reasoning")
	e.arr("summary")
	e.closeArr()
	e.null("content")
	e.str("encrypted_content", "gAAAAAB"+g.chars(urlB64Set, g.between(600, 3000)))
	x.done()
}

// assistant writes an assistant message as both the event and the
// response item, as Codex does.
func (x *codexSession) assistant(text, phase string) {
	e := x.event("agent_message")
	e.str("message", text)
	e.str("phase", phase)
	x.done()
	e = x.item("message")
	e.str("role", "assistant")
	e.arr("content")
	e.open()
	e.str("type", "output_text")
	e.str("text", text)
	e.close()
	e.closeArr()
	e.str("phase", phase)
	x.done()
}

// turn writes one task from task_started to task_complete in about budget
// bytes.
func (x *codexSession) turn(budget int64, first bool) {
	g := x.g
	start := x.out.st.bytes
	x.tick(5_000, 300_000)
	x.turnID = g.uuid7(x.now)
	e := x.event("task_started")
	e.str("turn_id", x.turnID)
	e.num("started_at", x.now.Unix())
	e.num("model_context_window", 258400)
	e.str("collaboration_mode_kind", "default")
	x.done()
	if first {
		x.context()
	}
	x.turnContext()

	text := g.prompt()
	zh := isChinese(text)
	if g.chance(0.1) {
		p := g.relPath()
		text = "# Files mentioned by the user:\n\n## " + p[strings.LastIndexByte(p, '/')+1:] + ": " + x.cwd + "/" + p + "\n\n## My request for Codex:\n" + text + "\n"
	}
	e = x.event("user_message")
	e.str("message", text)
	e.arr("images")
	e.closeArr()
	e.arr("local_images")
	e.closeArr()
	e.arr("text_elements")
	e.closeArr()
	x.done()

	for {
		left := budget - (x.out.st.bytes - start) - 1500
		if left <= 0 || (x.out.st.bytes > start+2000 && left < 600) {
			break
		}
		x.round(left)
	}
	x.tick(500, 20_000)
	x.reasoning()
	answer := g.answer(zh)
	x.assistant(answer, "final_answer")
	x.tokenCount()
	e = x.event("task_complete")
	e.str("turn_id", x.turnID)
	e.str("last_agent_message", answer)
	x.done()
}

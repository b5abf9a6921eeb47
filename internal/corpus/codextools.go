package corpus

import (
	"strings"
)

// codexCall is one tool call and its output.
type codexCall struct {
	id      string
	write   func() // writes the call item
	output  string // the output item's text
	custom  bool   // a custom tool: custom_tool_call_output
	end     func() // writes the *_end event, or nil
	secrets int
}

// round writes one model step: reasoning, maybe a progress note, then
// tool calls and their outputs.
func (x *codexSession) round(left int64) {
	g := x.g
	x.tick(500, 15_000)
	x.reasoning()
	if g.chance(0.35) {
		x.assistant(g.remark(), "commentary")
	}
	n := 1
	if g.chance(0.25) {
		n = g.between(2, 4)
	}
	calls := make([]codexCall, n)
	for i := range calls {
		calls[i] = x.tool(left / int64(n))
		calls[i].write()
	}
	x.tokenCount()
	for _, k := range calls {
		x.tick(40, 30_000)
		typ := "function_call_output"
		if k.custom {
			typ = "custom_tool_call_output"
		}
		e := x.item(typ)
		e.str("call_id", k.id)
		e.str("output", k.output)
		x.done()
		if k.end != nil {
			k.end()
		}
		x.out.st.secrets += k.secrets
	}
}

// tool draws a call with output of about left bytes at most.
func (x *codexSession) tool(left int64) codexCall {
	g := x.g
	id := "call_" + g.chars(alnum, 24)
	switch x.plant {
	case 2:
		x.plant--
		return x.exec(id, g.allSecrets())
	case 1:
		x.plant--
		return x.exec(id, x.bigRead(g.between(70_000, 200_000)))
	}
	if left > 300_000 && g.chance(bigReadRate) {
		return x.exec(id, x.bigRead(int(g.logBetween(70_000, 260_000))))
	}
	size := g.outputSize(left)
	switch r := g.r.IntN(100); {
	case r < 70:
		if g.chance(secretRate) {
			return x.exec(id, g.secretRun(x.project))
		}
		return x.exec(id, g.run(x.project, size))
	case r < 85:
		return x.patch(id)
	case r < 92:
		return x.plan(id)
	}
	return x.mcp(id, size)
}

// bigRead is a whole large file printed at once.
func (x *codexSession) bigRead(size int) shellRun {
	p := x.g.relPath()
	return shellRun{cmd: "cat " + p, desc: "read", out: strings.Join(x.g.codeOfSize(p, size), "\n") + "\n", read: true, path: p}
}

// exec is an exec_command call; Codex reports its output twice: in the
// output item (with a header) and in exec_command_end.
func (x *codexSession) exec(id string, r shellRun) codexCall {
	g := x.g
	a := &x.arg
	a.reset()
	a.open()
	a.str("cmd", r.cmd)
	a.str("workdir", x.cwd)
	a.num("yield_time_ms", 1000)
	a.num("max_output_tokens", int64(4000*g.between(1, 6)))
	a.close()
	args := string(a.b)
	k := codexCall{id: id, secrets: r.secrets}
	k.write = func() {
		e := x.item("function_call")
		e.str("name", "exec_command")
		e.str("arguments", args)
		e.str("call_id", id)
		x.done()
	}
	wall := itoa(g.between(0, 9)) + "." + itoa(g.between(1000, 9999))
	k.output = "Chunk ID: " + g.chars(lowerHex, 6) + "\nWall time: " + wall + " seconds\nProcess exited with code " + itoa(r.exit) +
		"\nOriginal token count: " + itoa(len(r.out)/4) + "\nOutput:\n" + r.out
	k.end = func() {
		e := x.event("exec_command_end")
		e.str("call_id", id)
		e.str("process_id", itoa(g.between(1000, 99999)))
		e.str("turn_id", x.turnID)
		e.arr("command")
		e.strElem("/bin/zsh")
		e.strElem("-lc")
		e.strElem(r.cmd)
		e.closeArr()
		e.str("cwd", x.cwd)
		e.arr("parsed_cmd")
		e.open()
		if r.read {
			e.str("type", "read")
			e.str("cmd", r.cmd)
			e.str("name", r.path[strings.LastIndexByte(r.path, '/')+1:])
			e.str("path", r.path)
		} else {
			e.str("type", "unknown")
			e.str("cmd", r.cmd)
		}
		e.close()
		e.closeArr()
		e.str("source", "unified_exec_startup")
		e.str("stdout", "")
		e.str("stderr", "")
		e.str("aggregated_output", r.out)
		e.num("exit_code", int64(r.exit))
		e.obj("duration")
		e.num("secs", int64(g.between(0, 9)))
		e.num("nanos", int64(g.between(0, 999_999_999)))
		e.close()
		e.str("status", "completed")
		x.done()
	}
	return k
}

// patch is an apply_patch call, a custom tool whose input is the patch.
func (x *codexSession) patch(id string) codexCall {
	g := x.g
	var paths []string
	for range g.between(1, 3) {
		paths = append(paths, g.relPath())
	}
	body := g.applyPatch(paths)
	var summary strings.Builder
	summary.WriteString("Success. Updated the following files:\n")
	for _, p := range paths {
		summary.WriteString("M " + p + "\n")
	}
	k := codexCall{id: id, custom: true}
	k.write = func() {
		e := x.item("custom_tool_call")
		e.str("status", "completed")
		e.str("call_id", id)
		e.str("name", "apply_patch")
		e.str("input", body)
		x.done()
	}
	a := &x.arg
	a.reset()
	a.open()
	a.str("output", summary.String())
	a.obj("metadata")
	a.num("exit_code", 0)
	a.float("duration_seconds", float64(g.between(1, 40))/10)
	a.close()
	a.close()
	k.output = string(a.b)
	k.end = func() {
		e := x.event("patch_apply_end")
		e.str("call_id", id)
		e.str("turn_id", x.turnID)
		e.str("stdout", summary.String())
		e.str("stderr", "")
		e.boolean("success", true)
		x.done()
	}
	return k
}

// plan is an update_plan call.
func (x *codexSession) plan(id string) codexCall {
	g := x.g
	a := &x.arg
	a.reset()
	a.open()
	a.str("explanation", g.sentence())
	a.arr("plan")
	for i := range g.between(2, 6) {
		a.open()
		a.str("step", g.fill("{i} the {c}"))
		status := "pending"
		if i == 0 {
			status = "in_progress"
		}
		a.str("status", status)
		a.close()
	}
	a.closeArr()
	a.close()
	args := string(a.b)
	k := codexCall{id: id, output: "Plan updated"}
	k.write = func() {
		e := x.item("function_call")
		e.str("name", "update_plan")
		e.str("arguments", args)
		e.str("call_id", id)
		x.done()
	}
	return k
}

// mcp is a call to an MCP server's tool.
func (x *codexSession) mcp(id string, size int) codexCall {
	g := x.g
	ticket := g.ticket()
	args := `{"id":"` + ticket + `"}`
	k := codexCall{id: id, output: g.issueJSON(ticket, size)}
	k.write = func() {
		e := x.item("function_call")
		e.str("name", "get_issue")
		e.str("namespace", "mcp__linear__")
		e.str("arguments", args)
		e.str("call_id", id)
		x.done()
	}
	return k
}

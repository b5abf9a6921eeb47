package claudecode

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// turnBuilder cuts the active lines of one session into turns.
type turnBuilder struct {
	sessionID string            // the session's own id, to spot copied lines
	toolNames map[string]string // tool_use id → tool name
	turns     []*turnState
	cur       *turnState // the turn content goes to
	pending   *turnState // a slash command not yet answered
	early     memory.Provenance
	// foreign is set by a line copied from another session; the next own
	// prompt then had that chat as context.
	foreign bool
}

// turnState is a turn under construction.
type turnState struct {
	turn        memory.Turn
	replies     map[string]*reply // by message.id: 2.1 writes one line per block
	seenCalls   map[string]bool
	last        *reply
	interrupted bool // an interruption after the last reply
	failed      bool // an API error after the last reply
}

// reply is one assistant message, merged over its lines.
type reply struct {
	texts   []string
	toolUse bool
	stop    string
	model   string
}

func newTurnBuilder(sessionID string) *turnBuilder {
	return &turnBuilder{sessionID: sessionID, toolNames: map[string]string{}}
}

func newTurn(e *entry, request string) *turnState {
	return &turnState{
		turn: memory.Turn{
			Key:       e.key,
			Request:   request,
			StartedAt: e.at,
			EndedAt:   e.at,
		},
		replies:   map[string]*reply{},
		seenCalls: map[string]bool{},
	}
}

// target is the turn that signals (interruptions, errors, flags) belong to.
func (b *turnBuilder) target() *turnState {
	if b.pending != nil {
		return b.pending
	}
	return b.cur
}

func (b *turnBuilder) flag(f memory.Provenance) {
	if f == 0 {
		return
	}
	if t := b.target(); t != nil {
		t.turn.Flags |= f
		return
	}
	b.early |= f
}

// open makes t the current turn.
func (b *turnBuilder) open(t *turnState) {
	t.turn.Flags |= b.early
	b.early = 0
	b.turns = append(b.turns, t)
	b.cur = t
	b.pending = nil
}

// ensure returns the current turn, opening one with no request when
// content arrives before any prompt (a file that begins mid-conversation).
func (b *turnBuilder) ensure(e *entry) *turnState {
	if b.cur == nil {
		p := b.pending
		b.open(newTurn(e, ""))
		b.pending = p
	}
	return b.cur
}

// answer returns the turn an assistant line belongs to: a pending slash
// command becomes a turn once the model answers it.
func (b *turnBuilder) answer(e *entry) *turnState {
	if b.pending != nil {
		b.open(b.pending)
	}
	return b.ensure(e)
}

func (b *turnBuilder) add(e *entry) {
	foreign := e.rec.SessionID != "" && b.sessionID != "" && e.rec.SessionID != b.sessionID
	if foreign {
		b.foreign = true
	}
	switch e.rec.Type {
	case "user":
		b.user(e, foreign)
	case "assistant":
		b.assistant(e)
	case "system":
		if e.rec.Subtype == "api_error" {
			if t := b.target(); t != nil {
				t.failed = true
			}
		}
	case "attachment":
		b.attachment(e)
	}
	if foreign {
		b.flag(memory.FromReferencedChats)
	}
	if t := b.target(); t != nil && t.turn.EndedAt.Before(e.at) {
		t.turn.EndedAt = e.at
	}
}

func (b *turnBuilder) user(e *entry, foreign bool) {
	u := e.user
	if u.marked {
		defer b.flag(memory.FromRecalledMemory)
	}
	switch u.kind {
	case userMeta:
		if u.readReplay {
			b.flag(memory.FromFiles)
		}
	case userSummary:
		if u.text != "" {
			t := b.ensure(e)
			t.part(e, memory.RoleSystem, memory.KindSummary, u.text, "", false)
		}
	case userCarrier:
		b.toolResults(e)
	case userPrompt, userCommand:
		if u.interrupted {
			// The note ends the previous turn; the words start this one.
			if t := b.target(); t != nil {
				t.interrupted = true
			}
		}
		request := u.text
		if u.kind == userCommand {
			request = u.command
		} else if request == "" {
			request = imagePlaceholder
		}
		t := newTurn(e, request)
		if u.text != "" || u.kind == userCommand {
			t.part(e, memory.RoleUser, memory.KindText, request, "", false)
		}
		for i := 0; i < u.images; i++ {
			t.part(e, memory.RoleUser, memory.KindText, imagePlaceholder, "", false)
		}
		if u.images > 0 {
			t.turn.Flags |= memory.FromImages
		}
		if mentionsFile(u.text) {
			t.turn.Flags |= memory.FromFiles
		}
		if b.foreign && !foreign {
			// The first own prompt after lines copied from another chat.
			t.turn.Flags |= memory.FromReferencedChats
			b.foreign = false
		}
		if u.kind == userCommand {
			b.pending = t
			return
		}
		b.open(t)
	case userNoise:
		if u.interrupted {
			if t := b.target(); t != nil {
				t.interrupted = true
			}
		}
	}
}

// toolResults adds the tool results (and any stray text) of a carrier line.
func (b *turnBuilder) toolResults(e *entry) {
	t := b.ensure(e)
	tur := e.rec.ToolUseResult
	if tur.File {
		t.turn.Flags |= memory.FromFiles
	}
	if tur.Interrupted {
		t.interrupted = true
	}
	for _, bl := range e.blocks {
		switch bl.Type {
		case "tool_result":
			text, images, intr := resultText(bl.Content)
			if intr {
				t.interrupted = true
			}
			if images > 0 {
				t.turn.Flags |= memory.FromImages
			}
			name := b.toolNames[bl.ToolUseID]
			isErr := bl.IsError || tur.Rejected || tur.Interrupted || intr
			t.part(e, memory.RoleTool, memory.KindToolResult, text, name, isErr)
		case "text":
			text, _, intr := cleanHuman(bl.Text)
			if intr {
				t.interrupted = true
			}
			if text != "" {
				t.part(e, memory.RoleUser, memory.KindText, text, "", false)
			}
		case "image":
			t.turn.Flags |= memory.FromImages
			t.part(e, memory.RoleUser, memory.KindText, imagePlaceholder, "", false)
		}
	}
}

func (b *turnBuilder) assistant(e *entry) {
	rec := e.rec
	if rec.IsAPIError {
		if t := b.target(); t != nil {
			t.failed = true
		}
		return
	}
	if rec.Message.Model == "<synthetic>" {
		// Written by Claude Code itself ("No response requested."), not
		// an answer from the model.
		return
	}
	if !e.isText && e.blocks == nil {
		return // no content at all (counted as missing); [] is an empty answer
	}
	t := b.answer(e)
	id := rec.Message.ID
	if id == "" {
		id = e.key
	}
	r := t.replies[id]
	if r == nil {
		r = &reply{}
		t.replies[id] = r
	}
	t.last, t.interrupted, t.failed = r, false, false
	if rec.Message.Model != "" {
		r.model = rec.Message.Model
	}
	if rec.Message.StopReason != "" {
		r.stop = rec.Message.StopReason
	}
	if e.isText {
		if s := cleanTool(e.text); s != "" {
			r.texts = append(r.texts, s)
			t.part(e, memory.RoleAssistant, memory.KindText, s, "", false)
		}
	}
	for _, bl := range e.blocks {
		b.assistantBlock(e, t, r, bl)
	}
}

func (b *turnBuilder) assistantBlock(e *entry, t *turnState, r *reply, bl block) {
	switch bl.Type {
	case "text":
		if s := cleanTool(bl.Text); s != "" {
			r.texts = append(r.texts, s)
			t.part(e, memory.RoleAssistant, memory.KindText, s, "", false)
		}
	case "tool_use":
		if bl.ID != "" {
			if t.seenCalls[bl.ID] {
				return // the same block written twice
			}
			t.seenCalls[bl.ID] = true
			b.toolNames[bl.ID] = bl.Name
		}
		r.toolUse = true
		t.turn.Flags |= toolFlags(bl.Name)
		t.part(e, memory.RoleAssistant, memory.KindToolCall, cleanTool(renderInput(bl.Input)), bl.Name, false)
	case "server_tool_use", "mcp_tool_use":
		if bl.ID != "" {
			b.toolNames[bl.ID] = bl.Name
		}
		t.turn.Flags |= serverToolFlags(bl.Type, bl.Name)
		t.part(e, memory.RoleAssistant, memory.KindToolCall, cleanTool(renderInput(bl.Input)), bl.Name, false)
	case "image":
		t.turn.Flags |= memory.FromImages
		t.part(e, memory.RoleAssistant, memory.KindText, imagePlaceholder, "", false)
	case "thinking", "redacted_thinking":
		// Not stored.
	default:
		if strings.HasSuffix(bl.Type, "_tool_result") {
			name := b.toolNames[bl.ToolUseID]
			t.turn.Flags |= serverToolFlags(bl.Type, name)
			t.part(e, memory.RoleTool, memory.KindToolResult, serverResultText(bl.Content), name, false)
		}
	}
}

func (b *turnBuilder) attachment(e *entry) {
	a := e.rec.Attachment
	if a.Marked && strings.HasPrefix(a.Type, "hook") {
		b.flag(memory.FromRecalledMemory)
	}
	b.flag(attachmentFlags(a.Type))
}

// part appends a part to the turn.
func (t *turnState) part(e *entry, role memory.Role, kind memory.PartKind, text, tool string, isErr bool) {
	t.turn.Parts = append(t.turn.Parts, memory.Part{
		Role:    role,
		Kind:    kind,
		Text:    text,
		Tool:    tool,
		IsError: isErr,
		Time:    e.at,
	})
}

// finish settles status and outcome and numbers turns and parts.
func (b *turnBuilder) finish() []memory.Turn {
	out := make([]memory.Turn, 0, len(b.turns))
	for _, t := range b.turns {
		turn := t.turn
		turn.Status = t.status()
		for i := range turn.Parts {
			turn.Parts[i].Seq = i
		}
		if t.last != nil {
			turn.Outcome = strings.Join(t.last.texts, "\n\n")
			turn.Model = t.last.model
		}
		out = append(out, turn)
	}
	return out
}

// status applies the rules in the package doc.
func (t *turnState) status() memory.TurnStatus {
	r := t.last
	switch {
	case r == nil && t.failed:
		return memory.TurnFailed
	case r == nil, t.interrupted:
		return memory.TurnCutShort
	case t.failed:
		return memory.TurnFailed
	case r.stop == "refusal":
		return memory.TurnRefused
	case r.stop == "max_tokens", r.toolUse:
		return memory.TurnCutShort
	case len(r.texts) > 0, r.stop == "end_turn", r.stop == "stop_sequence":
		return memory.TurnCompleted
	}
	return memory.TurnCutShort
}

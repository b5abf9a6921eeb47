package codex

import (
	"bytes"
	"fmt"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// turnBuilder collects one turn while its records stream past.
type turnBuilder struct {
	id      string // Codex's turn_id; "" in rollouts that have none
	pos     int    // position among all turns opened in the file
	started bool   // task_started seen
	closed  bool   // task_complete or turn_aborted seen

	completed   bool
	aborted     bool
	rolledBack  bool
	errored     bool // an error or stream_error event
	abortReason string

	requests    []string
	userTS      string // raw timestamp of the first user_message
	userOrdinal int    // its position among the file's user messages
	firstTS     time.Time
	lastTS      time.Time
	model       string
	flags       memory.Provenance

	entries []entry
	calls   map[string]*call

	final        string // last final_answer message
	hasFinal     bool
	finalRefusal bool
	last         string // last assistant message of any phase
	hasLast      bool
	lastRefusal  bool
	taskMessage  string // task_complete.last_agent_message
	evFinal      string // agent_message events, for rollouts without response_item messages
	evLast       string
	hasAssistant bool // a response_item assistant message was seen

	afterAncestor bool // opened after an ancestor's session_meta
	ordinal       int64
	hasOrdinal    bool
}

// entry is one part in record order. Tool results are not entries of their
// own: they hang off their call and are placed right after it.
type entry struct {
	part     memory.Part
	callID   string
	fallback bool // an agent_message event, used only when no response_item message exists
}

// call is one tool call and what became of it.
type call struct {
	seen     bool // the call itself was recorded in this turn
	name     string
	output   *memory.Part // function_call_output and friends
	eventOut *memory.Part // a result rebuilt from an *_end event, used when output is missing
	// eventRaw is eventOut's text still as a JSON string, decoded only if
	// it is used.
	eventRaw []byte
	isError  bool
}

// setEventOut records the result an *_end event reports; raw, when not
// nil, is its text as a JSON string, copied here to be decoded if needed.
func (c *call) setEventOut(p memory.Part, raw []byte) {
	c.eventOut = &p
	c.eventRaw = nil
	if raw != nil && c.output == nil {
		c.eventRaw = bytes.Clone(raw)
	}
}

func newTurn(id string) *turnBuilder {
	return &turnBuilder{id: id, calls: map[string]*call{}}
}

// touch widens the turn's time span.
func (t *turnBuilder) touch(ts time.Time) {
	if ts.IsZero() {
		return
	}
	if t.firstTS.IsZero() || ts.Before(t.firstTS) {
		t.firstTS = ts
	}
	if ts.After(t.lastTS) {
		t.lastTS = ts
	}
}

func (t *turnBuilder) add(p memory.Part) {
	t.entries = append(t.entries, entry{part: p})
}

// addCall records a tool call part.
func (t *turnBuilder) addCall(callID, name, text string, ts time.Time) {
	t.entries = append(t.entries, entry{
		part:   memory.Part{Role: memory.RoleTool, Kind: memory.KindToolCall, Tool: name, Text: text, Time: ts},
		callID: callID,
	})
	if callID != "" {
		c := t.callFor(callID)
		c.name, c.seen = name, true
	}
	t.flags |= toolFlags(name)
}

// addOutput pairs a tool result with its call, or keeps it in place when the
// call is unknown.
func (t *turnBuilder) addOutput(callID string, out toolOutput, ts time.Time) {
	p := memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Text: out.text, IsError: out.isError, Time: ts}
	if out.image {
		t.flags |= memory.FromImages
	}
	if c, ok := t.calls[callID]; ok && c.seen {
		c.output = &p
		c.eventRaw = nil
		if out.isError {
			c.isError = true
		}
		return
	}
	t.add(p)
}

// callFor returns the call with callID, creating a placeholder so that an
// event that arrives before its call still marks it.
func (t *turnBuilder) callFor(callID string) *call {
	c, ok := t.calls[callID]
	if !ok {
		c = &call{}
		t.calls[callID] = c
	}
	return c
}

// addAssistant records an assistant message.
func (t *turnBuilder) addAssistant(text, phase string, refusal bool, ts time.Time) {
	t.hasAssistant = true
	t.add(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindText, Text: text, Time: ts})
	t.last, t.hasLast, t.lastRefusal = text, true, refusal
	if phase == "final_answer" {
		t.final, t.hasFinal, t.finalRefusal = text, true, refusal
	}
}

// key is the turn's stable id: Codex's turn_id, or one derived from the
// first user message (or the turn's first record) in rollouts without ids.
// Rollouts only grow, so positions counted from the start stay put.
func (t *turnBuilder) key() string {
	switch {
	case t.id != "":
		return t.id
	case t.userTS != "":
		return fmt.Sprintf("%s#%d", t.userTS, t.userOrdinal)
	case !t.firstTS.IsZero():
		return fmt.Sprintf("%s#t%d", t.firstTS.Format(time.RFC3339Nano), t.pos+1)
	}
	return fmt.Sprintf("turn#%d", t.pos+1)
}

// outcome picks the answer: the final_answer message, else what
// task_complete reported, else the last assistant message.
func (t *turnBuilder) outcome() (text string, refusal bool) {
	switch {
	case t.hasFinal:
		return t.final, t.finalRefusal
	case t.taskMessage != "":
		return t.taskMessage, false
	case t.hasLast:
		return t.last, t.lastRefusal
	case t.evFinal != "":
		return t.evFinal, false
	}
	return t.evLast, false
}

// status applies the rules in the package doc.
func (t *turnBuilder) status(answer string, refusal, isLast bool) memory.TurnStatus {
	switch {
	case t.rolledBack, t.aborted:
		return memory.TurnCutShort
	case refusal:
		return memory.TurnRefused
	case t.errored && answer == "":
		return memory.TurnFailed
	case t.completed:
		return memory.TurnCompleted
	case t.started:
		return memory.TurnCutShort
	case t.hasFinal, t.evFinal != "", (t.hasLast || t.evLast != "") && !isLast:
		return memory.TurnCompleted
	}
	return memory.TurnCutShort
}

// hasWork reports whether the turn holds anything worth keeping: the user's
// words or something the agent did. A turn of only bookkeeping (a manual
// compaction, say) is not a turn of the conversation.
func (t *turnBuilder) hasWork() bool {
	return len(t.requests) > 0 || t.acted()
}

// acted reports whether the agent has answered or used a tool in this turn.
// A turn id that shows up after that belongs to a new turn, not this one.
func (t *turnBuilder) acted() bool {
	for _, e := range t.entries {
		if e.part.Role == memory.RoleAssistant || e.part.Role == memory.RoleTool {
			return true
		}
	}
	return false
}

// build turns the collected records into a memory.Turn.
func (t *turnBuilder) build(index int, isLast bool, sessionModel string) memory.Turn {
	var parts []memory.Part
	emit := func(p memory.Part) {
		p.Seq = len(parts)
		parts = append(parts, p)
	}
	for _, e := range t.entries {
		if e.fallback {
			if !t.hasAssistant {
				emit(e.part)
			}
			continue
		}
		emit(e.part)
		if e.part.Kind != memory.KindToolCall || e.callID == "" {
			continue
		}
		c := t.calls[e.callID]
		res := c.output
		if res == nil {
			res = c.eventOut
		}
		if res != nil {
			r := *res
			if res == c.eventOut && c.eventRaw != nil {
				r.Text, _ = strip(jsonscan.Unquote(c.eventRaw))
			}
			r.Tool = c.name
			r.IsError = r.IsError || c.isError
			emit(r)
		}
	}
	answer, refusal := t.outcome()
	st := t.status(answer, refusal, isLast)
	model := t.model
	if model == "" {
		model = sessionModel
	}
	return memory.Turn{
		Seq:       index,
		Key:       t.key(),
		Request:   strings.Join(t.requests, "\n\n"),
		Outcome:   answer,
		Status:    st,
		Flags:     t.flags,
		Model:     model,
		StartedAt: t.firstTS,
		EndedAt:   t.lastTS,
		Parts:     parts,
	}
}

package codex

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// checkEvery is how many lines pass between context checks.
const checkEvery = 256

// Parse reads one plain (not compressed) rollout stream. It never fails on
// bad content: invalid, unknown or incomplete records are counted in
// Result.Stats and skipped. It returns an error only when reading fails or
// ctx ends. Result.Files is left empty, and so is ExternalID for a stream
// without session_meta; ParseFile fills both from the file.
func Parse(ctx context.Context, r io.Reader) (transcript.Result, error) {
	p := newParser()
	lr := transcript.NewLineReader(r)
	for {
		if p.stats.Lines%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return transcript.Result{}, fmt.Errorf("parse codex rollout: %w", err)
			}
		}
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return transcript.Result{}, fmt.Errorf("parse codex rollout: %w", err)
		}
		p.stats.Lines++
		p.line(line)
	}
	if n := lr.TooLong(); n > 0 {
		p.stats.Lines += n
		for range n {
			p.stats.Skip("line too long")
		}
	}
	p.stats.Consumed = lr.Consumed()
	p.stats.Pending = lr.Pending()
	return p.result(), nil
}

// parser holds the state of one rollout while its lines stream past.
type parser struct {
	stats  transcript.Stats
	sess   memory.Session
	fields fieldBuf // the fields of the line being read

	metaSeen bool
	born     time.Time // session_meta's own timestamp
	lineage  lineage
	ancestor bool // a session_meta of another thread was seen: copied history follows

	userMsgs int
	turns    []*turnBuilder
	cur      *turnBuilder
	// pending holds flags from context recorded before the first turn.
	pending memory.Provenance

	// current record
	ts      time.Time
	rawTS   string
	ordinal int64
	hasOrd  bool
}

func newParser() *parser {
	return &parser{sess: memory.Session{Provider: memory.ProviderCodex}}
}

// line handles one JSONL record.
func (p *parser) line(line []byte) {
	if len(line) == 0 || isBlank(line) {
		return
	}
	p.fields.reset()
	env, ok := decodeObject(line, &p.fields)
	if !ok {
		p.stats.Skip("invalid json")
		return
	}
	typ, ok := env.strOK("type")
	if !ok || typ == "" {
		p.stats.Skip("missing type")
		return
	}
	if !isKnownTopType(typ) {
		p.stats.Skip("unknown type: " + reasonName(typ))
		return
	}
	payload, ok := env.obj("payload")
	if !ok {
		if handledTopType(typ) {
			p.stats.Skip("missing payload: " + typ)
		}
		return
	}
	p.rawTS = env.str("timestamp")
	p.ts = parseTime(p.rawTS)
	p.ordinal, p.hasOrd = env.int("ordinal")
	if !p.ts.IsZero() {
		if p.sess.StartedAt.IsZero() || p.ts.Before(p.sess.StartedAt) {
			p.sess.StartedAt = p.ts
		}
		if p.ts.After(p.sess.EndedAt) {
			p.sess.EndedAt = p.ts
		}
	}
	switch typ {
	case "session_meta":
		p.sessionMeta(payload)
	case "turn_context":
		p.turnContext(payload)
	case "response_item":
		p.responseItem(payload)
	case "event_msg":
		p.event(payload)
	case "compacted":
		if msg := p.text(payload.str("message")); msg != "" && p.cur != nil {
			p.touch()
			p.cur.add(memory.Part{Role: memory.RoleSystem, Kind: memory.KindSummary, Text: msg, Time: p.ts})
		}
	case "inter_agent_communication":
		p.interAgent(payload)
	}
}

// handledTopType lists the record types whose payload is read.
func handledTopType(typ string) bool {
	switch typ {
	case "session_meta", "turn_context", "response_item", "event_msg", "compacted", "inter_agent_communication":
		return true
	}
	return false
}

// isKnownTopType lists every record type Codex is known to write, including
// those that carry nothing to import.
func isKnownTopType(typ string) bool {
	switch typ {
	case "session_meta", "turn_context", "response_item", "event_msg", "compacted",
		"inter_agent_communication", "inter_agent_communication_metadata",
		"world_state", "token_usage_record", "retained_context",
		"security_risk_score", "realtime_item":
		return true
	}
	return false
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// sessionMeta takes the first session_meta as this rollout's; a later one
// with another id belongs to an ancestor whose history was copied in.
func (p *parser) sessionMeta(m object) {
	id := m.str("id")
	if p.metaSeen {
		if id != "" && id != p.sess.ExternalID {
			p.ancestor = true
		}
		return
	}
	if id == "" {
		p.stats.Skip("session_meta without id")
		return
	}
	p.metaSeen = true
	p.sess.ExternalID = id
	p.sess.Cwd = m.str("cwd")
	p.sess.ClientVersion = m.str("cli_version")
	p.born = parseTime(m.str("timestamp"))
	if git, ok := m.obj("git"); ok {
		p.sess.Branch = git.str("branch")
	}
	p.lineage = readLineage(m)
	p.sess.ParentExternalID = p.lineage.parent
	p.sess.Subagent = p.lineage.subagent
}

// turnContext opens a turn when it names a new turn id and records the
// model.
func (p *parser) turnContext(m object) {
	id := m.str("turn_id")
	t := p.cur
	if id != "" && (t == nil || t.id != id) {
		if t != nil && t.id == "" && !t.closed && !t.acted() {
			t.id = id
		} else {
			t = p.open(id)
		}
	}
	model := m.str("model")
	if model != "" {
		p.sess.Model = model
		if t != nil {
			t.model = model
		}
	}
	if t != nil {
		p.touch()
	}
}

// open starts a new turn.
func (p *parser) open(id string) *turnBuilder {
	t := newTurn(id)
	t.pos = len(p.turns)
	t.model = p.sess.Model // the latest turn_context, until this turn's own arrives
	t.afterAncestor = p.ancestor
	t.ordinal, t.hasOrdinal = p.ordinal, p.hasOrd
	if len(p.turns) == 0 {
		t.flags |= p.pending
		p.pending = 0
	}
	p.turns = append(p.turns, t)
	p.cur = t
	return t
}

// touch extends the current turn's span to the current record.
func (p *parser) touch() {
	if p.cur != nil {
		p.cur.touch(p.ts)
	}
}

// flag marks the current turn, or the first turn when none has begun.
func (p *parser) flag(f memory.Provenance) {
	if p.cur != nil {
		p.cur.flags |= f
		return
	}
	p.pending |= f
}

// text strips cairn's marker spans, flagging the turn when there were any.
func (p *parser) text(s string) string {
	out, had := strip(s)
	if had {
		p.flag(memory.FromRecalledMemory)
	}
	return out
}

// inTurn returns the current turn for an item that must belong to one, and
// counts the item as skipped when there is none.
func (p *parser) inTurn(kind string) *turnBuilder {
	if p.cur == nil {
		p.stats.Skip(kind + " outside a turn")
		return nil
	}
	p.touch()
	return p.cur
}

// interAgent handles a message from another agent: for a spawned agent it
// is the task it was given, otherwise it is a report to keep as a part.
func (p *parser) interAgent(m object) {
	content := p.text(m.str("content"))
	if content == "" {
		return
	}
	trigger, set := m.boolean("trigger_turn")
	if p.sess.Subagent && (trigger || !set) {
		t := p.cur
		if t == nil || t.closed || len(t.requests) > 0 {
			t = p.open("")
		}
		p.touch()
		t.requests = append(t.requests, content)
		t.add(memory.Part{Role: memory.RoleUser, Kind: memory.KindText, Text: content, Time: p.ts})
		return
	}
	if t := p.inTurn("agent message"); t != nil {
		t.add(memory.Part{Role: memory.RoleSystem, Kind: memory.KindSubagent, Text: content, Time: p.ts})
	}
}

// result assembles the session from the collected turns.
func (p *parser) result() transcript.Result {
	res := transcript.Result{Stats: p.stats}
	if !p.metaSeen && len(p.turns) == 0 {
		return res
	}
	ownTime, ownV7 := uuidV7Time(p.sess.ExternalID)
	referenced := p.lineage.forked || p.ancestor
	var kept []*turnBuilder
	for _, t := range p.turns {
		if !t.hasWork() {
			continue
		}
		if p.inherited(t, ownTime, ownV7) {
			res.Stats.Skip("turn copied from parent")
			referenced = true
			continue
		}
		kept = append(kept, t)
	}
	for i, t := range kept {
		turn := t.build(i, i == len(kept)-1, p.sess.Model)
		if referenced {
			turn.Flags |= memory.FromReferencedChats
		}
		p.sess.Turns = append(p.sess.Turns, turn)
	}
	res.Sessions = []memory.Session{p.sess}
	return res
}

// inherited reports whether a turn is certainly a copy of an ancestor's.
func (p *parser) inherited(t *turnBuilder, ownTime time.Time, ownV7 bool) bool {
	if p.lineage.hasHistoryStart && t.hasOrdinal {
		return t.ordinal < p.lineage.historyStart
	}
	if !t.afterAncestor {
		return false
	}
	if tt, ok := uuidV7Time(t.id); ok && ownV7 && tt.Before(ownTime) {
		return true
	}
	return !p.born.IsZero() && !t.firstTS.IsZero() && t.firstTS.Before(p.born)
}

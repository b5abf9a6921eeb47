package opencode

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// buildSession turns one OpenCode session and its ordered messages into a
// memory.Session. It also returns the ids of the child sessions its task
// tool calls ran, so that a caller can fetch those too.
func buildSession(info sessionInfo, msgs []message, st *transcript.Stats) (memory.Session, []string) {
	s := memory.Session{
		Provider:         memory.ProviderOpenCode,
		ExternalID:       info.ID,
		ParentExternalID: info.ParentID,
		Subagent:         info.ParentID != "",
		Cwd:              info.Directory,
		Title:            info.Title,
		ClientVersion:    info.Version,
		StartedAt:        msTime(info.Time.Created),
	}
	var (
		turns    []*turnBuilder
		cur      *turnBuilder
		children []string
		model    string
	)
	for i := range msgs {
		m := &msgs[i]
		switch m.Info.Role {
		case "user":
			key := m.Info.ID
			if key == "" {
				st.Skip("message without id")
				key = fmt.Sprintf("%s#%d", info.ID, i)
			}
			cur = newTurn(key, m, st)
			turns = append(turns, cur)
		case "assistant":
			if cur == nil {
				// Answers before any prompt (a session that begins with
				// a reply): a turn with an empty request, keyed by it.
				key := m.Info.ID
				if key == "" {
					key = fmt.Sprintf("%s#%d", info.ID, i)
				}
				cur = &turnBuilder{st: st, turn: memory.Turn{Key: key, StartedAt: msTime(m.Info.Time.Created)}}
				turns = append(turns, cur)
			}
			children = append(children, cur.addAssistant(m)...)
			if m.Info.ModelID != "" {
				model = m.Info.ModelID
			}
			if s.Cwd == "" {
				s.Cwd = m.Info.Path.Cwd
			}
		default:
			st.Skip("message with unknown role")
		}
	}
	if model == "" {
		model = info.Model.ID
	}
	s.Model = model
	s.Turns = make([]memory.Turn, 0, len(turns))
	for i, tb := range turns {
		t := tb.finish()
		t.Seq = i
		if t.Model == "" {
			t.Model = model
		}
		if s.StartedAt.IsZero() || (!t.StartedAt.IsZero() && t.StartedAt.Before(s.StartedAt)) {
			s.StartedAt = t.StartedAt
		}
		if t.EndedAt.After(s.EndedAt) {
			s.EndedAt = t.EndedAt
		}
		s.Turns = append(s.Turns, t)
	}
	if s.EndedAt.IsZero() {
		s.EndedAt = msTime(info.Time.Updated)
	}
	return s, children
}

// turnBuilder collects one turn: a user message and the assistant messages
// that answer it.
type turnBuilder struct {
	turn    memory.Turn
	last    *messageInfo // the turn's last assistant message
	outcome string
	st      *transcript.Stats
}

func newTurn(key string, m *message, st *transcript.Stats) *turnBuilder {
	tb := &turnBuilder{st: st, turn: memory.Turn{
		Key:       key,
		StartedAt: msTime(m.Info.Time.Created),
		EndedAt:   msTime(m.Info.Time.Created),
		Model:     m.Info.Model.ModelID,
	}}
	var req []string
	for i := range m.Parts {
		p := &m.Parts[i]
		// Synthetic and ignored text is context OpenCode or a plugin added
		// (an attached file read back, a reminder): not the user's words.
		if p.Type == "text" && !p.Synthetic && !p.Ignored {
			if t := strings.TrimSpace(memory.StripMarked(p.Text)); t != "" {
				req = append(req, t)
			}
		}
		tb.addPart(memory.RoleUser, &m.Info, p)
	}
	tb.turn.Request = strings.Join(req, "\n\n")
	return tb
}

// addAssistant adds one assistant message and returns the child sessions
// its task calls ran.
func (tb *turnBuilder) addAssistant(m *message) []string {
	info := &m.Info
	tb.last = info
	if info.ModelID != "" {
		tb.turn.Model = info.ModelID
	}
	end := msTime(info.Time.Completed)
	if end.IsZero() {
		end = msTime(info.Time.Created)
	}
	if end.After(tb.turn.EndedAt) {
		tb.turn.EndedAt = end
	}
	var (
		text     []string
		children []string
	)
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Type == "text" && !p.Synthetic && !p.Ignored && !info.isSummary() {
			if t := strings.TrimSpace(memory.StripMarked(p.Text)); t != "" {
				text = append(text, t)
			}
		}
		if p.Type == "tool" && p.Tool == "task" && validID(p.State.Metadata.SessionID) {
			children = append(children, p.State.Metadata.SessionID)
		}
		tb.addPart(memory.RoleAssistant, info, p)
	}
	if len(text) > 0 {
		tb.outcome = strings.Join(text, "\n\n")
	}
	if info.Error != nil {
		name := safeToken(info.Error.Name)
		if name == "" {
			name = "error"
		}
		tb.append(memory.Part{Role: memory.RoleSystem, Kind: memory.KindText,
			Text: "[error: " + name + "]", IsError: true, Time: end})
	}
	return children
}

func (tb *turnBuilder) append(p memory.Part) {
	p.Seq = len(tb.turn.Parts)
	tb.turn.Parts = append(tb.turn.Parts, p)
}

func (tb *turnBuilder) finish() memory.Turn {
	t := tb.turn
	t.Outcome = tb.outcome
	t.Status = turnStatus(tb.last)
	return t
}

// turnStatus decides how a turn ended from its last assistant message.
func turnStatus(last *messageInfo) memory.TurnStatus {
	if last == nil {
		return memory.TurnCutShort // never answered: still running, or the client died
	}
	if last.Error != nil {
		switch last.Error.Name {
		case "MessageAbortedError", "MessageOutputLengthError":
			return memory.TurnCutShort
		case "ContentFilterError":
			return memory.TurnRefused
		}
		return memory.TurnFailed
	}
	switch last.Finish {
	case "content-filter", "refusal":
		return memory.TurnRefused
	case "length":
		return memory.TurnCutShort
	case "error":
		return memory.TurnFailed
	}
	if last.Time.Completed <= 0 {
		return memory.TurnCutShort // the stream was cut, or is still going
	}
	switch last.Finish {
	case "stop", "end-turn", "":
		// Before finish was recorded, a completion time was the only sign.
		return memory.TurnCompleted
	}
	// tool-calls as the last word means the loop stopped before the model
	// answered; unknown/other means the stream ended without a reason.
	return memory.TurnCutShort
}

// markerFlag reports recalled memory when cairn's marker is in s.
func markerFlag(s string) memory.Provenance {
	if strings.Contains(s, "<cairn-memory") {
		return memory.FromRecalledMemory
	}
	return 0
}

// validID accepts OpenCode ids (ses_…, msg_…, prt_…) and the plain ids of
// older or hand-written data: letters, digits, '-' and '_', not starting
// with '-', so that an id is safe as a command-line argument.
func validID(id string) bool {
	if id == "" || len(id) > 200 || id[0] == '-' {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// partTime is the best time a part has, else its message's.
func partTime(ms float64, info *messageInfo) time.Time {
	if t := msTime(ms); !t.IsZero() {
		return t
	}
	return msTime(info.Time.Created)
}

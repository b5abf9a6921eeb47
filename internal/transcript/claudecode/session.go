package claudecode

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// warmupPrompt is the prompt Claude Code 2.0 sent to fresh sidechains to
// prime the prompt cache; nobody asked for it.
const warmupPrompt = "Warmup"

// compactionAgent prefixes the id of the agent that writes compaction
// summaries; the parent session already holds its answer.
const compactionAgent = "acompact"

// sessions turns each stream into a session; streams that hold no turn
// (only bookkeeping, a local command, a harness side-agent) give none.
func (f *file) sessions() []memory.Session {
	var out []memory.Session
	for _, st := range f.streams {
		if s, ok := f.session(st); ok {
			out = append(out, s)
		}
	}
	return out
}

func (f *file) session(st *stream) (memory.Session, bool) {
	if st.sidechain && strings.HasPrefix(st.agentID, compactionAgent) {
		return memory.Session{}, false
	}
	keep := activeLines(st.entries)
	es := make([]*entry, 0, len(st.entries))
	for i, e := range st.entries {
		if keep[i] {
			es = append(es, e)
		}
	}

	s := memory.Session{Provider: memory.ProviderClaudeCode}
	sid := f.opt.SessionID
	for _, e := range es {
		r := e.rec
		if r.SessionID != "" {
			sid = r.SessionID // the last one: a fork's copied lines come first
		}
		if s.Cwd == "" && r.Cwd != "" {
			s.Cwd = r.Cwd
		}
		if r.GitBranch != "" {
			s.Branch = r.GitBranch
		}
		if r.Version != "" {
			s.ClientVersion = r.Version
		}
		if r.Type == "assistant" && r.Message != nil && r.Message.Model != "" && r.Message.Model != "<synthetic>" {
			s.Model = r.Message.Model
		}
		if !e.at.IsZero() {
			if s.StartedAt.IsZero() || e.at.Before(s.StartedAt) {
				s.StartedAt = e.at
			}
			if e.at.After(s.EndedAt) {
				s.EndedAt = e.at
			}
		}
	}

	if st.sidechain {
		s.Subagent = true
		s.ParentExternalID = sid
		switch {
		case st.agentID == "":
			s.ExternalID = sid + "/sidechain"
		case sid == "":
			s.ExternalID = "agent-" + st.agentID
		default:
			s.ExternalID = sid + "/agent-" + st.agentID
		}
	} else {
		s.ExternalID = sid
		f.name(&s, st)
	}

	b := newTurnBuilder(sid)
	for _, e := range es {
		b.add(e)
	}
	turns := b.finish()
	if st.sidechain {
		turns = dropWarmup(turns)
	}
	if len(turns) == 0 {
		return memory.Session{}, false
	}
	for i := range turns {
		turns[i].Seq = i
	}
	s.Turns = turns
	return s, true
}

// name sets the title and summary. A summary record describes the
// conversation ending at its leafUuid, which may be another session's.
func (f *file) name(s *memory.Session, st *stream) {
	for _, sm := range f.summaries {
		if sm.leaf != "" && st.seen[sm.leaf] {
			s.Summary = sm.text
		}
	}
	switch {
	case f.customTitle != "":
		s.Title = f.customTitle
	case f.aiTitle != "":
		s.Title = f.aiTitle
	default:
		s.Title = s.Summary
	}
}

// dropWarmup removes the cache-priming turns of a 2.0 sidechain.
func dropWarmup(turns []memory.Turn) []memory.Turn {
	out := turns[:0]
	for _, t := range turns {
		if t.Request != warmupPrompt {
			out = append(out, t)
		}
	}
	return out
}

package engine

import (
	"context"
	"path"
	"strings"

	"github.com/cairn-memory/cairn/internal/evaluate"
	"github.com/cairn-memory/cairn/internal/memory"
)

// ProviderEval marks sessions loaded from a benchmark.
const ProviderEval memory.Provider = "eval"

// EvalOptions tunes a retrieval evaluation.
type EvalOptions struct {
	Ks     []int          // cut-offs; default 1, 5, 10, 25, 50
	Layers []memory.Layer // layers searched; default all
	// Progress is called after each question.
	Progress func(done, total int)
	// onSearch sees each question's search result.
	onSearch func(SearchResult)
}

// EvalRetrieval loads a benchmark into this engine's store through the
// same write path as real data, asks every question through the same
// search the agent uses, and scores the ranked turns. The store should be
// a fresh, temporary one: the data stays in it.
func (e *Engine) EvalRetrieval(ctx context.Context, ds evaluate.Dataset, o EvalOptions) (evaluate.Report, error) {
	places, err := e.evalLoad(ctx, ds)
	if err != nil {
		return evaluate.Report{}, err
	}
	return e.evalAsk(ctx, ds, places, o, false)
}

// evalLoad writes a benchmark's conversations into the store, each in its
// own place, and promotes the candidates they leave.
func (e *Engine) evalLoad(ctx context.Context, ds evaluate.Dataset) (map[string]memory.Place, error) {
	places := map[string]memory.Place{}
	for _, c := range ds.Conversations {
		dir := evalDir(ds.Name, c.ID)
		var sessions []memory.Session
		for _, s := range c.Sessions {
			ms := memory.Session{Provider: ProviderEval, ExternalID: c.ID + "/" + s.ID, Cwd: dir, StartedAt: s.Time}
			for _, t := range s.Turns {
				utter := t.Text
				if t.Speaker != "" {
					utter = t.Speaker + ": " + t.Text
				}
				ms.Turns = append(ms.Turns, memory.Turn{
					Key: t.ID, Request: utter, Status: memory.TurnCompleted, StartedAt: t.Time, EndedAt: t.Time,
					Parts: []memory.Part{{Role: memory.RoleUser, Kind: memory.KindText, Text: utter, Time: t.Time}},
				})
				ms.EndedAt = t.Time
			}
			sessions = append(sessions, ms)
		}
		var rep SourceReport
		if err := e.ingest(ctx, sessions, &rep); err != nil {
			return nil, err
		}
		p, err := e.resolve(dir)
		if err != nil {
			return nil, err
		}
		places[c.ID] = p
	}
	// Candidates from the conversations are long due (their turns are in
	// the past): promote them as any store open would, so derived layers
	// take part in the search as they do for an agent.
	if _, err := e.Maintain(ctx); err != nil {
		return nil, err
	}
	return places, nil
}

// evalAsk asks every question through Search (lexical only when asked)
// and scores the ranked turns.
func (e *Engine) evalAsk(ctx context.Context, ds evaluate.Dataset, places map[string]memory.Place, o EvalOptions, lexical bool) (evaluate.Report, error) {
	if len(o.Ks) == 0 {
		o.Ks = evaluate.DefaultKs()
	}
	depth := 0
	for _, k := range o.Ks {
		depth = max(depth, k)
	}
	var ranked []evaluate.Ranked
	for i, q := range ds.Questions {
		if err := ctx.Err(); err != nil {
			return evaluate.Report{}, err
		}
		p := places[q.Conversation]
		res, err := e.Search(ctx, SearchRequest{Query: q.Text, Place: &p, Layers: o.Layers, Limit: depth, Lexical: lexical})
		if err != nil {
			return evaluate.Report{}, err
		}
		if o.onSearch != nil {
			o.onSearch(res)
		}
		r := evaluate.Ranked{QuestionID: q.ID}
		for _, h := range res.Hits {
			// A derived row counts through the turns it cites.
			for _, c := range e.cited(ctx, h.Match) {
				r.Turns = append(r.Turns, c.TurnKey)
				r.Sessions = append(r.Sessions, strings.TrimPrefix(c.SessionRef, q.Conversation+"/"))
			}
		}
		ranked = append(ranked, r)
		if o.Progress != nil {
			o.Progress(i+1, len(ds.Questions))
		}
	}
	return evaluate.Score(ds, ranked, o.Ks), nil
}

// evalDir is the made-up directory a benchmark conversation lives in, so
// each conversation is its own place and questions read only their own.
func evalDir(dataset, conv string) string {
	return path.Join("/cairn-eval", dataset, conv)
}

// cited lists the turns a hit stands for: its own turn for raw parts and
// episodes, the evidence turns for statements.
func (e *Engine) cited(ctx context.Context, m memory.Match) []memory.Evidence {
	if m.TurnKey != "" {
		return []memory.Evidence{{TurnKey: m.TurnKey, SessionRef: m.SessionRef}}
	}
	if m.Layer != memory.L1 {
		return nil
	}
	st, err := e.store.Statement(ctx, e.acct, m.ID)
	if err != nil {
		return nil
	}
	var out []memory.Evidence
	for _, ev := range st.Evidence {
		if ev.TurnKey != "" {
			out = append(out, ev)
		}
	}
	return out
}

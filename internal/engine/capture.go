package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// CaptureQueue keeps turns whose capture waits for capture to be switched
// on.
type CaptureQueue interface {
	Enqueue(ctx context.Context, acct memory.AccountID, kind string, sessionID, turnID int64) error
	Queued(ctx context.Context, acct memory.AccountID, limit int) ([]memory.QueuedTurn, error)
	Unqueue(ctx context.Context, acct memory.AccountID, id int64) error
	SessionOfTurn(ctx context.Context, acct memory.AccountID, turnID int64) (memory.Session, error)
}

// TurnExtractor proposes facts from a turn with a model (seed 002's turn
// extraction). It is filled by the model providers; with none, capture is
// deterministic only.
type TurnExtractor interface {
	TurnFacts(ctx context.Context, s memory.Session, t memory.Turn, topPredicates []string) ([]memory.Draft, error)
}

// captureBatch gathers what capture derives from a session's turns, so
// it is written in one transaction.
type captureBatch struct {
	episodes []memory.Episode
	cands    []memory.CandidateSet
	props    []temporal.Proposal
}

// captureSession runs capture over the turns an ingest added or changed.
// With capture switched off nothing is written: each turn is queued and
// captured when capture is switched on again.
func (e *Engine) captureSession(ctx context.Context, s memory.Session, changed map[string]int64) error {
	if len(changed) == 0 {
		return nil
	}
	if err := e.recordSessionVersion(ctx, s.ID); err != nil {
		return err
	}
	sw, err := e.Switches(ctx)
	if err != nil {
		return err
	}
	var b captureBatch
	for _, t := range s.Turns {
		id, ok := changed[t.Key]
		if !ok {
			continue
		}
		t.ID, t.SessionID = id, s.ID
		if !sw.CaptureOn() {
			if err := e.store.Enqueue(ctx, e.acct, "turn", s.ID, id); err != nil {
				return err
			}
			continue
		}
		if err := e.captureTurn(ctx, sw, s, t, &b); err != nil {
			return err
		}
	}
	return e.flushCapture(ctx, &b)
}

// flushCapture writes a batch.
func (e *Engine) flushCapture(ctx context.Context, b *captureBatch) error {
	if len(b.episodes) == 0 && len(b.cands) == 0 && len(b.props) == 0 {
		return nil
	}
	applied, err := e.store.SaveCapture(ctx, e.acct, b.episodes, b.cands, b.props)
	if err != nil {
		return err
	}
	for _, a := range applied {
		e.notePredicate(a.Statement.Predicate)
	}
	*b = captureBatch{}
	return nil
}

// captureTurn derives what a finished turn teaches, into b. Nothing is
// stored from a turn cut short or refused, one with no words of the
// user's, a recall question, or — when learning from external context is
// off — a turn that carried any.
func (e *Engine) captureTurn(ctx context.Context, sw Switches, s memory.Session, t memory.Turn, b *captureBatch) error {
	at := t.EndedAt
	if at.IsZero() {
		at = t.StartedAt
	}
	if at.IsZero() {
		at = e.now()
	}
	due := at.Add(e.cfg.Capture.SettlingWindow.D())
	if !capture.Learnable(t, sw.LearnExternal) {
		// Even a turn that teaches nothing is a later turn of its session:
		// it moves the session's settling window on.
		b.cands = append(b.cands, memory.CandidateSet{SessionID: s.ID, TurnID: t.ID, DueAt: due})
		return nil
	}
	if ep, ok := e.episode(s, t); ok {
		b.episodes = append(b.episodes, ep)
	}
	drafts := capture.Markers(t.Request)
	userSeq := firstUserPart(t)
	for i := range drafts {
		q, _ := redact.Default().Redact(drafts[i].Object)
		drafts[i].Evidence = memory.Evidence{SessionID: s.ID, TurnID: t.ID, PartSeq: userSeq, Source: "turn", Quote: q}
		if drafts[i].ValidAt.IsZero() {
			drafts[i].ValidAt = at
		}
	}
	b.cands = append(b.cands, memory.CandidateSet{SessionID: s.ID, TurnID: t.ID, Drafts: drafts, UserText: t.Request, DueAt: due})
	add := func(d memory.Draft, w memory.Writer, source string) error {
		d.Evidence.SessionID, d.Evidence.TurnID, d.Evidence.Source = s.ID, t.ID, source
		p := s.Place
		prop, err := e.propose(ctx, Write{Draft: d, Writer: w, Place: &p, UserText: t.Request})
		if err != nil {
			if memory.ErrorCode(err) == memory.CodeInvalid {
				return nil // refused (a credential, an empty value): the rest stands
			}
			return err
		}
		b.props = append(b.props, prop)
		return nil
	}
	for _, d := range capture.ToolDrafts(s, t) {
		if err := add(d, memory.WriterTool, "tool"); err != nil {
			return err
		}
	}
	if e.extractor != nil {
		// A model call never runs while a hook waits: the turn is queued
		// and the background round asks the model.
		return e.store.Enqueue(ctx, e.acct, factsKind, s.ID, t.ID)
	}
	return nil
}

// factsKind is the queue entry of a turn waiting for model turn facts.
const factsKind = "facts"

// turnFacts asks the turn model about a queued turn and writes what it
// found with tier inferred. done is false when the entry must wait (the
// daily budget is spent); any other failure is recorded with the call
// and the entry dropped, so one bad turn never blocks the queue.
func (e *Engine) turnFacts(ctx context.Context, item memory.QueuedTurn) (done bool, err error) {
	if e.extractor == nil {
		return true, nil
	}
	s, err := e.store.SessionOfTurn(ctx, e.acct, item.TurnID)
	if memory.ErrorCode(err) == memory.CodeNotFound {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	i := slices.IndexFunc(s.Turns, func(t memory.Turn) bool { return t.ID == item.TurnID })
	if i < 0 {
		return true, nil
	}
	t := s.Turns[i]
	top, err := e.topPredicates(ctx)
	if err != nil {
		return false, err
	}
	drafts, err := e.extractor.TurnFacts(ctx, s, t, top)
	if err != nil {
		if isBudget(err) {
			return false, nil
		}
		if e.models.on {
			e.models.cfg.Log("turn facts: turn " + strconv.FormatInt(t.ID, 10) + ": " + memory.ErrorMessage(err))
		}
		return true, nil
	}
	var b captureBatch
	q := firstUserPart(t)
	for _, d := range drafts {
		d.Evidence = memory.Evidence{SessionID: s.ID, TurnID: t.ID, PartSeq: q, Source: "model"}
		p := s.Place
		prop, err := e.propose(ctx, Write{Draft: d, Writer: memory.WriterModel, Place: &p, UserText: t.Request})
		if err != nil {
			if memory.ErrorCode(err) == memory.CodeInvalid {
				continue // refused (a credential, an empty value): the rest stands
			}
			return false, err
		}
		b.props = append(b.props, prop)
	}
	return true, e.flushCapture(ctx, &b)
}

// DrainCaptureQueue captures the turns that waited while capture was off.
// It does nothing while capture is still off.
func (e *Engine) DrainCaptureQueue(ctx context.Context) (int, error) {
	sw, err := e.Switches(ctx)
	if err != nil || !sw.CaptureOn() {
		return 0, err
	}
	done := 0
	waiting := map[int64]bool{} // turn-fact entries left for a later round
	for {
		q, err := e.store.Queued(ctx, e.acct, 100)
		if err != nil || len(q) == 0 {
			return done, err
		}
		progress := false
		for _, item := range q {
			if waiting[item.ID] {
				continue
			}
			if item.Kind == factsKind {
				ok, err := e.turnFacts(ctx, item)
				if err != nil {
					return done, err
				}
				if !ok {
					waiting[item.ID] = true
					continue
				}
				if err := e.store.Unqueue(ctx, e.acct, item.ID); err != nil {
					return done, err
				}
				done, progress = done+1, true
				continue
			}
			s, err := e.store.SessionOfTurn(ctx, e.acct, item.TurnID)
			if err == nil {
				for _, t := range s.Turns {
					if t.ID == item.TurnID {
						var b captureBatch
						if err := e.captureTurn(ctx, sw, s, t, &b); err != nil {
							return done, err
						}
						if err := e.flushCapture(ctx, &b); err != nil {
							return done, err
						}
					}
				}
			} else if memory.ErrorCode(err) != memory.CodeNotFound {
				return done, err
			}
			if err := e.store.Unqueue(ctx, e.acct, item.ID); err != nil {
				return done, err
			}
			done, progress = done+1, true
		}
		if !progress {
			return done, nil
		}
	}
}

// episode builds the turn's L2 episode, redacted again.
func (e *Engine) episode(s memory.Session, t memory.Turn) (memory.Episode, bool) {
	// An episode pairs a request with its outcome; a turn with no outcome
	// (a message that got no answer, an utterance in a conversation
	// benchmark) has nothing to add to its raw part.
	if strings.TrimSpace(t.Outcome) == "" {
		return memory.Episode{}, false
	}
	d, ok := capture.Episode(s, t, capture.DefaultEpisodeChars)
	if !ok {
		return memory.Episode{}, false
	}
	red := redact.Default()
	clean := func(x string) string { out, _ := red.Redact(x); return out }
	ep := memory.Episode{
		SessionID: s.ID, TurnID: t.ID, Place: s.Place, Request: clean(d.Request), Outcome: clean(d.Outcome),
		Summary: clean(d.Summary), Tools: d.Tools, Files: d.Files, Status: d.Status,
		FirstPart: d.FirstPart, LastPart: d.LastPart, At: d.Time,
	}
	for i, f := range ep.Files {
		ep.Files[i] = strings.ReplaceAll(clean(f), " ", "_")
	}
	if ep.At.IsZero() {
		ep.At = e.now()
	}
	return ep, true
}

func firstUserPart(t memory.Turn) int {
	for _, p := range t.Parts {
		if p.Role == memory.RoleUser && p.Kind == memory.KindText {
			return p.Seq
		}
	}
	return 0
}

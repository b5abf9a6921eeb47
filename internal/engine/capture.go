package engine

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
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

// captureSession runs capture over the turns an ingest added or changed.
// With capture switched off nothing is written: each turn is queued and
// captured when capture is switched on again.
func (e *Engine) captureSession(ctx context.Context, s memory.Session, changed map[string]int64) error {
	if len(changed) == 0 {
		return nil
	}
	sw, err := e.Switches(ctx)
	if err != nil {
		return err
	}
	for _, t := range s.Turns {
		id, ok := changed[t.Key]
		if !ok {
			continue
		}
		t.ID, t.SessionID = id, s.ID
		if !sw.CaptureOn() {
			if err := e.store.Enqueue(ctx, memory.LocalAccount, "turn", s.ID, id); err != nil {
				return err
			}
			continue
		}
		if err := e.captureTurn(ctx, sw, s, t); err != nil {
			return err
		}
	}
	return nil
}

// captureTurn derives what a finished turn teaches. Nothing is stored
// from a turn cut short or refused, one with no words of the user's, a
// recall question, or — when learning from external context is off — a
// turn that carried any.
func (e *Engine) captureTurn(ctx context.Context, sw Switches, s memory.Session, t memory.Turn) error {
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
		return e.store.AddCandidates(ctx, memory.LocalAccount, s.ID, t.ID, nil, "", due)
	}
	if err := e.saveEpisode(ctx, s, t); err != nil {
		return err
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
	if err := e.store.AddCandidates(ctx, memory.LocalAccount, s.ID, t.ID, drafts, t.Request, due); err != nil {
		return err
	}
	for _, d := range capture.ToolDrafts(s, t) {
		d.Evidence.SessionID, d.Evidence.TurnID, d.Evidence.Source = s.ID, t.ID, "tool"
		p := s.Place
		if _, err := e.Write(ctx, Write{Draft: d, Writer: memory.WriterTool, Place: &p, UserText: t.Request}); err != nil {
			if memory.ErrorCode(err) == memory.CodeInvalid {
				continue // refused (a credential, an empty value): the rest stands
			}
			return err
		}
	}
	if e.extractor != nil {
		top, err := e.topPredicates(ctx)
		if err != nil {
			return err
		}
		drafts, err := e.extractor.TurnFacts(ctx, s, t, top)
		if err != nil {
			return err
		}
		for _, d := range drafts {
			d.Evidence.SessionID, d.Evidence.TurnID, d.Evidence.Source = s.ID, t.ID, "model"
			p := s.Place
			if _, err := e.Write(ctx, Write{Draft: d, Writer: memory.WriterModel, Place: &p, UserText: t.Request}); err != nil && memory.ErrorCode(err) != memory.CodeInvalid {
				return err
			}
		}
	}
	return nil
}

// DrainCaptureQueue captures the turns that waited while capture was off.
// It does nothing while capture is still off.
func (e *Engine) DrainCaptureQueue(ctx context.Context) (int, error) {
	sw, err := e.Switches(ctx)
	if err != nil || !sw.CaptureOn() {
		return 0, err
	}
	done := 0
	for {
		q, err := e.store.Queued(ctx, memory.LocalAccount, 100)
		if err != nil || len(q) == 0 {
			return done, err
		}
		for _, item := range q {
			s, err := e.store.SessionOfTurn(ctx, memory.LocalAccount, item.TurnID)
			if err == nil {
				for _, t := range s.Turns {
					if t.ID == item.TurnID {
						if err := e.captureTurn(ctx, sw, s, t); err != nil {
							return done, err
						}
					}
				}
			} else if memory.ErrorCode(err) != memory.CodeNotFound {
				return done, err
			}
			if err := e.store.Unqueue(ctx, memory.LocalAccount, item.ID); err != nil {
				return done, err
			}
			done++
		}
	}
}

// saveEpisode writes the turn's L2 episode at once, redacted again.
func (e *Engine) saveEpisode(ctx context.Context, s memory.Session, t memory.Turn) error {
	// An episode pairs a request with its outcome; a turn with no outcome
	// (a message that got no answer, an utterance in a conversation
	// benchmark) has nothing to add to its raw part.
	if strings.TrimSpace(t.Outcome) == "" {
		return nil
	}
	d, ok := capture.Episode(s, t, capture.DefaultEpisodeChars)
	if !ok {
		return nil
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
	_, err := e.store.SaveEpisode(ctx, memory.LocalAccount, ep)
	return err
}

func firstUserPart(t memory.Turn) int {
	for _, p := range t.Parts {
		if p.Role == memory.RoleUser && p.Kind == memory.KindText {
			return p.Seq
		}
	}
	return 0
}

package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
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
	if !capture.Learnable(t, sw.LearnExternal) {
		return nil
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

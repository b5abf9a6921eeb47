package engine

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/capture"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// CaptureStore keeps what capture derives besides statements: candidates,
// episodes (L2) and the profile (L3).
type CaptureStore interface {
	AddCandidates(ctx context.Context, acct memory.AccountID, sessionID, turnID int64, drafts []memory.Draft, userText string, dueAt time.Time) error
	AnyDue(ctx context.Context, acct memory.AccountID, now time.Time) (bool, error)
	DueCandidates(ctx context.Context, acct memory.AccountID, now time.Time, limit int) ([]memory.Candidate, error)
	DropCandidate(ctx context.Context, acct memory.AccountID, id int64, why string) error
	SaveEpisode(ctx context.Context, acct memory.AccountID, ep memory.Episode) (int64, error)
	Episodes(ctx context.Context, acct memory.AccountID, all bool, limit int) ([]memory.Episode, error)
	Episode(ctx context.Context, acct memory.AccountID, id int64) (memory.Episode, error)
	SetEpisodeState(ctx context.Context, acct memory.AccountID, id int64, reason memory.Reason) (memory.Episode, error)
	PinEpisode(ctx context.Context, acct memory.AccountID, id int64, pinned bool) (memory.Episode, error)
	CapEpisodes(ctx context.Context, acct memory.AccountID, max int) (int, error)
	SaveProfile(ctx context.Context, acct memory.AccountID, body string, sources []int64) error
	SaveCapture(ctx context.Context, acct memory.AccountID, eps []memory.Episode, cands []memory.CandidateSet, ps []temporal.Proposal) ([]temporal.Applied, error)
	Profile(ctx context.Context, acct memory.AccountID) (memory.Profile, bool, error)
}

// MaintainReport says what a maintenance pass did.
type MaintainReport struct {
	Promoted int           `json:"promoted"`
	Merged   int           `json:"merged"` // candidates that reinforced an existing row
	Dropped  int           `json:"dropped"`
	Capped   int           `json:"episodes_capped"`
	Queued   int           `json:"queued_captured"`
	HeldBack int           `json:"held_back"`
	Pending  int           `json:"pending_applied"` // agents' remember calls no turn end claimed
	Profile  bool          `json:"profile"`
	Took     time.Duration `json:"took_ns"`
}

// MaintenanceDue is the cheap, indexed check each open makes.
func (e *Engine) MaintenanceDue(ctx context.Context) (bool, error) {
	return e.store.AnyDue(ctx, e.acct, e.now())
}

// Maintain runs the maintenance pass: every due candidate is promoted into
// L1 in one transaction (near-copies reinforce the row they repeat), the
// L3 profile is rebuilt, the L2 cap is applied, and turns that waited while
// capture was off are captured.
func (e *Engine) Maintain(ctx context.Context) (MaintainReport, error) {
	start := time.Now()
	var rep MaintainReport
	n, err := e.DrainCaptureQueue(ctx)
	if err != nil {
		return rep, err
	}
	rep.Queued = n
	for {
		due, err := e.store.DueCandidates(ctx, e.acct, e.now(), 500)
		if err != nil {
			return rep, err
		}
		if len(due) == 0 {
			break
		}
		var props []temporal.Proposal
		for _, c := range due {
			p := c.Place
			prop, err := e.propose(ctx, Write{Draft: c.Draft, Writer: memory.WriterCapture, UserText: c.UserText, Place: &p})
			if err != nil {
				if memory.ErrorCode(err) != memory.CodeInvalid {
					return rep, err
				}
				if err := e.store.DropCandidate(ctx, e.acct, c.ID, memory.ErrorMessage(err)); err != nil {
					return rep, err
				}
				rep.Dropped++
				continue
			}
			prop.Candidate = c.ID
			props = append(props, prop)
		}
		applied, err := e.store.ApplyStatements(ctx, e.acct, props)
		if err != nil {
			return rep, err
		}
		for _, a := range applied {
			if a.Action == temporal.Restate {
				rep.Merged++
			} else {
				rep.Promoted++
			}
			e.notePredicate(a.Statement.Predicate)
		}
	}
	ok, err := e.rebuildProfile(ctx)
	if err != nil {
		return rep, err
	}
	rep.Profile = ok
	if rep.Capped, err = e.store.CapEpisodes(ctx, e.acct, e.cfg.Capture.EpisodeCap); err != nil {
		return rep, err
	}
	if rep.HeldBack, err = e.holdBack(ctx); err != nil {
		return rep, err
	}
	if rep.Pending, err = e.applyStalePending(ctx); err != nil {
		return rep, err
	}
	rep.Took = time.Since(start)
	return rep, nil
}

// rebuildProfile builds L3 from the active, tiered L1 notes once there are
// enough of them, and removes it when there no longer are.
func (e *Engine) rebuildProfile(ctx context.Context) (bool, error) {
	notes, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: []memory.Kind{memory.KindNote}, Current: true})
	if err != nil {
		return false, err
	}
	var active []memory.Statement
	var ids []int64
	for _, n := range notes {
		if n.Tier != memory.TierNone {
			active = append(active, n)
			ids = append(ids, n.ID)
		}
	}
	body, ok := capture.Profile(active, e.cfg.Capture.ProfileMin)
	if !ok {
		_, had, err := e.store.Profile(ctx, e.acct)
		if err != nil || !had {
			return false, err
		}
		return false, e.store.SaveProfile(ctx, e.acct, "", nil)
	}
	return true, e.store.SaveProfile(ctx, e.acct, body, ids)
}

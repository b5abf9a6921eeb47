package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

// JobStore keeps phase 1's bookkeeping and output: which session is
// claimed, retried or finished, and each session's extraction.
type JobStore interface {
	EligibleSessions(ctx context.Context, acct memory.AccountID, version string, idleBefore, oldest, now time.Time, limit int) ([]int64, error)
	ClaimJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, owner string, until time.Time) (bool, error)
	FinishJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, status, errText string, nextAt time.Time) error
	JobAttempts(ctx context.Context, acct memory.AccountID, sessionID int64, version string) (int, error)
	SaveExtraction(ctx context.Context, acct memory.AccountID, x memory.Extraction) (int64, error)
	Extractions(ctx context.Context, acct memory.AccountID, version string) ([]memory.Extraction, error)
	PruneExtractions(ctx context.Context, acct memory.AccountID, version string, before time.Time) (int, error)
	MarkExtractionsUsed(ctx context.Context, acct memory.AccountID, slugs []string) error
	SessionEpisodes(ctx context.Context, acct memory.AccountID, sessionID int64) ([]memory.Episode, error)
	ResetPhases(ctx context.Context, acct memory.AccountID) error
}

// SessionExtractor is phase 1 for one session. The deterministic one is
// the default; a model provider plugs in behind the same port.
type SessionExtractor interface {
	ExtractSession(ctx context.Context, in distill.ExtractInput) (memory.Extraction, error)
}

// deterministicExtractor builds extractions from what capture derived.
type deterministicExtractor struct{}

func (deterministicExtractor) ExtractSession(_ context.Context, in distill.ExtractInput) (memory.Extraction, error) {
	return distill.Extract(in), nil
}

// Job statuses as the store records them.
const (
	jobDone    = "done"
	jobPending = "pending"
	jobFailed  = "failed"
	jobSkipped = "skipped"
)

// Phase1Report says what one phase 1 run did.
type Phase1Report struct {
	Eligible  int           `json:"eligible"`
	Extracted int           `json:"extracted"`
	Empty     int           `json:"empty"`    // recorded as having taught nothing
	Skipped   int           `json:"skipped"`  // memory off for the session, or external content not learned from
	Retried   int           `json:"retried"`  // failed, scheduled again with backoff
	Failed    int           `json:"failed"`   // out of attempts, recorded as failed
	Lost      int           `json:"lost"`     // claimed by another process first
	Deferred  int           `json:"deferred"` // the daily model budget was spent: put off to tomorrow, no attempt counted
	Took      time.Duration `json:"took_ns"`
}

func (r *Phase1Report) add(o Phase1Report) {
	r.Eligible += o.Eligible
	r.Extracted += o.Extracted
	r.Empty += o.Empty
	r.Skipped += o.Skipped
	r.Retried += o.Retried
	r.Failed += o.Failed
	r.Lost += o.Lost
	r.Deferred += o.Deferred
}

// phase1Batch is how many eligible sessions one query fetches.
const phase1Batch = 64

// Versions returns the memory pipelines in force (v1, v2, or both when
// dual-writing).
func (e *Engine) Versions(ctx context.Context) ([]string, error) {
	c, _, err := e.Effective(ctx)
	if err != nil {
		return nil, err
	}
	return versionsOf(c), nil
}

func versionsOf(c config.Config) []string {
	switch c.Memory.Version {
	case distill.V2:
		return []string{distill.V2}
	case "dual":
		return []string{distill.V1, distill.V2}
	}
	return []string{distill.V1}
}

// ExtractDue is phase 1: every session idle long enough and young enough
// is claimed through a lease, sanitized and extracted, up to the parallel
// cap at once. A failure is retried with backoff until the attempts run
// out; an empty result is recorded like any other.
func (e *Engine) ExtractDue(ctx context.Context) (Phase1Report, error) {
	start := time.Now()
	var rep Phase1Report
	versions, err := e.Versions(ctx)
	if err != nil {
		return rep, err
	}
	sw, err := e.Switches(ctx)
	if err != nil {
		return rep, err
	}
	if !sw.CaptureOn() {
		return rep, nil
	}
	for _, v := range versions {
		seen := map[int64]bool{}
		for {
			now := e.now()
			p := e.cfg.Phase1
			ids, err := e.store.EligibleSessions(ctx, e.acct, v, now.Add(-time.Duration(p.Idle)), now.Add(-time.Duration(p.MaxAge)), now, phase1Batch)
			if err != nil {
				return rep, err
			}
			var todo []int64
			for _, id := range ids {
				if !seen[id] {
					seen[id] = true
					todo = append(todo, id)
				}
			}
			if len(todo) == 0 {
				break
			}
			r, err := e.extractBatch(ctx, v, todo, sw.LearnExternal)
			rep.add(r)
			if err != nil {
				return rep, err
			}
		}
	}
	rep.Took = time.Since(start)
	return rep, nil
}

// extractBatch runs one batch with at most Parallel sessions at once. The
// first store error stops the batch; a failing extractor does not.
func (e *Engine) extractBatch(ctx context.Context, version string, ids []int64, learnExternal bool) (Phase1Report, error) {
	par := max(e.cfg.Phase1.Parallel, 1)
	var (
		mu       sync.Mutex
		rep      Phase1Report
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, par)
	for _, id := range ids {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(id int64) {
			defer func() { <-sem; wg.Done() }()
			r, err := e.extractOne(ctx, version, id, learnExternal)
			mu.Lock()
			defer mu.Unlock()
			rep.add(r)
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}(id)
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return rep, firstErr
}

// extractOne claims, extracts and records one session.
func (e *Engine) extractOne(ctx context.Context, version string, id int64, learnExternal bool) (Phase1Report, error) {
	rep := Phase1Report{Eligible: 1}
	acct := e.acct
	ok, err := e.store.ClaimJob(ctx, acct, id, version, e.owner, e.now().Add(time.Duration(e.cfg.Phase1.Lease)))
	if err != nil || !ok {
		rep.Lost = 1
		return rep, err
	}
	s, err := e.store.LoadSession(ctx, acct, fmt.Sprint(id))
	if err != nil {
		return rep, e.failJob(ctx, &rep, id, version, err)
	}
	if why, skip, err := e.otherVersion(ctx, s.ID, version); err != nil {
		return rep, e.failJob(ctx, &rep, id, version, err)
	} else if skip {
		rep.Skipped = 1
		return rep, e.store.FinishJob(ctx, acct, id, version, jobSkipped, why, time.Time{})
	}
	if why, skip, err := e.skipSession(ctx, s, learnExternal); err != nil {
		return rep, e.failJob(ctx, &rep, id, version, err)
	} else if skip {
		rep.Skipped = 1
		return rep, e.store.FinishJob(ctx, acct, id, version, jobSkipped, why, time.Time{})
	}
	in, err := e.extractInput(ctx, s, version)
	if err != nil {
		return rep, e.failJob(ctx, &rep, id, version, err)
	}
	x, err := e.sessionExtractor.ExtractSession(ctx, in)
	if err != nil && isBudget(err) {
		// Skipped, not failed: the session waits for tomorrow's budget
		// without using up an attempt.
		rep.Deferred = 1
		return rep, e.models.calls.DeferJob(ctx, acct, id, version, memory.ErrorMessage(err), dayStart(e.now()).AddDate(0, 0, 1))
	}
	if err != nil {
		return rep, e.failJob(ctx, &rep, id, version, err)
	}
	x.SessionID, x.Version = s.ID, version
	if x.SessionAt.IsZero() {
		x.SessionAt = s.EndedAt
	}
	if _, err := e.store.SaveExtraction(ctx, acct, x); err != nil {
		return rep, err
	}
	if x.Empty {
		rep.Empty = 1
	} else {
		rep.Extracted = 1
	}
	return rep, e.store.FinishJob(ctx, acct, id, version, jobDone, "", time.Time{})
}

// skipSession applies the seed's exclusions: a session whose preset
// denies learning, and, unless learning from external context is on, a
// session that pulled in external content.
func (e *Engine) skipSession(ctx context.Context, s memory.Session, learnExternal bool) (string, bool, error) {
	name, err := e.store.SessionPreset(ctx, e.acct, s.Provider, s.ExternalID)
	if err != nil {
		return "", false, err
	}
	if p, err := recall.ParsePreset(name); err == nil {
		if _, write := p.Policies(); write == recall.Deny {
			return "memory is off for this session (" + string(p) + ")", true, nil
		}
	}
	if !learnExternal {
		for _, t := range s.Turns {
			if t.Flags&^memory.FromRecalledMemory != 0 {
				return "the session carries external content (" + t.Flags.String() + ") and learning from it is off", true, nil
			}
		}
	}
	return "", false, nil
}

// extractInput is the sanitized session with what capture made of it:
// recall blocks cairn injected are stripped, everything else was
// redacted on import.
func (e *Engine) extractInput(ctx context.Context, s memory.Session, version string) (distill.ExtractInput, error) {
	for i := range s.Turns {
		t := &s.Turns[i]
		t.Request, t.Outcome = memory.StripMarked(t.Request), memory.StripMarked(t.Outcome)
		for j := range t.Parts {
			t.Parts[j].Text = memory.StripMarked(t.Parts[j].Text)
		}
	}
	eps, err := e.store.SessionEpisodes(ctx, e.acct, s.ID)
	if err != nil {
		return distill.ExtractInput{}, err
	}
	st, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Session: s.ID, Live: true, Evidence: true})
	if err != nil {
		return distill.ExtractInput{}, err
	}
	return distill.ExtractInput{Session: s, Episodes: eps, Statements: st, Version: version}, nil
}

// failJob records an extractor failure: retried with exponential backoff
// (1, 2, 4 … minutes, at most a day) until MaxAttempts, then failed.
func (e *Engine) failJob(ctx context.Context, rep *Phase1Report, id int64, version string, cause error) error {
	acct := e.acct
	n, err := e.store.JobAttempts(ctx, acct, id, version)
	if err != nil {
		return err
	}
	msg := memory.ErrorMessage(cause)
	if n+1 >= max(e.cfg.Phase1.MaxAttempts, 1) {
		rep.Failed = 1
		return e.store.FinishJob(ctx, acct, id, version, jobFailed, msg, time.Time{})
	}
	rep.Retried = 1
	return e.store.FinishJob(ctx, acct, id, version, jobPending, msg, e.now().Add(backoff(n)))
}

// backoff is the wait before attempt n+1.
func backoff(n int) time.Duration {
	d := time.Minute << min(n, 11)
	return min(d, 24*time.Hour)
}

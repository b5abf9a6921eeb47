package engine

import (
	"context"
	"errors"
	"time"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// ModelCallStore keeps every model call, for `cairn costs` and the daily
// budget, and puts phase-1 jobs off when the budget is spent.
type ModelCallStore interface {
	RecordModelCall(ctx context.Context, acct memory.AccountID, c model.CallRecord) (int64, error)
	ModelCalls(ctx context.Context, acct memory.AccountID, since time.Time) ([]model.CallRecord, error)
	ModelSpend(ctx context.Context, acct memory.AccountID, since time.Time) (float64, error)
	DeferJob(ctx context.Context, acct memory.AccountID, sessionID int64, version, why string, nextAt time.Time) error
}

// ModelProvider is one configured model: the port, and the names its
// calls are recorded under.
type ModelProvider struct {
	Chat     model.Chat
	Provider string // openai, anthropic, claude-cli, codex-cli
	Model    string
}

// Models are the providers of each phase; a nil one leaves that phase
// deterministic.
type Models struct {
	Extraction    *ModelProvider
	Consolidation *ModelProvider
	TurnFacts     *ModelProvider
	// Prices estimate each call's cost (model.DefaultPrices merged with
	// the configured ones).
	Prices model.Prices
	// DailyBudget in US dollars; 0: no limit.
	DailyBudget float64
	// MaxSteps bounds one consolidation pass's model calls.
	MaxSteps int
	// Log receives one line per refused model file access and per
	// fallback; nil discards them.
	Log func(string)
}

// Consolidator is phase 2's model pass. It runs after the deterministic
// files are written, over tools confined to the vault; the engine checks
// its work and restores the deterministic files when it fails.
type Consolidator interface {
	Consolidate(ctx context.Context, job model.ConsolidationJob) (model.Steps, error)
}

// modelState is what UseModels set.
type modelState struct {
	on           bool
	calls        ModelCallStore
	cfg          Models
	consolidator Consolidator
}

// UseModels switches the configured phases to their models. Every call is
// recorded in the store and counted against the daily budget, so the
// store must keep model calls.
func (e *Engine) UseModels(m Models) error {
	calls, ok := e.store.(ModelCallStore)
	if !ok {
		return memory.Errorf(memory.CodeUnavailable, "this store does not record model calls, so models cannot be used with it")
	}
	if m.Log == nil {
		m.Log = func(string) {}
	}
	if m.Prices == nil {
		m.Prices, _ = model.ParsePrices(model.DefaultPrices)
	}
	e.models = modelState{on: true, calls: calls, cfg: m}
	if p := m.Extraction; p != nil {
		e.sessionExtractor = model.Extractor{Chat: e.metered(model.PhaseExtraction, *p), Model: p.Provider + ":" + p.Model}
	}
	if p := m.TurnFacts; p != nil {
		tf := e.cfg.TurnFacts
		e.extractor = model.TurnFacts{Chat: e.metered(model.PhaseTurnFacts, *p),
			UserChars: tf.UserChars, AnswerChars: tf.AnswerChars, MaxFacts: tf.MaxFacts, MaxWords: tf.MaxWords}
	}
	if p := m.Consolidation; p != nil {
		e.models.consolidator = model.Consolidator{Chat: e.metered(model.PhaseConsolidation, *p), MaxSteps: m.MaxSteps}
	}
	return nil
}

// metered wraps a provider: the budget is checked before each call and
// every call, sent or skipped, is recorded.
func (e *Engine) metered(phase string, p ModelProvider) model.Chat {
	return meteredChat{e: e, phase: phase, p: p}
}

type meteredChat struct {
	e     *Engine
	phase string
	p     ModelProvider
}

func (m meteredChat) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	e := m.e
	rec := model.CallRecord{Phase: m.phase, Provider: m.p.Provider, Model: m.p.Model}
	if err := e.budgetLeft(ctx); err != nil {
		rec.At, rec.Status, rec.Error = e.now(), model.CallSkipped, memory.ErrorMessage(err)
		if _, rerr := e.models.calls.RecordModelCall(ctx, e.acct, rec); rerr != nil {
			return model.Response{}, rerr
		}
		return model.Response{}, err
	}
	start := time.Now()
	resp, err := m.p.Chat.Complete(ctx, req)
	rec.At, rec.Took = e.now(), time.Since(start)
	if resp.Model != "" {
		rec.Model = resp.Model
	}
	rec.In, rec.Out = resp.Usage.In, resp.Usage.Out
	rec.CostUSD, rec.Priced = e.models.cfg.Prices.Cost(rec.Model, resp.Usage)
	switch {
	case err != nil && errors.Is(err, model.ErrRefused), err == nil && resp.Stop == model.StopRefusal:
		rec.Status = model.CallRefused
	case err != nil:
		rec.Status = model.CallFailed
	default:
		rec.Status = model.CallOK
	}
	if err != nil {
		rec.Error = memory.ErrorMessage(err)
		if rec.Error == "" {
			rec.Error = err.Error()
		}
	}
	// Recorded even when the caller's context is done: the call was paid.
	if _, rerr := e.models.calls.RecordModelCall(context.WithoutCancel(ctx), e.acct, rec); rerr != nil && err == nil {
		return resp, rerr
	}
	return resp, err
}

// budgetLeft is nil while today's estimated spend is under the budget.
func (e *Engine) budgetLeft(ctx context.Context) error {
	b := e.models.cfg.DailyBudget
	if b <= 0 {
		return nil
	}
	spent, err := e.models.calls.ModelSpend(ctx, e.acct, dayStart(e.now()))
	if err != nil {
		return err
	}
	if spent >= b {
		return &memory.Error{Code: memory.CodeUnavailable, Err: model.ErrBudget,
			Message: "the daily model budget is spent; model work waits for tomorrow (models.daily_budget_usd)"}
	}
	return nil
}

// dayStart is the start of t's day in local time: the budget's day.
func dayStart(t time.Time) time.Time {
	t = t.Local()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
}

// isBudget reports whether err is the spent budget.
func isBudget(err error) bool { return errors.Is(err, model.ErrBudget) }

// CostReport is what `cairn costs` shows.
type CostReport struct {
	Since       time.Time          `json:"since"`
	Calls       []model.CallRecord `json:"calls"`
	Totals      []CostTotal        `json:"totals"`
	TotalUSD    float64            `json:"total_usd"`
	TodayUSD    float64            `json:"today_usd"`
	DailyBudget float64            `json:"daily_budget_usd"`
}

// CostTotal sums the calls of one phase, provider and model.
type CostTotal struct {
	Phase    string  `json:"phase"`
	Provider string  `json:"provider"`
	Model    string  `json:"model"`
	Calls    int     `json:"calls"`
	Skipped  int     `json:"skipped"`
	Failed   int     `json:"failed"`
	In       int     `json:"tokens_in"`
	Out      int     `json:"tokens_out"`
	CostUSD  float64 `json:"cost_usd"`
	Unpriced bool    `json:"unpriced,omitempty"`
}

// Costs reports the model calls made since since.
func (e *Engine) Costs(ctx context.Context, since time.Time) (CostReport, error) {
	rep := CostReport{Since: since, DailyBudget: e.cfg.Models.DailyBudget}
	calls, ok := e.store.(ModelCallStore)
	if !ok {
		return rep, memory.Errorf(memory.CodeUnavailable, "this store does not record model calls")
	}
	var err error
	if rep.Calls, err = calls.ModelCalls(ctx, e.acct, since); err != nil {
		return rep, err
	}
	if rep.TodayUSD, err = calls.ModelSpend(ctx, e.acct, dayStart(e.now())); err != nil {
		return rep, err
	}
	idx := map[[3]string]int{}
	for _, c := range rep.Calls {
		k := [3]string{c.Phase, c.Provider, c.Model}
		i, ok := idx[k]
		if !ok {
			i = len(rep.Totals)
			idx[k] = i
			rep.Totals = append(rep.Totals, CostTotal{Phase: c.Phase, Provider: c.Provider, Model: c.Model})
		}
		t := &rep.Totals[i]
		t.Calls++
		switch c.Status {
		case model.CallSkipped:
			t.Skipped++
		case model.CallFailed, model.CallRefused:
			t.Failed++
		}
		t.In += c.In
		t.Out += c.Out
		t.CostUSD += c.CostUSD
		if !c.Priced && c.Status != model.CallSkipped {
			t.Unpriced = true
		}
		rep.TotalUSD += c.CostUSD
	}
	return rep, nil
}

// maintained lists the files a consolidation model may write in a
// version's vault; everything else is its input.
func maintained(version, p string) bool {
	if p == distill.SummaryPath {
		return true
	}
	if version == distill.V2 {
		return false
	}
	if p == distill.MemoryPath {
		return true
	}
	name, ok := cutSkill(p)
	return ok && name != ""
}

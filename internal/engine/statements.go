package engine

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// StatementStore keeps L1: notes and facts with two clocks.
type StatementStore interface {
	ApplyStatements(ctx context.Context, acct memory.AccountID, ps []temporal.Proposal) ([]temporal.Applied, error)
	Statements(ctx context.Context, acct memory.AccountID, f memory.StatementFilter) ([]memory.Statement, error)
	Statement(ctx context.Context, acct memory.AccountID, id int64) (memory.Statement, error)
	WithdrawStatement(ctx context.Context, acct memory.AccountID, id int64, reason memory.Reason) (memory.Statement, error)
	ReopenStatement(ctx context.Context, acct memory.AccountID, id int64, see memory.Sight) (memory.Statement, error)
	PinStatement(ctx context.Context, acct memory.AccountID, id int64, pinned bool) (memory.Statement, error)
	MarkUsed(ctx context.Context, acct memory.AccountID, ids []int64) error
	PredicateCounts(ctx context.Context, acct memory.AccountID) (map[string]int, error)
}

// Write is one statement arriving at the write point, with who sent it.
type Write struct {
	Draft   memory.Draft
	Writer  memory.Writer
	Channel memory.Writer // how it arrived, when that differs from Writer
	// Tier is the tier the writer claims; TierSet says whether it claimed one.
	Tier    memory.Tier
	TierSet bool
	// UserText is the user's own message the statement came from, used to
	// check a claim of asserted.
	UserText string
	// Cwd places the statement; Place, when set, is used as is.
	Cwd   string
	Place *memory.Place
}

// WriteResult is what the write point did.
type WriteResult struct {
	Statement memory.Statement `json:"statement"`
	Action    string           `json:"action"` // insert, insert-late or restate
	// Warning says what went wrong after the row was stored (its vault
	// file); the write itself succeeded.
	Warning string `json:"warning,omitempty"`
}

// predicateCache keeps the store's most used predicates between writes;
// a write that names a new predicate adds it.
type predicateCache struct {
	mu     sync.Mutex
	counts map[string]int
	loaded time.Time
}

const predicateCacheTTL = time.Minute

// Write is the one write point of L1. Every rule is applied here: a value
// shaped like a credential is refused (the error names the kind, never
// the value); the predicate is normalized against the store's most used
// ones; cardinality comes from the declaration, then the registry; the
// tier from the writer; the place from the class; then the temporal rules
// decide between insert, supersession, late arrival and restatement, in
// one transaction.
func (e *Engine) Write(ctx context.Context, w Write) (WriteResult, error) {
	p, err := e.propose(ctx, w)
	if err != nil {
		return WriteResult{}, err
	}
	out, err := e.store.ApplyStatements(ctx, e.acct, []temporal.Proposal{p})
	if err != nil {
		return WriteResult{}, err
	}
	e.notePredicate(p.Statement.Predicate)
	return WriteResult{Statement: out[0].Statement, Action: out[0].Action.String()}, nil
}

// propose applies every rule that needs no look at the store's rows and
// returns the proposal the store applies in its transaction.
func (e *Engine) propose(ctx context.Context, w Write) (temporal.Proposal, error) {
	d := w.Draft
	d.Object = strings.TrimSpace(memory.StripMarked(d.Object))
	d.Subject = strings.TrimSpace(d.Subject)
	if d.Kind == "" {
		d.Kind = memory.KindFact
	}
	switch d.Kind {
	case memory.KindFact, memory.KindEvent, memory.KindNote:
	default:
		return temporal.Proposal{}, memory.Errorf(memory.CodeInvalid, "unknown kind %q: use fact, event or note", d.Kind)
	}
	if d.Object == "" {
		return temporal.Proposal{}, memory.Errorf(memory.CodeInvalid, "nothing to remember: the value is empty")
	}
	if d.Kind != memory.KindNote && (d.Subject == "" || d.Predicate == "") {
		return temporal.Proposal{}, memory.Errorf(memory.CodeInvalid, "a %s needs a subject and a predicate (for example: production deploy_target \"Render, Oregon\")", d.Kind)
	}
	if d.Class != "" && !validClass(d.Class) {
		return temporal.Proposal{}, memory.Errorf(memory.CodeInvalid, "unknown class %q: use user, preference, convention, decision, environment or task", d.Class)
	}
	for _, f := range []string{d.Subject, d.Predicate, d.Object} {
		if kind, ok := redact.Default().Match(f); ok {
			return temporal.Proposal{}, memory.Errorf(memory.CodeInvalid, "refused: the statement looks like a credential (%s); secrets are never stored", kind)
		}
	}
	d.Evidence.Quote, _ = redact.Default().Redact(d.Evidence.Quote)

	place, err := e.writePlace(w)
	if err != nil {
		return temporal.Proposal{}, err
	}
	if d.Kind != memory.KindNote {
		top, err := e.topPredicates(ctx)
		if err != nil {
			return temporal.Proposal{}, err
		}
		d.Predicate = temporal.Canonical(d.Predicate, top)
	}
	st := memory.Statement{
		Account: e.acct, Kind: d.Kind, Subject: d.Subject, Predicate: d.Predicate, Object: d.Object,
		Class: d.Class, Category: strings.ToLower(d.Category), Pinned: d.Pinned, Confidence: d.Confidence,
		Cardinality: temporal.Cardinality(d.Kind, d.Predicate, d.Cardinality),
		Writer:      w.Writer,
		Tier: temporal.ResolveTier(temporal.TierRequest{Writer: w.Writer, Channel: w.Channel, Declared: w.Tier,
			DeclaredSet: w.TierSet, Value: d.Object, UserText: w.UserText}),
		Scope:   temporal.Place(e.rungs(), place, d.Class, d.Category, d.Rung),
		ValidAt: d.ValidAt,
	}
	if st.ValidAt.IsZero() {
		st.ValidAt = e.now().UTC()
	}
	if st.Confidence <= 0 || st.Confidence > 1 {
		st.Confidence = defaultConfidence(st.Tier)
	}
	if d.Evidence != (memory.Evidence{}) {
		st.Evidence = []memory.Evidence{d.Evidence}
	}
	see := memory.SightOf(place, memory.RungEverywhere)
	if st.Class == memory.ClassUser {
		see = memory.Sight{All: true} // one name everywhere
	}
	restatement, jaccard := e.cfg.Temporal.Restatement, e.cfg.Capture.MergeJaccard
	decide := func(slot []memory.Statement) temporal.Plan { return temporal.Decide(st, slot, restatement) }
	if st.Kind == memory.KindNote {
		decide = func(similar []memory.Statement) temporal.Plan { return temporal.DecideNote(st, similar, jaccard) }
	}
	return temporal.Proposal{Statement: st, Sight: see, Decide: decide}, nil
}

func (e *Engine) writePlace(w Write) (memory.Place, error) {
	if w.Place != nil {
		return *w.Place, nil
	}
	if w.Cwd == "" {
		return memory.Place{}, memory.Errorf(memory.CodeInvalid, "a statement needs a place: give a directory (--cwd)")
	}
	return e.resolve(w.Cwd)
}

func validClass(c memory.Class) bool {
	for _, x := range memory.Classes {
		if x == c {
			return true
		}
	}
	return false
}

// defaultConfidence follows the tier: what the user said is surer than
// what a model guessed.
func defaultConfidence(t memory.Tier) float64 {
	switch t {
	case memory.TierAsserted:
		return 0.9
	case memory.TierObserved:
		return 0.8
	case memory.TierInferred:
		return 0.6
	}
	return 0.5
}

// rungs reads the class defaults from the configuration.
func (e *Engine) rungs() temporal.Rungs {
	r := temporal.DefaultRungs()
	t := e.cfg.Temporal
	for class, v := range map[memory.Class]string{
		memory.ClassUser: t.UserClassRung, memory.ClassPreference: t.PrefClassRung, memory.ClassConvention: t.ConvClassRung,
		memory.ClassDecision: t.DecisionRung, memory.ClassEnvironment: t.EnvironmentRung, memory.ClassTask: t.TaskRung,
	} {
		if rung, err := memory.ParseRung(v); err == nil && rung != memory.RungNone {
			r[class] = rung
		}
	}
	return r
}

// topPredicates returns the store's most used predicates, refreshed at
// most once a minute.
func (e *Engine) topPredicates(ctx context.Context) ([]string, error) {
	e.preds.mu.Lock()
	defer e.preds.mu.Unlock()
	if e.preds.counts == nil || e.now().Sub(e.preds.loaded) > predicateCacheTTL {
		c, err := e.store.PredicateCounts(ctx, e.acct)
		if err != nil {
			return nil, err
		}
		e.preds.counts, e.preds.loaded = c, e.now()
	}
	n := e.cfg.Temporal.TopPredicates
	if n <= 0 {
		n = 40
	}
	return temporal.TopPredicates(e.preds.counts, n), nil
}

func (e *Engine) notePredicate(p string) {
	if p == "" {
		return
	}
	e.preds.mu.Lock()
	defer e.preds.mu.Unlock()
	if e.preds.counts != nil {
		e.preds.counts[p]++
	}
}

package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
	"github.com/cairn-memory/cairn/internal/recall"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// RecallStore keeps what recall needs besides the layers.
type RecallStore interface {
	SaveReceipt(ctx context.Context, acct memory.AccountID, r memory.Receipt) (int64, error)
	Receipts(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef string, limit int) ([]memory.Receipt, error)
	SessionPreset(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef string) (string, error)
	SetSessionPreset(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef, preset string) error
	SetPlacePreset(ctx context.Context, acct memory.AccountID, worktree, preset string) error
	TakePlacePreset(ctx context.Context, acct memory.AccountID, worktree string) (string, error)
	SessionID(ctx context.Context, acct memory.AccountID, provider memory.Provider, ref string) (int64, error)
	LastEpisodes(ctx context.Context, acct memory.AccountID, worktree string, excludeSession int64, limit int) ([]memory.Episode, error)
}

// RecallRequest asks for a block.
type RecallRequest struct {
	// Query is the user's request; empty for the standing block.
	Query    string
	Cwd      string
	Place    *memory.Place
	Provider memory.Provider
	// Session is the client's session id; it excludes the session's own
	// raw parts and episodes and what its standing block already sent.
	Session string
	// Preset is a preset given for this session from outside (the
	// CAIRN_PRESET environment variable of the client); it is stored.
	Preset            string
	Subagent, OneShot bool
	Channel           recall.Channel
	// Start marks a session's first request (its SessionStart): a preset
	// waiting in the directory is taken for it.
	Start bool
	// Later, when set, is handed the receipt's write instead of the block
	// waiting for it; the caller runs it once the block is on its way (a
	// resident process, after answering the hook) and must run it. The
	// session's next reads of its receipts wait for it.
	Later func(save func() error) `json:"-"`
}

// RecallResult is the block and its receipt.
type RecallResult struct {
	Block    recall.Block    `json:"block"`
	Decision recall.Decision `json:"decision"`
	Receipt  *memory.Receipt `json:"receipt,omitempty"`
	// ReceiptError says why the receipt was not recorded; the block stands.
	ReceiptError string       `json:"receipt_error,omitempty"`
	Place        memory.Place `json:"place"`
}

// Standing builds the block shown at a session's start: the rules the user
// set, where work in this place left off, what changed lately, and the
// vault summary. It is byte-identical while memory is unchanged.
func (e *Engine) Standing(ctx context.Context, req RecallRequest) (RecallResult, error) {
	return e.recall(ctx, req, recall.Standing, nil)
}

// Recall builds the block for one request: what matches it, minus what
// the session's standing block already sent.
func (e *Engine) Recall(ctx context.Context, req RecallRequest) (RecallResult, error) {
	return e.recall(ctx, req, recall.Request, nil)
}

// RecallFirst is Recall for a client that recalls on a session's first
// request only: a session that already had a request block gets none and
// already is true. The session's receipts are read once, for that and for
// what its standing block already sent (a hook read them twice).
func (e *Engine) RecallFirst(ctx context.Context, req RecallRequest) (res RecallResult, already bool, err error) {
	// Receipts owed by earlier blocks land first; waiting for them with the
	// writer pinned would keep them from it.
	if err := e.later.wait(ctx); err != nil {
		return res, false, err
	}
	ctx, release := e.pinReads(ctx)
	defer release()
	var rs []memory.Receipt
	if req.Session != "" {
		if rs, err = e.store.Receipts(ctx, e.acct, req.Provider, req.Session, sentReceipts); err != nil {
			return res, false, err
		}
		for _, r := range rs[:min(len(rs), firstOnlyReceipts)] {
			if r.Kind == string(recall.Request) {
				return res, true, nil
			}
		}
	}
	if rs == nil {
		rs = []memory.Receipt{}
	}
	res, err = e.recall(ctx, req, recall.Request, rs)
	return res, false, err
}

// sentReceipts is how many of a session's newest receipts say what it was
// already sent; firstOnlyReceipts how many of them say whether it had a
// request block.
const (
	sentReceipts      = 50
	firstOnlyReceipts = 20
)

// recall builds a block; receipts, when not nil, are the session's newest
// receipts already read.
func (e *Engine) recall(ctx context.Context, req RecallRequest, kind recall.Kind, receipts []memory.Receipt) (RecallResult, error) {
	var res RecallResult
	if kind == recall.Request && receipts == nil && req.Session != "" {
		if err := e.later.wait(ctx); err != nil {
			return res, err
		}
	}
	ctx, release := e.pinReads(ctx)
	defer release()
	cfg, _, err := e.Effective(ctx)
	if err != nil {
		return res, err
	}
	if req.Place != nil {
		res.Place = *req.Place
	} else {
		if req.Cwd == "" {
			return res, memory.Errorf(memory.CodeInvalid, "recall needs a place: give a directory (--cwd)")
		}
		if res.Place, err = e.resolve(req.Cwd); err != nil {
			return res, err
		}
	}
	preset, err := e.sessionPreset(ctx, req, res.Place)
	if err != nil {
		return res, err
	}
	if req.Channel == "" {
		req.Channel = recall.HookContext
	}
	m := cfg.Memory
	res.Decision = recall.Decide(recall.Global{Enabled: m.Enabled, Capture: m.Capture, Recall: m.Recall},
		recall.Session{Provider: req.Provider, Preset: preset, Subagent: req.Subagent, OneShot: req.OneShot}, req.Channel)
	if !res.Decision.Read {
		res.Block = recall.Block{Status: recall.StatusOff}
		return res, nil
	}
	sessionID := int64(0)
	if req.Session != "" {
		if sessionID, err = e.store.SessionID(ctx, e.acct, req.Provider, req.Session); err != nil {
			return res, err
		}
	}
	var lines []recall.Line
	var items []memory.ReceiptItem
	g := gatherer{e: e, tz: location(cfg.Recall.TimeZone), seen: map[string]bool{}}
	if kind == recall.Standing {
		err = g.standing(ctx, res.Place, sessionID)
	} else {
		if err := g.skipSent(ctx, req, receipts); err != nil {
			return res, err
		}
		err = g.request(ctx, req.Query, res.Place, sessionID)
	}
	if err != nil {
		// Memory that cannot be read is said so, not hidden: the agent is
		// told the read was unavailable.
		res.Block = recall.Render(nil, recall.Options{Kind: kind, MaxChars: cfg.Recall.MaxChars})
		res.Block.Status = recall.StatusUnavailable
		return res, err
	}
	lines, items = g.lines, g.items
	opts := recall.Options{Kind: kind, MaxChars: cfg.Recall.MaxChars, Searches: 2}
	if kind == recall.Request {
		opts.BudgetTokens = cfg.Recall.BudgetTokens
	} else {
		opts.Summary = e.summary()
	}
	res.Block = recall.Render(lines, opts)
	if res.Block.Text == "" {
		return res, nil
	}
	kept := map[string]bool{}
	for _, l := range res.Block.Lines {
		kept[l.Ref] = true
	}
	r := memory.Receipt{Provider: req.Provider, SessionRef: req.Session, Kind: string(kind), Request: req.Query,
		RequestKey: RequestKey(req.Query), Status: string(res.Block.Status), Text: res.Block.Text, Tokens: res.Block.Tokens}
	for _, it := range items {
		if kept[it.Ref] {
			r.Items = append(r.Items, it)
		}
	}
	if r.Items == nil {
		r.Items = []memory.ReceiptItem{}
	}
	if req.Session == "" && len(r.Items) == 0 {
		res.Receipt = &r
		return res, nil
	}
	// The block is what the agent waits for; the receipt must not hold it
	// hostage. A background round may hold the store's write lock for a
	// while: past receiptWait the block goes out unrecorded.
	save := func(ctx context.Context) (int64, error) {
		sctx, cancel := context.WithTimeout(ctx, receiptWait)
		defer cancel()
		return e.store.SaveReceipt(sctx, e.acct, r)
	}
	if req.Later != nil {
		// The write waits for the block to be sent, on a context of its
		// own: the request's may end with the answer.
		e.later.add()
		wctx := context.WithoutCancel(ctx)
		req.Later(func() error {
			defer e.later.done()
			if _, err := save(wctx); err != nil {
				return fmt.Errorf("receipt not saved: %w", err)
			}
			return nil
		})
		res.Receipt = &r
		return res, nil
	}
	id, err := save(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.ReceiptError = "receipt not saved: " + err.Error()
		return res, nil
	}
	r.ID = id
	res.Receipt = &r
	return res, nil
}

// ReadPinner is a store that can serve one caller's run of reads from a
// connection whose cache outlives the process's own writes (SQLite: the
// writer's). A block is some hundreds of page reads, which otherwise
// start cold after every receipt the process writes.
type ReadPinner interface {
	// PinReads returns ctx marked for the run and its release; a store
	// that is busy returns ctx as it was. The marked ctx belongs to the
	// calling goroutine until released.
	PinReads(ctx context.Context) (context.Context, func())
}

func (e *Engine) pinReads(ctx context.Context) (context.Context, func()) {
	if p, ok := e.store.(ReadPinner); ok {
		return p.PinReads(ctx)
	}
	return ctx, func() {}
}

// receiptWait bounds how long a block waits to record its receipt.
const receiptWait = 300 * time.Millisecond

// RequestKey fingerprints a request, so its receipt can find its turn
// once the transcript is imported.
func RequestKey(q string) string {
	if strings.TrimSpace(q) == "" {
		return ""
	}
	h := sha256.Sum256([]byte(strings.Join(strings.Fields(q), " ")))
	return hex.EncodeToString(h[:12])
}

// sessionPreset finds the preset in force: one given from outside (and
// then stored), the session's stored one, or one waiting in the place for
// the next session to start there.
func (e *Engine) sessionPreset(ctx context.Context, req RecallRequest, p memory.Place) (recall.Preset, error) {
	if req.Preset != "" {
		pr, err := recall.ParsePreset(req.Preset)
		if err != nil {
			return "", err
		}
		if req.Session != "" {
			if err := e.store.SetSessionPreset(ctx, e.acct, req.Provider, req.Session, string(pr)); err != nil {
				return "", err
			}
		}
		return pr, nil
	}
	if req.Session != "" {
		s, err := e.store.SessionPreset(ctx, e.acct, req.Provider, req.Session)
		if err != nil {
			return "", err
		}
		if s != "" {
			return recall.Preset(s), nil
		}
	}
	if req.Start && p.Worktree != "" {
		s, err := e.store.TakePlacePreset(ctx, e.acct, p.Worktree)
		if err != nil || s == "" {
			return "", err
		}
		if req.Session != "" {
			if err := e.store.SetSessionPreset(ctx, e.acct, req.Provider, req.Session, s); err != nil {
				return "", err
			}
		}
		return recall.Preset(s), nil
	}
	return "", nil
}

// SessionPolicy reads the preset a session runs under.
func (e *Engine) SessionPolicy(ctx context.Context, provider memory.Provider, session string) (recall.Preset, error) {
	s, err := e.store.SessionPreset(ctx, e.acct, provider, session)
	return recall.Preset(s), err
}

// SetSessionPreset sets a running session's preset.
func (e *Engine) SetSessionPreset(ctx context.Context, provider memory.Provider, session, preset string) (recall.Preset, error) {
	p, err := recall.ParsePreset(preset)
	if err != nil {
		return "", err
	}
	return p, e.store.SetSessionPreset(ctx, e.acct, provider, session, string(p))
}

// SetPlacePreset keeps a preset for the next session started in cwd.
func (e *Engine) SetPlacePreset(ctx context.Context, cwd, preset string) (memory.Place, recall.Preset, error) {
	p, err := recall.ParsePreset(preset)
	if err != nil {
		return memory.Place{}, "", err
	}
	place, err := e.resolve(cwd)
	if err != nil {
		return place, "", err
	}
	return place, p, e.store.SetPlacePreset(ctx, e.acct, place.Worktree, string(p))
}

// Receipts lists receipts, newest first.
func (e *Engine) Receipts(ctx context.Context, provider memory.Provider, session string, limit int) ([]memory.Receipt, error) {
	if err := e.later.wait(ctx); err != nil {
		return nil, err
	}
	return e.store.Receipts(ctx, e.acct, provider, session, limit)
}

// summary is the vault summary for the standing block's slot; the vault
// fills it.
func (e *Engine) summary() string {
	if e.vaultSummary == nil {
		return ""
	}
	return e.vaultSummary()
}

func location(name string) *time.Location {
	if name == "" || name == "Local" {
		return time.Local
	}
	if l, err := time.LoadLocation(name); err == nil {
		return l
	}
	return time.UTC
}

// gatherer collects a block's lines and receipt items.
type gatherer struct {
	e     *Engine
	tz    *time.Location
	lines []recall.Line
	items []memory.ReceiptItem
	seen  map[string]bool // refs already sent (standing) or added
}

func (g *gatherer) add(l recall.Line, it memory.ReceiptItem) {
	if g.seen[l.Ref] {
		return
	}
	g.seen[l.Ref] = true
	it.Ref, it.Section, it.Score = l.Ref, sectionName(l.Section), l.Score
	g.lines = append(g.lines, l)
	g.items = append(g.items, it)
}

func sectionName(s recall.Section) string {
	return [...]string{"rules", "notes", "facts", "changes", "history", "work", "excerpts", "profile"}[s]
}

func (g *gatherer) when(t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return t.In(g.tz).Format("2006-01-02 15:04 MST")
}

func (g *gatherer) day(t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return t.In(g.tz).Format("2006-01-02")
}

// skipSent marks what this session's standing block already sent, from
// its receipts (read here when rs is nil).
func (g *gatherer) skipSent(ctx context.Context, req RecallRequest, rs []memory.Receipt) error {
	if req.Session == "" {
		return nil
	}
	if rs == nil {
		var err error
		if rs, err = g.e.store.Receipts(ctx, g.e.acct, req.Provider, req.Session, sentReceipts); err != nil {
			return err
		}
	}
	for _, r := range rs {
		if r.Kind != string(recall.Standing) {
			continue
		}
		for _, it := range r.Items {
			g.seen[it.Ref] = true
		}
	}
	return nil
}

// statementLine turns a statement into a line of the right section.
func (g *gatherer) statementLine(s memory.Statement, score float64) recall.Line {
	l := recall.Line{Ref: statementRef(s), Score: score, Pinned: s.Pinned, Inferred: s.Tier == memory.TierInferred}
	switch {
	case s.Kind == memory.KindNote && isRule(s):
		l.Section, l.Text = recall.Rules, s.Object
	case s.Kind == memory.KindNote:
		l.Section, l.Text = recall.Notes, s.Object
	case s.Kind == memory.KindEvent:
		l.Section, l.Text = recall.Notes, fmt.Sprintf("%s · %s: %s (on %s)", s.Subject, s.Predicate, s.Object, g.when(s.ValidAt))
	default:
		l.Section, l.Text = recall.Facts, fmt.Sprintf("%s · %s = %s (valid since %s)", s.Subject, s.Predicate, s.Object, g.when(s.ValidAt))
	}
	return l
}

// isRule: the rules the user set are asserted constraints and
// preferences (and anything pinned), in the user's own words.
func isRule(s memory.Statement) bool {
	if s.Pinned {
		return true
	}
	return s.Tier == memory.TierAsserted && (s.Class == memory.ClassPreference || s.Class == memory.ClassConvention)
}

func statementRef(s memory.Statement) string {
	if s.Kind == memory.KindNote {
		return fmt.Sprintf("n%d", s.ID)
	}
	return fmt.Sprintf("f%d", s.ID)
}

func (g *gatherer) addStatement(s memory.Statement, score float64) {
	g.add(g.statementLine(s, score), memory.ReceiptItem{Layer: memory.L1, ID: s.ID, Category: s.Category, Evidence: s.Evidence, Statement: true})
}

// addChange shows a closed row with what replaced it.
func (g *gatherer) addChange(old memory.Statement, repl *memory.Statement, score float64) {
	to := "(closed)"
	if repl != nil {
		to = repl.Object
	}
	l := recall.Line{Ref: statementRef(old), Section: recall.Changes, Score: score,
		Text: fmt.Sprintf("%s · %s: %s → %s on %s", old.Subject, old.Predicate, old.Object, to, g.when(old.InvalidAt))}
	g.add(l, memory.ReceiptItem{Layer: memory.L1, ID: old.ID, Category: old.Category})
}

// addHistory shows a closed session-state row as ✗ INVALID history.
func (g *gatherer) addHistory(s memory.Statement, score float64) {
	l := recall.Line{Ref: statementRef(s), Section: recall.History, Score: score,
		Text: fmt.Sprintf("%s · %s = %s (%s → %s)", s.Subject, s.Predicate, s.Object, g.day(s.ValidAt), g.day(s.InvalidAt))}
	g.add(l, memory.ReceiptItem{Layer: memory.L1, ID: s.ID, Category: s.Category})
}

func (g *gatherer) addEpisode(ep memory.Episode, score float64) {
	l := recall.Line{Ref: fmt.Sprintf("e%d", ep.ID), Section: recall.Work, Score: score, Pinned: ep.Pinned,
		Text: fmt.Sprintf("%s: %s", g.day(ep.At), ep.Summary)}
	g.add(l, memory.ReceiptItem{Layer: memory.L2, ID: ep.ID,
		Evidence: []memory.Evidence{{SessionID: ep.SessionID, SessionRef: ep.SessionRef, TurnID: ep.TurnID, TurnSeq: ep.TurnSeq, PartSeq: ep.FirstPart}}})
}

// standing gathers the standing block's rows.
func (g *gatherer) standing(ctx context.Context, p memory.Place, sessionID int64) error {
	e := g.e
	see := memory.SightOf(p, memory.RungEverywhere)
	// The store picks the rules, in the block's order (pinned first, then
	// by confidence, oldest first), up to the limit: a large store holds
	// thousands of current notes, and reading each to pick a dozen was a
	// large part of a session's start.
	var rules []memory.Statement
	if limit := e.cfg.Recall.L1Limit; limit > 0 {
		var err error
		rules, err = e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: []memory.Kind{memory.KindNote}, Sight: &see, Current: true,
			Rules: true, Limit: limit})
		if err != nil {
			return err
		}
	}
	// Evidence is read for the rules the block shows only (their receipt
	// names the turns they came from), not for every note in sight.
	if err := e.withEvidence(ctx, rules); err != nil {
		return err
	}
	for i, n := range rules {
		g.addStatement(n, 1-float64(i)*0.01)
	}
	// Where work in this place left off: the session-state facts now,
	// their recent history, and the last episodes of earlier sessions.
	// Current rows and the newest closed ones are read apart: a place
	// busy for months holds thousands of closed session-state rows, of
	// which the block shows three.
	state, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact},
		Predicates: temporal.SessionStatePredicates(), Sight: &see, Live: true, Current: true})
	if err != nil {
		return err
	}
	closed, err := g.closedState(ctx, &see, standingHistory)
	if err != nil {
		return err
	}
	// What changed lately comes first; older closed session state is
	// history.
	recent, err := e.recentChanges(ctx, []memory.Kind{memory.KindFact, memory.KindEvent}, &see)
	if err != nil {
		return err
	}
	for i, c := range recent {
		if c.Old.Tier != memory.TierNone {
			g.addChange(c.Old, c.New, 0.6-float64(i)*0.01)
		}
	}
	for _, s := range state {
		if s.Tier != memory.TierNone {
			g.addStatement(s, 0.8)
		}
	}
	for i, s := range closed {
		g.addHistory(s, 0.5-float64(i)*0.01)
	}
	eps, err := e.store.LastEpisodes(ctx, e.acct, p.Worktree, sessionID, 2)
	if err != nil {
		return err
	}
	for i, ep := range eps {
		g.addEpisode(ep, 0.55-float64(i)*0.01)
	}
	return nil
}

// standingHistory is how many closed session-state rows a standing block
// shows.
const standingHistory = 3

// closedState returns the n session-state facts in sight that stopped
// being true most recently (rows without a tier left out), newest first.
func (g *gatherer) closedState(ctx context.Context, see *memory.Sight, n int) ([]memory.Statement, error) {
	f := memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact}, Predicates: temporal.SessionStatePredicates(),
		Sight: see, Live: true, Closed: true, ByInvalid: true, Limit: n + 5}
	for {
		rows, err := g.e.store.Statements(ctx, g.e.acct, f)
		if err != nil {
			return nil, err
		}
		var out []memory.Statement
		for _, s := range rows {
			if s.Tier != memory.TierNone && len(out) < n {
				out = append(out, s)
			}
		}
		if len(out) == n || len(rows) < f.Limit {
			return out, nil
		}
		f.Limit *= 4 // untiered rows took the places: read further
	}
}

// request gathers the rows that match a request.
func (g *gatherer) request(ctx context.Context, q string, p memory.Place, sessionID int64) error {
	e := g.e
	// Raw excerpts are shown only when the request asks about earlier work;
	// otherwise the raw layer, by far the largest, is not searched at all.
	excerpts := recall.AsksAboutEarlierWork(q)
	layers := []memory.Layer{memory.L1, memory.L2, memory.L3}
	if excerpts {
		layers = append(layers, memory.L0)
	}
	res, err := e.Search(ctx, SearchRequest{Query: q, Place: &p, ExcludeSession: sessionID, Layers: layers, Limit: 60})
	if err != nil {
		return err
	}
	var l2, l0, l3 int
	cfg := e.cfg.Recall
	shown, err := g.shownStatements(ctx, res.Hits, cfg.L1Limit)
	if err != nil {
		return err
	}
	var slots []memory.Statement
	for _, h := range res.Hits {
		switch h.Layer {
		case memory.L1:
			st, ok := shown[h.ID]
			if !ok {
				continue
			}
			g.addStatement(st, h.Score)
			if st.Kind == memory.KindFact {
				slots = append(slots, st)
			}
		case memory.L2:
			if l2 >= cfg.L2Limit {
				continue
			}
			ep, err := e.store.Episode(ctx, e.acct, h.ID)
			if err != nil {
				return err
			}
			if g.seen[fmt.Sprintf("e%d", ep.ID)] {
				continue
			}
			g.addEpisode(ep, h.Score)
			l2++
		case memory.L0:
			if !excerpts || l0 >= cfg.L0Limit {
				continue
			}
			l := recall.Line{Ref: fmt.Sprintf("p%d", h.ID), Section: recall.Excerpts, Score: h.Score,
				Text: fmt.Sprintf("%s session %s turn %d (%s): %s", h.Provider, shortRef(h.SessionRef), h.TurnSeq, g.day(h.Time), h.Text)}
			g.add(l, memory.ReceiptItem{Layer: memory.L0, ID: h.ID,
				Evidence: []memory.Evidence{{SessionID: h.SessionID, SessionRef: h.SessionRef, TurnID: h.TurnID, TurnSeq: h.TurnSeq, PartSeq: h.PartSeq}}})
			l0++
		case memory.L3:
			if l3 >= cfg.L3Limit {
				continue
			}
			g.add(recall.Line{Ref: fmt.Sprintf("l%d", h.ID), Section: recall.Profile, Score: h.Score, Text: h.Text},
				memory.ReceiptItem{Layer: memory.L3, ID: h.ID})
			l3++
		}
	}
	// For the facts shown: what replaced what lately, and the history of
	// session-state slots.
	if len(slots) > 0 {
		if err := g.slotHistory(ctx, p, slots); err != nil {
			return err
		}
	}
	return nil
}

// shownStatements reads, with their evidence and in one batch, the
// statements a request block takes from hits: the first limit the
// session has not been shown yet. Read one by one (two queries each, up
// to 24 a block), they cost a resident hook's answer about 0.6 ms at 1M
// parts (BENCHMARKS.md, hook, tenth pass).
func (g *gatherer) shownStatements(ctx context.Context, hits []rank.Scored, limit int) (map[int64]memory.Statement, error) {
	var ids []int64
	for _, h := range hits {
		if len(ids) >= limit {
			break
		}
		if h.Layer == memory.L1 && h.Statement != nil && !g.seen[statementRef(*h.Statement)] {
			ids = append(ids, h.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	sts, err := g.e.store.Statements(ctx, g.e.acct, memory.StatementFilter{IDs: ids, Evidence: true})
	if err != nil {
		return nil, err
	}
	out := make(map[int64]memory.Statement, len(sts))
	for _, st := range sts {
		out[st.ID] = st
	}
	return out, nil
}

// slotHistory adds, for facts shown, their slot's recent changes and —
// for session-state predicates — their closed rows as ✗ INVALID history.
func (g *gatherer) slotHistory(ctx context.Context, p memory.Place, shown []memory.Statement) error {
	e := g.e
	see := memory.SightOf(p, memory.RungEverywhere)
	preds := map[string]bool{}
	var list []string
	for _, s := range shown {
		if !preds[s.Predicate] {
			preds[s.Predicate] = true
			list = append(list, s.Predicate)
		}
	}
	slot := map[string]bool{}
	var slots []string
	for _, s := range shown {
		if !slot[s.Slot()] {
			slot[s.Slot()] = true
			slots = append(slots, s.Slot())
		}
	}
	// Only the shown slots' rows are read (a row's replacement is in its
	// slot): the store seeks each predicate and slot together, where the
	// predicates alone selected every subject's rows. The predicates stay
	// in the filter, since by slot alone SQLite may walk that index on
	// the account (BENCHMARKS.md, recall block, fourth pass).
	rows, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact}, Predicates: list,
		Slots: slots, Sight: &see, Live: true})
	if err != nil {
		return err
	}
	byID := map[int64]memory.Statement{}
	var mine []memory.Statement
	for _, r := range rows {
		byID[r.ID] = r
		if slot[r.Slot()] && r.Tier != memory.TierNone {
			mine = append(mine, r)
		}
	}
	for i, c := range temporal.RecentChanges(mine, e.now(), e.cfg.Recall.RecentWindow.D(), e.cfg.Recall.RecentLimit) {
		var repl *memory.Statement
		if n, ok := byID[c.ReplacedBy]; ok {
			repl = &n
		}
		g.addChange(c, repl, 0.5-float64(i)*0.01)
	}
	var closed []memory.Statement
	for _, r := range mine {
		if temporal.SessionState(r.Predicate) && !r.Current() && !r.InvalidAt.IsZero() {
			closed = append(closed, r)
		}
	}
	sort.SliceStable(closed, func(i, j int) bool { return closed[i].InvalidAt.After(closed[j].InvalidAt) })
	for i, r := range closed {
		if i >= 3 {
			break
		}
		g.addHistory(r, 0.4-float64(i)*0.01)
	}
	return nil
}

func shortRef(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

// withEvidence fills in the evidence of rows read without it.
func (e *Engine) withEvidence(ctx context.Context, rows []memory.Statement) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	full, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{IDs: ids, Evidence: true})
	if err != nil {
		return err
	}
	by := make(map[int64][]memory.Evidence, len(full))
	for _, f := range full {
		by[f.ID] = f.Evidence
	}
	for i := range rows {
		rows[i].Evidence = by[rows[i].ID]
	}
	return nil
}

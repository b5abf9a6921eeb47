package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// consolidateLease is the one lease phase 2 runs under, across every
// process sharing the store.
const consolidateLease = "consolidate"

// Phase2Report says what one consolidation pass did for one version.
type Phase2Report struct {
	Version    string       `json:"version"`
	Ran        bool         `json:"ran"`
	Why        string       `json:"why,omitempty"` // why it did not run
	Mode       distill.Mode `json:"mode,omitempty"`
	Mirrored   int          `json:"mirrored"`  // extension files written or removed
	Pruned     int          `json:"pruned"`    // extractions unused too long
	Published  int          `json:"published"` // recaps on disk after publishing
	Unlisted   int          `json:"unlisted"`  // recaps removed, out of the selection
	Changes    int          `json:"changes"`   // files in the diff consolidation read
	Retracted  int          `json:"retracted"` // statements whose line or note file a person deleted
	NewNotes   int          `json:"new_notes"`
	Superseded int          `json:"superseded"`
	Dropped    int          `json:"dropped"`
	NoOp       bool         `json:"no_op"`
	Baseline   string       `json:"baseline,omitempty"`
	// Model is what the consolidation model did; nil when none is set
	// or nothing changed.
	Model *ModelPass    `json:"model,omitempty"`
	Took  time.Duration `json:"took_ns"`
}

// setting keys phase 2 keeps in the store, per version.
func lastPassKey(v string) string { return "phase2.last_pass." + v }
func droppedKey(v string) string  { return "phase2.dropped." + v }

// ConsolidationDue reports whether a pass is due for any version in force.
func (e *Engine) ConsolidationDue(ctx context.Context) (bool, error) {
	if !e.HasVault() {
		return false, nil
	}
	vs, err := e.Versions(ctx)
	if err != nil {
		return false, err
	}
	set, err := e.store.Settings(ctx, e.acct)
	if err != nil {
		return false, err
	}
	for _, v := range vs {
		if e.due(set, v) {
			return true, nil
		}
	}
	return false, nil
}

func (e *Engine) due(set map[string]string, v string) bool {
	last, err := time.Parse(time.RFC3339Nano, set[lastPassKey(v)])
	return err != nil || !e.now().Before(last.Add(time.Duration(e.cfg.Phase2.Interval)))
}

// Consolidate is phase 2 for every version in force, serialized across
// processes by a lease renewed by heartbeat: a process that finds the
// lease held reports that and does nothing. Unless force is set, a
// version consolidated less than the interval ago is skipped.
func (e *Engine) Consolidate(ctx context.Context, force bool) ([]Phase2Report, error) {
	if !e.HasVault() {
		return nil, memory.Errorf(memory.CodeUnavailable, "this cairn runs without memory files, so there is nothing to consolidate")
	}
	vs, err := e.Versions(ctx)
	if err != nil {
		return nil, err
	}
	acct := e.acct
	lease := e.leaseLen()
	ok, err := e.store.AcquireLease(ctx, acct, consolidateLease, e.owner, e.now().Add(lease))
	if err != nil {
		return nil, err
	}
	if !ok {
		var out []Phase2Report
		for _, v := range vs {
			out = append(out, Phase2Report{Version: v, Why: "another cairn process is consolidating"})
		}
		return out, nil
	}
	passCtx, cancel := context.WithCancelCause(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { e.heartbeat(passCtx, cancel, lease) })
	defer func() {
		cancel(nil)
		wg.Wait()
		// Released on a context of its own: the caller's may be done.
		_ = e.store.ReleaseLease(context.WithoutCancel(ctx), acct, consolidateLease, e.owner)
	}()

	set, err := e.store.Settings(passCtx, acct)
	if err != nil {
		return nil, err
	}
	var out []Phase2Report
	for _, v := range vs {
		if !force && !e.due(set, v) {
			out = append(out, Phase2Report{Version: v, Why: "consolidated less than " + time.Duration(e.cfg.Phase2.Interval).String() + " ago"})
			continue
		}
		rep, err := e.consolidateVersion(passCtx, v)
		if cause := context.Cause(passCtx); cause != nil && ctx.Err() == nil {
			err = cause
		}
		if err != nil {
			return out, err
		}
		if err := e.store.SetSetting(passCtx, acct, lastPassKey(v), e.now().UTC().Format(time.RFC3339Nano)); err != nil {
			return out, err
		}
		out = append(out, rep)
	}
	return out, nil
}

func (e *Engine) leaseLen() time.Duration {
	return max(time.Duration(e.cfg.Phase2.Lease), time.Second)
}

// errLeaseLost stops a pass whose lease another process took over.
var errLeaseLost = memory.Errorf(memory.CodeConflict, "the consolidation lease was lost (this process stalled past it); the pass stopped before its baseline")

// heartbeat renews the lease every third of its length until ctx ends;
// a lost lease cancels the pass.
func (e *Engine) heartbeat(ctx context.Context, cancel context.CancelCauseFunc, lease time.Duration) {
	t := time.NewTicker(max(lease/3, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			ok, err := e.store.RenewLease(ctx, e.acct, consolidateLease, e.owner, e.now().Add(lease))
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				cancel(err)
				return
			}
			if !ok {
				cancel(errLeaseLost)
				return
			}
		}
	}
}

// consolidateVersion is one pass over one version's folder: mirror the
// extensions, publish, diff, consolidate, apply the hand edits to the
// store, write the files, and make the baseline.
func (e *Engine) consolidateVersion(ctx context.Context, v string) (Phase2Report, error) {
	start := time.Now()
	rep := Phase2Report{Version: v, Ran: true}
	vf, err := e.vault(v)
	if err != nil {
		return rep, err
	}
	if rep.Mirrored, err = e.mirrorExtensions(ctx, vf); err != nil {
		return rep, err
	}
	set, err := e.store.Settings(ctx, e.acct)
	if err != nil {
		return rep, err
	}
	dropped := strings.Fields(set[droppedKey(v)])
	sel, err := e.publish(ctx, vf, v, dropped, &rep)
	if err != nil {
		return rep, err
	}
	in, err := e.consolidateInput(ctx, vf, v, sel, dropped)
	if err != nil {
		return rep, err
	}
	rep.Mode, rep.Changes = in.Mode, len(in.Changes)
	out := distill.Consolidate(in)
	if !out.Edits.Empty() {
		if err := e.applyEdits(ctx, vf, v, in, out.Edits, &rep); err != nil {
			return rep, err
		}
	}
	repaired, err := e.republishNotes(ctx, vf)
	if err != nil {
		return rep, err
	}
	if !out.Edits.Empty() || repaired > 0 {
		// Once more over the store as the edits left it, so the notes
		// they made carry their anchors in the files written now.
		after, err := e.consolidateInput(ctx, vf, v, sel, mergeKeys(dropped, out.Edits.Drop))
		if err != nil {
			return rep, err
		}
		after.Mode, after.Changes = distill.ModeIncremental, nil
		after.Memory, after.Summary, after.Skills = out.Memory, out.Summary, out.Skills
		out2 := distill.Consolidate(after)
		out.Memory, out.Summary, out.Skills = out2.Memory, out2.Summary, out2.Skills
	}
	rep.NoOp = out.NoOp
	if err := e.writeOutput(ctx, vf, v, in, out); err != nil {
		return rep, err
	}
	// The model refines what the deterministic pass wrote, only when
	// something changed: a pass with nothing new costs nothing.
	if e.models.consolidator != nil && (!out.NoOp || len(in.Changes) > 0) {
		rep.Model = e.refineWithModel(ctx, vf, v, in, out)
		if len(rep.Model.Written) > 0 {
			rep.NoOp = false
		}
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	if rep.Baseline, err = vf.Baseline(ctx, baselineMessage(rep)); err != nil {
		return rep, err
	}
	rep.Took = time.Since(start)
	return rep, nil
}

func baselineMessage(r Phase2Report) string {
	return fmt.Sprintf("cairn consolidation (%s, %s)\n\npublished %d recaps, %d unlisted; %d changes read; %d retracted, %d new notes, %d superseded, %d dropped",
		r.Version, r.Mode, r.Published, r.Unlisted, r.Changes, r.Retracted, r.NewNotes, r.Superseded, r.Dropped)
}

// publish prunes extractions unused too long, selects the rest, and
// writes the selection's recaps (and V1's raw_memories.md), removing
// recaps that fell out. A recap a person deleted since the baseline is
// not written back: the diff must show the deletion so it propagates.
func (e *Engine) publish(ctx context.Context, vf VaultFiles, v string, dropped []string, rep *Phase2Report) ([]memory.Extraction, error) {
	acct, now := e.acct, e.now()
	unused := now.Add(-time.Duration(e.cfg.Phase2.UnusedDays))
	var err error
	if rep.Pruned, err = e.store.PruneExtractions(ctx, acct, v, unused); err != nil {
		return nil, err
	}
	xs, err := e.store.Extractions(ctx, acct, v)
	if err != nil {
		return nil, err
	}
	// Recaps a person dropped in an earlier pass stay out for good.
	xs = slices.DeleteFunc(xs, func(x memory.Extraction) bool { return slices.Contains(dropped, "r:"+x.Slug) })
	pre, err := vf.Diff(ctx)
	if err != nil {
		return nil, err
	}
	deleted := map[string]bool{}
	for _, c := range pre {
		if c.Kind == distill.Deleted && strings.HasPrefix(c.Path, "rollout_summaries/") {
			deleted[c.Path] = true
		}
	}
	sel := distill.Select(xs, now, unused, e.cfg.Phase2.MaxExtractions)
	want := map[string]string{}
	var live []memory.Extraction
	for _, x := range sel {
		if p := distill.RecapPath(x.Slug); !deleted[p] {
			want[p] = distill.RecapFile(x)
			live = append(live, x)
		}
	}
	have, err := vf.List(ctx, "rollout_summaries")
	if err != nil {
		return nil, err
	}
	for _, p := range have {
		if _, ok := want[p]; !ok {
			if err := vf.Remove(ctx, p); err != nil && !memory.IsCode(err, memory.CodeNotFound) {
				return nil, err
			}
			rep.Unlisted++
		}
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if err := writeIfChanged(ctx, vf, p, want[p]); err != nil {
			return nil, err
		}
	}
	rep.Published = len(want)
	if v == distill.V1 {
		if err := writeIfChanged(ctx, vf, distill.RawMemoriesPath, distill.RawMemoriesFile(live)); err != nil {
			return nil, err
		}
	}
	// Consolidation gets the selection with the hand-deleted recaps still
	// in it: that is how it learns to drop what rested only on them.
	return sel, nil
}

// consolidateInput reads the vault and the store into distill's input.
func (e *Engine) consolidateInput(ctx context.Context, vf VaultFiles, v string, sel []memory.Extraction, dropped []string) (distill.ConsolidateInput, error) {
	in := distill.ConsolidateInput{Extractions: sel, Dropped: dropped, Version: v, Mode: distill.ModeIncremental,
		SummaryTokens: e.cfg.Vault.SummaryTokens, SummaryBytes: e.cfg.Vault.V2SummaryMax}
	n, err := vf.Baselines(ctx)
	if err != nil {
		return in, err
	}
	if n == 0 {
		in.Mode = distill.ModeInit
	}
	if in.Changes, err = vf.Diff(ctx); err != nil {
		return in, err
	}
	if v == distill.V1 {
		if in.Memory, err = readText(ctx, vf, distill.MemoryPath); err != nil {
			return in, err
		}
	}
	if in.Summary, err = readText(ctx, vf, distill.SummaryPath); err != nil {
		return in, err
	}
	if !distill.SummaryValid(in.Summary) {
		// A summary of another format (or none) is rebuilt wholesale;
		// its lines are not read as a person's edits.
		in.Summary = ""
		in.Changes = slices.DeleteFunc(in.Changes, func(c distill.Change) bool { return c.Path == distill.SummaryPath })
	}
	if in.Skills, err = readTree(ctx, vf, "skills", func(p string) (string, bool) {
		name, ok := strings.CutSuffix(strings.TrimPrefix(p, "skills/"), "/SKILL.md")
		return name, ok && !strings.Contains(name, "/")
	}); err != nil {
		return in, err
	}
	if in.Extensions, err = readTree(ctx, vf, "extensions", func(p string) (string, bool) { return p, true }); err != nil {
		return in, err
	}
	in.Statements, err = e.store.Statements(ctx, e.acct, memory.StatementFilter{Current: true, Evidence: true})
	return in, err
}

// applyEdits writes a person's hand edits into the store: deleted lines
// retract, added lines become notes, changed lines become notes that
// supersede what they replaced, and dropped keys are kept so the lines
// stay out. Note files follow their rows.
func (e *Engine) applyEdits(ctx context.Context, vf VaultFiles, v string, in distill.ConsolidateInput, ed distill.Edits, rep *Phase2Report) error {
	acct := e.acct
	for _, id := range ed.Retract {
		if _, err := e.store.WithdrawStatement(ctx, acct, id, memory.ReasonRetracted); err != nil &&
			!memory.IsCode(err, memory.CodeConflict) && !memory.IsCode(err, memory.CodeNotFound) {
			return err
		}
		rep.Retracted++
		if err := e.removeNoteFiles(ctx, id); err != nil {
			return err
		}
	}
	for _, text := range ed.NewNotes {
		res, err := e.Write(ctx, Write{Draft: memory.Draft{Kind: memory.KindNote, Object: text,
			Evidence: memory.Evidence{Source: "vault"}}, Writer: memory.WriterVault, Place: &memory.Place{}})
		if err != nil {
			if memory.IsCode(err, memory.CodeInvalid) {
				continue // a line shaped like a credential is not stored
			}
			return err
		}
		rep.NewNotes++
		if err := e.publishNote(ctx, res.Statement); err != nil {
			return err
		}
	}
	// A note file a person added without an id is now a row published
	// under its id; the anonymous file goes so the note is not twice.
	for _, c := range in.Changes {
		if c.Kind == distill.Added && strings.HasPrefix(c.Path, notesPrefix) && len(distill.NoteIDs(c.Path, c.After)) == 0 {
			if err := vf.Remove(ctx, c.Path); err != nil && !memory.IsCode(err, memory.CodeNotFound) {
				return err
			}
		}
	}
	for _, s := range ed.Supersede {
		row, err := e.supersede(ctx, s)
		if err != nil {
			if memory.IsCode(err, memory.CodeInvalid) || memory.IsCode(err, memory.CodeNotFound) {
				continue
			}
			return err
		}
		rep.Superseded++
		if err := e.removeNoteFiles(ctx, s.ID); err != nil {
			return err
		}
		if err := e.publishNote(ctx, row); err != nil {
			return err
		}
	}
	if len(ed.Drop) > 0 {
		rep.Dropped = len(ed.Drop)
		set, err := e.store.Settings(ctx, acct)
		if err != nil {
			return err
		}
		keys := mergeKeys(strings.Fields(set[droppedKey(v)]), ed.Drop)
		if err := e.store.SetSetting(ctx, acct, droppedKey(v), strings.Join(keys, " ")); err != nil {
			return err
		}
	}
	return nil
}

// supersede writes a person's new wording of a line as a vault note that
// takes the old row's place: same class, category and scope, the old
// evidence kept so provenance survives the edit, the old row closed as
// superseded by it.
func (e *Engine) supersede(ctx context.Context, s distill.Supersession) (memory.Statement, error) {
	old, err := e.store.Statement(ctx, e.acct, s.ID)
	if err != nil {
		return old, err
	}
	return e.replaceNote(ctx, old, s.Text, memory.WriterVault, "vault")
}

// republishNotes writes the file of every current note a person or agent
// wrote that has none (its publication failed, or the vault is new). It
// runs after the hand edits are applied, so a file a person deleted has
// already retracted its row and is not brought back.
func (e *Engine) republishNotes(ctx context.Context, vf VaultFiles) (int, error) {
	notes, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Current: true, Kinds: []memory.Kind{memory.KindNote}})
	if err != nil {
		return 0, err
	}
	files, err := readTree(ctx, vf, strings.TrimSuffix(notesPrefix, "/"), func(p string) (string, bool) { return p, true })
	if err != nil {
		return 0, err
	}
	has := map[int64]bool{}
	for p, body := range files {
		for _, id := range distill.NoteIDs(p, []byte(body)) {
			has[id] = true
		}
	}
	n := 0
	for _, s := range notes {
		if publishedBy(s.Writer) && !has[s.ID] {
			if err := vf.Write(ctx, NotePath(s.ID), []byte(noteFile(s))); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// writeOutput writes what consolidation returned: the page of the
// version, the summary, and the skills (removing those it dropped).
func (e *Engine) writeOutput(ctx context.Context, vf VaultFiles, v string, in distill.ConsolidateInput, out distill.Output) error {
	if v == distill.V1 {
		if err := writeIfChanged(ctx, vf, distill.MemoryPath, out.Memory); err != nil {
			return err
		}
		for name := range in.Skills {
			if _, ok := out.Skills[name]; !ok {
				if err := vf.Remove(ctx, distill.SkillPath(name)); err != nil && !memory.IsCode(err, memory.CodeNotFound) {
					return err
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(out.Skills)) {
			if err := writeIfChanged(ctx, vf, distill.SkillPath(name), out.Skills[name]); err != nil {
				return err
			}
		}
	}
	return writeIfChanged(ctx, vf, distill.SummaryPath, out.Summary)
}

// mergeKeys returns the sorted union of two key lists.
func mergeKeys(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// readText reads a vault file as text; a missing file is "".
func readText(ctx context.Context, vf VaultFiles, p string) (string, error) {
	b, err := vf.Read(ctx, p)
	if memory.IsCode(err, memory.CodeNotFound) {
		return "", nil
	}
	return string(b), err
}

// readTree reads the files under dir that key accepts, by key.
func readTree(ctx context.Context, vf VaultFiles, dir string, key func(p string) (string, bool)) (map[string]string, error) {
	paths, err := vf.List(ctx, dir)
	if memory.IsCode(err, memory.CodeNotFound) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		k, ok := key(p)
		if !ok {
			continue
		}
		b, err := vf.Read(ctx, p)
		if memory.IsCode(err, memory.CodeNotFound) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, err
		}
		out[k] = string(b)
	}
	return out, nil
}

// writeIfChanged writes a file unless it already holds data, so an
// unchanged pass leaves modification times alone.
func writeIfChanged(ctx context.Context, vf VaultFiles, p, data string) error {
	old, err := vf.Read(ctx, p)
	if err == nil && string(old) == data {
		return nil
	}
	if err != nil && !memory.IsCode(err, memory.CodeNotFound) {
		return err
	}
	return vf.Write(ctx, p, []byte(data))
}

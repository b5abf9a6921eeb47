package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
	"github.com/cairn-memory/cairn/internal/redact"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// Reader reads one client's transcripts; each client importer is wrapped
// in one by the app.
type Reader interface {
	Provider() memory.Provider
	// DefaultRoot is where the client keeps its transcripts.
	DefaultRoot() string
	// Discover lists the sources under root (files, or ids the reader
	// understands).
	Discover(ctx context.Context, root string) ([]string, error)
	// Sniff says whether the first bytes of a file are this client's.
	Sniff(head []byte) bool
	Read(ctx context.Context, source string) (transcript.Result, error)
}

// TranscriptStore keeps L0.
type TranscriptStore interface {
	// SaveSession reports in Changed the turns it added or changed, and
	// the unchanged ones still pending capture; CaptureDone clears that.
	SaveSession(ctx context.Context, acct memory.AccountID, s memory.Session) (memory.SaveCounts, error)
	CaptureDone(ctx context.Context, acct memory.AccountID, turnIDs []int64) error
	// SourceFiles returns the files a source had when last imported and the
	// client that read it.
	SourceFiles(ctx context.Context, acct memory.AccountID, path string) ([]transcript.File, memory.Provider, bool, error)
	SaveSource(ctx context.Context, acct memory.AccountID, path string, provider memory.Provider, files []transcript.File, consumed int64) error
	ListSessions(ctx context.Context, acct memory.AccountID, limit int) ([]memory.SessionSummary, error)
	LoadSession(ctx context.Context, acct memory.AccountID, ref string) (memory.Session, error)
}

// ImportRequest says what to import.
type ImportRequest struct {
	// Provider restricts the import to one client; empty detects the format
	// of each path.
	Provider memory.Provider
	// Paths are files or directories; empty means the client's default
	// location (Provider must then be set).
	Paths []string
	// Force re-reads sources whose files did not change.
	Force bool
	// Progress is called after each source.
	Progress func(done, total int, r SourceReport)
	// LastAnswer is the final answer of the latest turn, as a client's Stop
	// hook reports it: the transcript may not hold it yet.
	LastAnswer string
	// Session names the session LastAnswer belongs to (the client's id).
	Session string
}

// SourceReport says what importing one source did.
type SourceReport struct {
	Source     string          `json:"source"`
	Provider   memory.Provider `json:"provider"`
	Unchanged  bool            `json:"unchanged,omitempty"`
	Sessions   int             `json:"sessions"`
	Turns      int             `json:"turns"`
	Added      int             `json:"turns_added"`
	Updated    int             `json:"turns_updated"`
	Parts      int             `json:"parts_written"`
	Lines      int             `json:"lines"`
	Skipped    map[string]int  `json:"skipped,omitempty"`
	Pending    bool            `json:"pending,omitempty"`
	Redactions int             `json:"redactions"`
	Private    int             `json:"private_sessions,omitempty"` // sessions not stored: their preset is private
	Bytes      int64           `json:"bytes"`
	Error      string          `json:"error,omitempty"`
	Stages     Stages          `json:"stages"`
}

// Stages times the import pipeline, for the benchmark.
type Stages struct {
	Parse  time.Duration `json:"parse_ns"`
	Redact time.Duration `json:"redact_ns"`
	Store  time.Duration `json:"store_ns"`
}

// Add accumulates another source's stage times.
func (s *Stages) Add(o Stages) { s.Parse += o.Parse; s.Redact += o.Redact; s.Store += o.Store }

// Import reads every source the request names into L0. A source that fails
// is reported and the others go on; what was stored stays stored.
func (e *Engine) Import(ctx context.Context, req ImportRequest) ([]SourceReport, error) {
	jobs, err := e.plan(ctx, req)
	if err != nil {
		return nil, err
	}
	// Reading (parse, redact, prepare) runs one source ahead of writing,
	// on the other core: the store is the bottleneck, and it never waits
	// for the next source's parse.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ready := make(chan readSource, 2)
	go func() {
		defer close(ready)
		for _, j := range jobs {
			var rs readSource
			if j.err != nil {
				rs.rep = SourceReport{Source: j.source, Error: describe(j.err)}
				rs.done = true
			} else {
				rs = e.readSource(ctx, j.reader, j.source, req.Force)
				if req.LastAnswer != "" && !rs.done {
					completeLastTurn(rs.res.Sessions, req.Session, req.LastAnswer)
					rs.sessions = nil
					e.prepareAll(&rs)
				}
			}
			select {
			case ready <- rs:
			case <-ctx.Done():
				return
			}
		}
	}()
	var out []SourceReport
	i := 0
	for rs := range ready {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if !rs.done {
			e.writeSource(ctx, &rs)
		}
		out = append(out, rs.rep)
		i++
		if req.Progress != nil {
			req.Progress(i, len(jobs), rs.rep)
		}
	}
	return out, ctx.Err()
}

type importJob struct {
	reader Reader
	source string
	err    error // the source could not be planned; reported, not read
}

// plan expands the request into sources, each with the reader that reads it.
func (e *Engine) plan(ctx context.Context, req ImportRequest) ([]importJob, error) {
	var readers []Reader
	for _, r := range e.readers {
		if req.Provider == "" || r.Provider() == req.Provider {
			readers = append(readers, r)
		}
	}
	if len(readers) == 0 {
		return nil, memory.Errorf(memory.CodeInvalid, "no importer for %q; use claude-code, codex or opencode", req.Provider)
	}
	paths := req.Paths
	if len(paths) == 0 {
		if req.Provider == "" {
			return nil, memory.Errorf(memory.CodeInvalid, "nothing to import: name files or directories, or a client (--claude-code, --codex, --opencode)")
		}
		paths = []string{readers[0].DefaultRoot()}
	}
	var jobs []importJob
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil && len(readers) == 1 {
			// Not a file: the reader may understand it as a root of its own
			// (OpenCode's CLI listing) or as an id (a session to export).
			srcs, derr := readers[0].Discover(ctx, p)
			if derr != nil {
				return nil, memory.Wrap(memory.CodeInvalid, "discover "+string(readers[0].Provider())+" sessions", derr)
			}
			if len(srcs) == 0 {
				srcs = []string{p}
			}
			for _, s := range srcs {
				jobs = append(jobs, importJob{reader: readers[0], source: s})
			}
			continue
		}
		if err != nil {
			return nil, memory.Errorf(memory.CodeInvalid, "cannot import %s: %v", p, err)
		}
		if fi.IsDir() {
			found := 0
			for _, r := range readers {
				srcs, err := r.Discover(ctx, p)
				if err != nil {
					return nil, memory.Wrap(memory.CodeInvalid, "discover "+string(r.Provider())+" sessions in "+p, err)
				}
				for _, s := range srcs {
					// With no client named, every reader scans the directory;
					// keep only the files whose content is this reader's.
					if len(readers) > 1 && !sniffs(r, s) {
						continue
					}
					jobs = append(jobs, importJob{reader: r, source: s})
					found++
				}
			}
			if found == 0 && req.Provider != "" {
				return nil, memory.Errorf(memory.CodeNotFound, "no %s sessions found under %s", req.Provider, p)
			}
			continue
		}
		r, err := sniff(p, readers)
		jobs = append(jobs, importJob{reader: r, source: p, err: err})
	}
	return jobs, nil
}

// sniffs reports whether r recognizes the file at path; sources that are
// not files (ids) are the reader's own by construction.
func sniffs(r Reader, path string) bool {
	head, err := readHead(path)
	if err != nil {
		return !fileExists(path)
	}
	return r.Sniff(head)
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 16<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && n == 0 && err != io.EOF {
		return nil, err
	}
	return head[:n], nil
}

func sniff(path string, readers []Reader) (Reader, error) {
	if len(readers) == 1 {
		return readers[0], nil
	}
	head, err := readHead(path)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInvalid, "open "+path, err)
	}
	for _, r := range readers {
		if r.Sniff(head) {
			return r, nil
		}
	}
	return nil, memory.Errorf(memory.CodeInvalid, "%s is not a transcript cairn recognizes (Claude Code or Codex JSONL, an OpenCode export); name the client with --claude-code, --codex or --opencode", path)
}

// readSource is a source read and prepared, waiting to be written.
type readSource struct {
	reader   Reader
	source   string
	res      transcript.Result
	sessions []memory.Session // prepared: redacted, numbered, placed
	rep      SourceReport
	done     bool // nothing to write (unchanged or failed)
}

// readSource reads one source and prepares its sessions for the store. A
// source whose files did not change since the last import is skipped.
func (e *Engine) readSource(ctx context.Context, r Reader, source string, force bool) readSource {
	rs := readSource{reader: r, source: source, rep: SourceReport{Source: source, Provider: r.Provider()}}
	if abs, err := filepath.Abs(source); err == nil && fileExists(abs) {
		rs.source, rs.rep.Source = abs, abs
	}
	if !force {
		if files, prov, ok, err := e.store.SourceFiles(ctx, e.acct, rs.source); err == nil && ok && prov == r.Provider() && unchanged(files) {
			rs.rep.Unchanged, rs.done = true, true
			return rs
		}
	}
	t0 := time.Now()
	res, err := r.Read(ctx, rs.source)
	rs.rep.Stages.Parse = time.Since(t0)
	rs.rep.Lines, rs.rep.Skipped, rs.rep.Pending = res.Stats.Lines, res.Stats.Skipped, res.Stats.Pending
	for _, f := range res.Files {
		rs.rep.Bytes += f.Size
	}
	if err != nil {
		rs.rep.Error, rs.done = describe(err), true
		return rs
	}
	rs.res = res
	e.prepareAll(&rs)
	return rs
}

// prepareAll prepares a read source's sessions for the store.
func (e *Engine) prepareAll(rs *readSource) {
	places := map[string]memory.Place{}
	t1 := time.Now()
	rs.rep.Redactions = 0
	for _, s := range rs.res.Sessions {
		s.Turns = append([]memory.Turn(nil), s.Turns...)
		for i := range s.Turns {
			s.Turns[i].Parts = append([]memory.Part(nil), s.Turns[i].Parts...)
		}
		rs.rep.Redactions += e.prepareSession(&s, places)
		rs.sessions = append(rs.sessions, s)
	}
	rs.rep.Stages.Redact = time.Since(t1)
}

// completeLastTurn gives the latest turn of a session the answer a Stop
// hook reported, when the transcript lags behind it.
func completeLastTurn(sessions []memory.Session, session, answer string) {
	for i := range sessions {
		s := &sessions[i]
		if (session != "" && s.ExternalID != session) || len(s.Turns) == 0 {
			continue
		}
		t := &s.Turns[len(s.Turns)-1]
		if strings.TrimSpace(t.Outcome) != "" {
			continue
		}
		t.Outcome = answer
		if t.Status == memory.TurnCutShort || t.Status == "" {
			t.Status = memory.TurnCompleted
		}
		t.Parts = append(t.Parts, memory.Part{Role: memory.RoleAssistant, Kind: memory.KindText, Text: answer, Time: t.EndedAt})
	}
}

// writeSource stores a read source, one transaction per session, then
// records the source's state so an unchanged source is skipped next time.
func (e *Engine) writeSource(ctx context.Context, rs *readSource) {
	if err := e.saveSessions(ctx, rs.sessions, &rs.rep); err != nil {
		rs.rep.Error = describe(err)
		return
	}
	if len(rs.res.Files) > 0 {
		if err := e.store.SaveSource(ctx, e.acct, rs.source, rs.reader.Provider(), rs.res.Files, rs.res.Stats.Consumed); err != nil {
			rs.rep.Error = describe(err)
		}
	}
}

// ingest is the one write path of L0: every session, whether read from a
// client's files, sent by a hook or loaded by an evaluation, is redacted,
// numbered, placed and fingerprinted here, then stored in its own
// transaction. rep accumulates counts and stage times.
func (e *Engine) ingest(ctx context.Context, sessions []memory.Session, rep *SourceReport) error {
	places := map[string]memory.Place{}
	t1 := time.Now()
	prepared := make([]memory.Session, 0, len(sessions))
	for _, s := range sessions {
		rep.Redactions += e.prepareSession(&s, places)
		prepared = append(prepared, s)
	}
	rep.Stages.Redact += time.Since(t1)
	return e.saveSessions(ctx, prepared, rep)
}

// saveSessions writes prepared sessions, each in its own transaction, and runs
// capture over the turns each one added or changed.
func (e *Engine) saveSessions(ctx context.Context, sessions []memory.Session, rep *SourceReport) error {
	for _, s := range sessions {
		// A private session stores nothing, not even its transcript; a
		// session that may not learn (its preset, or a subagent's default)
		// keeps its transcript and teaches nothing.
		preset, err := e.store.SessionPreset(ctx, e.acct, s.Provider, s.ExternalID)
		if err != nil {
			return err
		}
		if recall.Preset(preset) == recall.PresetPrivate {
			rep.Private++
			continue
		}
		_, write := recall.Preset(preset).Policies()
		learn := write != recall.Deny && !(write == recall.Inherit && s.Subagent)
		t2 := time.Now()
		c, err := e.store.SaveSession(ctx, e.acct, s)
		rep.Stages.Store += time.Since(t2)
		if err != nil {
			return err
		}
		s.ID = c.SessionID
		if err := e.afterSave(ctx, s, c.Changed); err != nil {
			return err
		}
		if learn {
			if err := e.captureSession(ctx, s, c.Changed); err != nil {
				return err
			}
		}
		// Only now are the turns done: a capture that failed above leaves
		// them pending, and the next save of the session runs it again.
		if len(c.Changed) > 0 {
			ids := make([]int64, 0, len(c.Changed))
			for _, id := range c.Changed {
				ids = append(ids, id)
			}
			if err := e.store.CaptureDone(ctx, e.acct, ids); err != nil {
				return err
			}
		}
		rep.Sessions++
		rep.Turns += len(s.Turns)
		rep.Added += c.TurnsAdded
		rep.Updated += c.TurnsUpdated
		rep.Parts += c.Parts
	}
	return nil
}

// prepareSession redacts every text, strips cairn's own blocks, numbers
// turns and parts, resolves the place and fingerprints each turn. It
// returns the number of redactions.
func (e *Engine) prepareSession(s *memory.Session, places map[string]memory.Place) int {
	red := redact.Default()
	n := 0
	clean := func(t string) string {
		t = memory.StripMarked(t)
		out, k := red.Redact(t)
		n += k
		return out
	}
	s.Title, s.Summary = clean(s.Title), clean(s.Summary)
	if s.Cwd != "" {
		p, ok := places[s.Cwd]
		if !ok {
			p, _ = e.resolve(s.Cwd)
			places[s.Cwd] = p
		}
		s.Place = p
	}
	seq := 0
	for i := range s.Turns {
		t := &s.Turns[i]
		t.Seq = i + 1
		t.Request, t.Outcome = clean(t.Request), clean(t.Outcome)
		// The answer's citation of memory feeds usage counts and is
		// removed from what is stored.
		t.Outcome, t.Cited = cut(t.Outcome, nil)
		if t.Key == "" {
			t.Key = "turn-" + itoa(t.Seq)
		}
		for j := range t.Parts {
			seq++
			p := &t.Parts[j]
			p.Seq = seq
			p.Text = clean(p.Text)
			if p.Kind == memory.KindToolResult && ownTool(p.Tool) {
				// What cairn's own tools returned is memory already; kept,
				// it would come back in later searches as if it were new.
				p.Text = ownToolOutput
			}
			if p.Role == memory.RoleAssistant {
				p.Text, t.Cited = cut(p.Text, t.Cited)
			}
		}
		t.Digest = digest(t)
	}
	return n
}

// ownToolOutput stands in for the output of one of cairn's own tools.
const ownToolOutput = "[output of a cairn memory tool: not kept, it was recalled memory]"

// ownTool reports whether a tool is one of cairn's MCP tools as a client
// names it: mcp__cairn__memory_search (Claude Code, Codex) or
// cairn_memory_search (OpenCode).
func ownTool(name string) bool {
	n := strings.ToLower(name)
	for _, prefix := range []string{"mcp__cairn__", "cairn_", "cairn."} {
		if rest, ok := strings.CutPrefix(n, prefix); ok {
			return strings.HasPrefix(rest, "memory_")
		}
	}
	return false
}

// cut removes cairn's citation tags from text and adds the refs they
// named to cited.
func cut(text string, cited []string) (string, []string) {
	if !strings.Contains(strings.ToLower(text), "<cairn-cite") {
		return text, cited
	}
	clean, c := recall.ParseCitations(text)
	for _, r := range c.Refs {
		ref := r.String()
		if !slices.Contains(cited, ref) {
			cited = append(cited, ref)
		}
	}
	for _, v := range c.Vault {
		if ref := "v:" + v.Path; !slices.Contains(cited, ref) {
			cited = append(cited, ref)
		}
	}
	return clean, cited
}

// digest fingerprints a turn's stored content.
func digest(t *memory.Turn) string {
	h := sha256.New()
	var num [8]byte
	field := func(s string) {
		binary.LittleEndian.PutUint64(num[:], uint64(len(s)))
		h.Write(num[:])
		io.WriteString(h, s)
	}
	field(t.Request)
	field(t.Outcome)
	field(string(t.Status))
	field(t.Model)
	field(itoa(int(t.Flags)) + "|" + itoa(int(t.StartedAt.UnixMilli())) + "|" + itoa(int(t.EndedAt.UnixMilli())))
	for _, p := range t.Parts {
		field(string(p.Role) + "|" + string(p.Kind) + "|" + p.Tool + "|" + itoa(p.Seq))
		if p.IsError {
			field("error")
		}
		field(p.Text)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// unchanged reports whether every recorded file still has its size and
// modification time.
func unchanged(files []transcript.File) bool {
	if len(files) == 0 {
		return false
	}
	for _, f := range files {
		fi, err := os.Stat(f.Path)
		if err != nil || fi.Size() != f.Size || !fi.ModTime().Equal(f.ModTime) {
			return false
		}
	}
	return true
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// describe gives a user-facing line for an error.
func describe(err error) string {
	if m := memory.ErrorMessage(err); m != "" {
		return m
	}
	return err.Error()
}

// SkippedTotal sums the skipped lines.
func (r SourceReport) SkippedTotal() int {
	n := 0
	for _, c := range r.Skipped {
		n += c
	}
	return n
}

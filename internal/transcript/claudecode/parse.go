package claudecode

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/cairn-memory/cairn/internal/transcript"
)

// Options name a stream where its lines do not.
type Options struct {
	// SessionID is used when no line carries a sessionId (the file stem).
	SessionID string
	// AgentID marks the stream as one subagent's transcript
	// (agent-<id>.jsonl): every line is read as that subagent's, and the
	// id is used where a line carries no agentId.
	AgentID string
}

// ignored lists record types that hold nothing for memory. They are read
// and counted as lines, never as skipped.
var ignored = map[string]bool{
	"file-history-snapshot": true,
	"file-history-delta":    true,
	"queue-operation":       true,
	"last-prompt":           true,
	"agent-name":            true,
	"agent-setting":         true,
	"permission-mode":       true,
	"pr-link":               true,
	"tag":                   true,
}

// checkEvery is how many lines pass between checks of the context.
const checkEvery = 4096

// Parse reads one transcript stream (a session file or one subagent
// file) and returns its sessions. It never fails on content: bad lines
// are counted in Stats. It fails only when reading r fails.
func Parse(r io.Reader, opt Options) (transcript.Result, error) {
	res, err := parse(context.Background(), r, opt)
	if err != nil {
		return res, fmt.Errorf("claudecode: parse: %w", err)
	}
	return res, nil
}

func parse(ctx context.Context, r io.Reader, opt Options) (transcript.Result, error) {
	var res transcript.Result
	lr := transcript.NewLineReader(r)
	f := newFile(opt)
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return res, err
			}
		}
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return res, fmt.Errorf("read: %w", err)
		}
		res.Stats.Lines++
		f.add(line, n, &res.Stats)
	}
	for range lr.TooLong() {
		res.Stats.Lines++
		res.Stats.Skip("line too long")
	}
	res.Stats.Consumed = lr.Consumed()
	res.Stats.Pending = lr.Pending()
	res.Sessions = f.sessions()
	return res, nil
}

// file collects the lines of one stream, split by who wrote them.
type file struct {
	opt     Options
	streams []*stream // the main conversation first, then sidechains
	byKey   map[string]*stream
	// Titles apply to the main session.
	customTitle, aiTitle string
	summaries            []summary
}

// summary is a summary record, naming the conversation that ends at leaf.
type summary struct {
	text, leaf string
}

// stream is one conversation in a file: the main one or a subagent's.
type stream struct {
	sidechain bool
	agentID   string
	entries   []*entry
	seen      map[string]bool
}

func newFile(opt Options) *file {
	return &file{opt: opt, byKey: map[string]*stream{}}
}

// add reads one line.
func (f *file) add(line []byte, n int, stats *transcript.Stats) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	rec, err := decodeRecord(line)
	if err != nil {
		stats.Skip("invalid json")
		return
	}
	switch rec.Type {
	case "user", "assistant":
		if rec.Message == nil {
			stats.Skip("missing message")
			return
		}
		if rec.Message.noContent {
			// Counted, but still a link in the parent chain.
			stats.Skip("missing content")
		}
		f.entry(rec, n)
	case "system", "progress", "attachment":
		f.entry(rec, n)
	case "summary":
		if rec.Summary == "" {
			stats.Skip("missing summary")
			return
		}
		f.summaries = append(f.summaries, summary{text: rec.Summary, leaf: rec.LeafUUID})
	case "ai-title":
		if rec.AITitle != "" {
			f.aiTitle = rec.AITitle
		}
	case "custom-title":
		if rec.CustomTitle != "" {
			f.customTitle = rec.CustomTitle
		}
	case "":
		stats.Skip("missing type")
	default:
		if ignored[rec.Type] {
			return
		}
		stats.Skip("unknown type: " + safeName(rec.Type))
		if rec.UUID != "" {
			// Still a link in the parent chain.
			f.entry(rec, n)
		}
	}
}

// entry files a conversational line under its stream, once per uuid.
func (f *file) entry(rec *record, n int) {
	key := ""
	sidechain := rec.IsSidechain || f.opt.AgentID != ""
	if sidechain {
		key = "agent:" + rec.AgentID
		if rec.AgentID == "" {
			key = "agent:" + f.opt.AgentID
		}
	}
	s := f.byKey[key]
	if s == nil {
		s = &stream{sidechain: sidechain, agentID: rec.AgentID, seen: map[string]bool{}}
		if s.agentID == "" {
			s.agentID = f.opt.AgentID
		}
		f.byKey[key] = s
		if sidechain {
			f.streams = append(f.streams, s)
		} else {
			f.streams = append([]*stream{s}, f.streams...)
		}
	}
	if rec.UUID != "" {
		if s.seen[rec.UUID] {
			return // the same line written twice
		}
		s.seen[rec.UUID] = true
	}
	s.entries = append(s.entries, newEntry(rec, n))
}

// safeName keeps a record type in a skip reason only if it looks like a
// type name; reasons must never carry transcript text.
func safeName(s string) string {
	if len(s) > 40 {
		return "?"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return "?"
		}
	}
	return s
}

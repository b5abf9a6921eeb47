package claudecode

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// obj is one JSON object of a synthetic transcript.
type obj map[string]any

// script writes synthetic transcripts line by line, with timestamps one
// second apart and the envelope Claude Code 2.1 writes.
type script struct {
	t       testing.TB
	session string
	clock   time.Time
	lines   []string
	extra   obj // fields added to every record from now on
}

func newScript(t testing.TB) *script {
	return &script{t: t, session: "s1", clock: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
}

// raw appends a line as given.
func (s *script) raw(line string) *script {
	s.lines = append(s.lines, line)
	return s
}

// with sets fields added to every later record (nil to stop).
func (s *script) with(extra obj) *script {
	s.extra = extra
	return s
}

// add appends a record with the envelope filled in where the caller left
// it out.
func (s *script) add(o obj) *script {
	s.clock = s.clock.Add(time.Second)
	for k, v := range s.extra {
		if _, ok := o[k]; !ok {
			o[k] = v
		}
	}
	if _, ok := o["sessionId"]; !ok {
		o["sessionId"] = s.session
	}
	if _, ok := o["timestamp"]; !ok {
		o["timestamp"] = s.clock.Format(time.RFC3339Nano)
	}
	if _, ok := o["cwd"]; !ok {
		o["cwd"] = "/work/app"
	}
	b, err := json.Marshal(o)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.raw(string(b))
}

// user appends a user line; content is a string or a list of blocks.
func (s *script) user(uuid, parent string, content any, extra ...obj) *script {
	o := obj{"type": "user", "uuid": uuid, "parentUuid": nullable(parent),
		"message": obj{"role": "user", "content": content}}
	for _, e := range extra {
		for k, v := range e {
			o[k] = v
		}
	}
	return s.add(o)
}

// asst appends one assistant line of message id.
func (s *script) asst(uuid, parent, id, stop string, blocks ...obj) *script {
	if blocks == nil {
		blocks = []obj{}
	}
	msg := obj{"id": id, "type": "message", "role": "assistant", "model": "claude-test", "content": blocks}
	if stop != "" {
		msg["stop_reason"] = stop
	}
	return s.add(obj{"type": "assistant", "uuid": uuid, "parentUuid": nullable(parent), "message": msg})
}

func (s *script) String() string { return strings.Join(s.lines, "\n") + "\n" }

// parse parses the script and fails the test on error.
func (s *script) parse() transcript.Result {
	s.t.Helper()
	res, err := Parse(strings.NewReader(s.String()), Options{})
	if err != nil {
		s.t.Fatal(err)
	}
	return res
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func text(s string) obj { return obj{"type": "text", "text": s} }

func toolUse(id, name string, input any) obj {
	return obj{"type": "tool_use", "id": id, "name": name, "input": input}
}

func toolResult(id string, content any, isErr bool) obj {
	return obj{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr}
}

// onlySession returns the single session of res.
func onlySession(t testing.TB, res transcript.Result) memory.Session {
	t.Helper()
	if len(res.Sessions) != 1 {
		t.Fatalf("got %d sessions, want 1", len(res.Sessions))
	}
	return res.Sessions[0]
}

// requests lists the requests of a session's turns.
func requests(s memory.Session) []string {
	var out []string
	for _, t := range s.Turns {
		out = append(out, t.Request)
	}
	return out
}

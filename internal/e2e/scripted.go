package e2e

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Step is one move of the scripted model. With Tool set, the model first
// calls that tool with Args and, once the client sends the tool's result,
// answers with Text; without Tool it answers with Text at once.
type Step struct {
	// Tool is the tool's name as the client offers it: "mcp__cairn__memory_search"
	// for Claude Code, "cairn_memory_search" for OpenCode. Codex groups MCP
	// tools in namespace tools ("mcp__cairn" holding "memory_search"); the
	// joined name "mcp__cairn__memory_search" finds them, and the call is
	// made with the namespace and the short name.
	Tool string
	Args json.RawMessage
	Text string
}

// API is the wire protocol a request came in on.
type API string

// The protocols the server speaks.
const (
	Anthropic API = "anthropic" // POST /v1/messages, /v1/messages/count_tokens
	Responses API = "responses" // POST /v1/responses, GET /v1/models
	Other     API = "other"     // anything else: answered 404, still recorded
)

// Request is one request the server received, as it came.
type Request struct {
	Seq    int
	Method string
	Path   string
	API    API
	Body   []byte
	// Side marks a request answered outside the script (no tools offered:
	// a title or a summary), or one that is not a model turn at all.
	Side bool
	// Step is the index of the script step this request answered; -1
	// when it answered none (a side request, or the script had run out).
	Step int
}

// Server is a scripted model on 127.0.0.1. Start one per test.
type Server struct {
	ln  net.Listener
	srv *http.Server

	mu       sync.Mutex
	steps    []Step
	next     int   // the next step to play
	pending  *call // a tool call waiting for its result
	requests []Request
	problems []string
	ids      int
}

// call is a tool call the model made and has not seen the result of.
type call struct {
	id   string
	step int
}

// SideText is the answer to requests outside the script.
const SideText = "Scripted side answer."

// EndText is the answer once the script has run out.
const EndText = "The script is over."

// maxBody bounds a request body: agents send their whole context, which is
// large but not this large.
const maxBody = 64 << 20

// Start listens on 127.0.0.1:0 and serves the script.
func Start(steps ...Step) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("scripted model: listen: %w", err)
	}
	s := &Server{ln: ln, steps: steps}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.serveMessages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.serveCountTokens)
	mux.HandleFunc("POST /v1/responses", s.serveResponses)
	mux.HandleFunc("GET /v1/models", s.serveModels)
	mux.HandleFunc("/", s.serveOther)
	s.srv = &http.Server{Handler: mux}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the server's base address, without /v1.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	copy(out, s.requests)
	return out
}

// Turns returns the model turns: requests to the messages or responses
// endpoints, side requests included.
func (s *Server) Turns() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost && (r.Path == "/v1/messages" || r.Path == "/v1/responses") {
			out = append(out, r)
		}
	}
	return out
}

// Problems lists where the client did not follow the script: a tool that
// was not offered, a tool result that never came, a body that could not
// be read.
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Played reports how many steps have been played to the end.
func (s *Server) Played() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

func (s *Server) problemLocked(format string, args ...any) {
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
}

func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s_scripted%04d", prefix, s.ids)
}

// record reads the body and stores the request; the index it returns is
// where move() notes the step it played.
func (s *Server) record(r *http.Request, api API) ([]byte, int, error) {
	body, err := readBody(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Seq: len(s.requests), Method: r.Method, Path: r.URL.Path, API: api, Body: body, Side: true, Step: -1})
	if err != nil {
		s.problemLocked("%s %s: %v", r.Method, r.URL.Path, err)
	}
	return body, len(s.requests) - 1, err
}

// readBody reads a request body, undoing the compressions clients use.
func readBody(r *http.Request) ([]byte, error) {
	var rd io.Reader = io.LimitReader(r.Body, maxBody)
	switch strings.ToLower(r.Header.Get("Content-Encoding")) {
	case "", "identity":
	case "gzip":
		z, err := gzip.NewReader(rd)
		if err != nil {
			return nil, fmt.Errorf("read gzip body: %w", err)
		}
		defer z.Close()
		rd = z
	case "zstd":
		z, err := zstd.NewReader(rd)
		if err != nil {
			return nil, fmt.Errorf("read zstd body: %w", err)
		}
		defer z.Close()
		rd = z
	default:
		return nil, fmt.Errorf("unknown content encoding %q", r.Header.Get("Content-Encoding"))
	}
	b, err := io.ReadAll(io.LimitReader(rd, maxBody))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	return b, nil
}

// move is what the model does next.
type move struct {
	text string
	// tool is set when the model calls a tool.
	tool *Offered
	args string
	id   string
}

// decide plays the script for one model request and notes the step on
// the recorded request.
func (s *Server) decide(seq int, p parsed) move {
	id := s.newID("call")
	s.mu.Lock()
	defer s.mu.Unlock()
	req := &s.requests[seq]
	if len(p.tools) == 0 {
		return move{text: SideText}
	}
	req.Side = false
	if s.pending != nil {
		st := s.steps[s.pending.step]
		if !p.hasResult(s.pending.id) {
			s.problemLocked("step %d: request %d carries no result for tool call %s (%s)", s.pending.step, seq, s.pending.id, st.Tool)
		}
		req.Step = s.pending.step
		s.next = s.pending.step + 1
		s.pending = nil
		return move{text: st.Text}
	}
	if s.next >= len(s.steps) {
		return move{text: EndText}
	}
	i := s.next
	st := s.steps[i]
	req.Step = i
	if st.Tool == "" {
		s.next++
		return move{text: st.Text}
	}
	t, ok := find(p.tools, st.Tool)
	if !ok {
		s.problemLocked("step %d: tool %q is not among the %d tools offered (%s)", i, st.Tool, len(p.tools), names(p.tools))
		s.next++
		return move{text: st.Text}
	}
	args := "{}"
	if len(st.Args) > 0 {
		args = string(st.Args)
	}
	s.pending = &call{id: id, step: i}
	return move{tool: &t, args: args, id: id}
}

// writeError answers a request the server could not read.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": "invalid_request_error", "message": msg}})
	_, _ = w.Write(b)
}

func (s *Server) serveOther(w http.ResponseWriter, r *http.Request) {
	if _, _, err := s.record(r, Other); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeError(w, http.StatusNotFound, "the scripted model does not serve "+r.Method+" "+r.URL.Path)
}

func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) {
	if _, _, err := s.record(r, Responses); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	// OpenAI's list shape under "data"; Codex reads its own under "models"
	// and is content with none.
	writeJSON(w, map[string]any{
		"object": "list",
		"data":   []map[string]any{{"id": ModelName, "object": "model", "created": 0, "owned_by": "cairn-e2e"}},
		"models": []any{},
	})
}

// ModelName is the model the server says it is.
const ModelName = "scripted-model"

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// errClosed is returned by an event writer once the client has gone.
var errClosed = errors.New("client went away")

// sse writes server-sent events, flushing each one.
type sse struct {
	w   http.ResponseWriter
	err error
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w}
}

func (e *sse) event(name string, data any) {
	if e.err != nil {
		return
	}
	b, err := json.Marshal(data)
	if err != nil {
		e.err = err
		return
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, b); err != nil {
		e.err = errClosed
		return
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// chunks splits an answer into a few deltas, as a model streams it.
func chunks(s string) []string {
	const n = 24
	var out []string
	r := []rune(s)
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	if len(r) > 0 || len(out) == 0 {
		out = append(out, string(r))
	}
	return out
}

package embedtest

import (
	"encoding/base64"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/cairn-memory/cairn/internal/text"
	"github.com/cairn-memory/cairn/internal/vector"
)

// Vectorizer maps a text to a vector of its dimension.
type Vectorizer struct {
	Dim int
	// Synonyms maps a word to the word it stands for: both land on the
	// same dimensions.
	Synonyms map[string]string
}

// Vector is the hashed bag of words of s: each token (the project's own
// tokenizer) adds ±1 to one dimension chosen by its hash.
func (z Vectorizer) Vector(s string) []float32 {
	v := make([]float32, z.Dim)
	syn := z.stems()
	for _, t := range text.Tokens(s) {
		if c, ok := syn[t]; ok {
			t = c
		}
		h := fnv.New64a()
		_, _ = h.Write([]byte(t))
		x := h.Sum64()
		sign := float32(1)
		if x&1 == 1 {
			sign = -1
		}
		v[(x>>1)%uint64(z.Dim)] += sign
	}
	return v
}

// stems keys the synonyms by the tokenizer's stems ("automobile" is
// the token "automobil").
func (z Vectorizer) stems() map[string]string {
	out := make(map[string]string, len(z.Synonyms))
	for w, c := range z.Synonyms {
		wt, ct := text.Tokens(w), text.Tokens(c)
		if len(wt) == 1 && len(ct) == 1 {
			out[wt[0]] = ct[0]
		}
	}
	return out
}

// Request is one call the server received.
type Request struct {
	Model          string
	Inputs         []string
	Dimensions     int
	EncodingFormat string
	Authorization  string
}

// Server is the scripted endpoint. Fail, when set, answers a request
// with that HTTP status instead of vectors.
type Server struct {
	*httptest.Server
	// Models lists the models served, each with its vectorizer.
	Models map[string]Vectorizer

	mu       sync.Mutex
	requests []Request
	fail     int
}

// NewServer starts a server on 127.0.0.1; Close stops it.
func NewServer(models map[string]Vectorizer) *Server {
	s := &Server{Models: models}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	s.Server = httptest.NewServer(mux)
	return s
}

// BaseURL is what a client is configured with.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns the calls so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Inputs counts the texts embedded so far.
func (s *Server) Inputs() int {
	n := 0
	for _, r := range s.Requests() {
		n += len(r.Inputs)
	}
	return n
}

// FailWith makes every request answer status (0: answer normally).
func (s *Server) FailWith(status int) {
	s.mu.Lock()
	s.fail = status
	s.mu.Unlock()
}

type wireRequest struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	Dimensions     int             `json:"dimensions"`
	EncodingFormat string          `json:"encoding_format"`
}

type wireVector struct {
	Object    string `json:"object"`
	Index     int    `json:"index"`
	Embedding any    `json:"embedding"`
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	var req wireRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			apiError(w, http.StatusBadRequest, "input must be a string or a list of strings")
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Model: req.Model, Inputs: inputs, Dimensions: req.Dimensions,
		EncodingFormat: req.EncodingFormat, Authorization: r.Header.Get("Authorization")})
	fail := s.fail
	s.mu.Unlock()
	if fail != 0 {
		apiError(w, fail, "scripted failure")
		return
	}
	z, ok := s.Models[req.Model]
	if !ok {
		apiError(w, http.StatusNotFound, "model "+req.Model+" not found")
		return
	}
	if req.Dimensions > 0 {
		z.Dim = req.Dimensions
	}
	data := make([]wireVector, len(inputs))
	tokens := 0
	for i, in := range inputs {
		if strings.TrimSpace(in) == "" {
			apiError(w, http.StatusBadRequest, "input cannot be an empty string")
			return
		}
		v := z.Vector(in)
		tokens += len(text.Tokens(in))
		var emb any = floats(v)
		if req.EncodingFormat == "base64" {
			emb = base64.StdEncoding.EncodeToString(vector.Encode(v))
		}
		data[i] = wireVector{Object: "embedding", Index: i, Embedding: emb}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens},
	})
}

// floats widens to float64 so JSON carries the exact float32 values.
func floats(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, f := range v {
		out[i] = float64(f)
	}
	return out
}

func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "code": http.StatusText(status)}})
}

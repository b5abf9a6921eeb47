package app

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/remote"
)

// sentRecorder keeps the body and status of every upload a client makes.
type sentRecorder struct {
	mu     sync.Mutex
	next   http.RoundTripper
	bodies [][]byte
	codes  []int
}

func (s *sentRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := s.next.RoundTrip(r)
	if r.URL.Path == "/v1/sessions" && r.Method == http.MethodPost {
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		s.codes = append(s.codes, code)
		s.mu.Unlock()
	}
	return resp, err
}

// TestTranscriptUploadsSendOnlyWhatWasAppended: in remote mode each Stop
// hook uploads the session's transcript. The second upload sends only the
// new turn; when the gateway's copy is not what the client sent (another
// machine uploaded the same file), it answers 409 and the client sends
// the whole file, and nothing is lost either way.
func TestTranscriptUploadsSendOnlyWhatWasAppended(t *testing.T) {
	for _, gs := range gatewayStores() {
		t.Run(gs.name, func(t *testing.T) {
			ctx := context.Background()
			g := newGatewayEnv(t, gs.open(t), gateway.Options{})
			tok := g.account("team", false)
			rec := &sentRecorder{next: http.DefaultTransport}
			rc, err := remote.New(remote.Options{URL: g.url, Token: tok, Transport: rec, StateDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			const id = "bbbbbbbb-2222-4333-8444-555555555555"
			path := filepath.Join(t.TempDir(), id+".jsonl")
			repo := t.TempDir()
			start := time.Now().Add(-time.Hour)
			long := "We keep the ledger in integer cents. " + strings.Repeat("Background detail about the ledger. ", 300)
			turns := []ccTurn{{User: long, Answer: "Understood, cents it is."}}
			upload := func() {
				t.Helper()
				writeLines(t, path, claudeLines(id, repo, start, turns))
				if _, err := rc.Import(ctx, engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{path}}); err != nil {
					t.Fatal(err)
				}
			}
			turnsHeld := func() int {
				t.Helper()
				s, err := rc.Session(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				return len(s.Turns)
			}
			upload()
			turns = append(turns, ccTurn{User: "Add a refund endpoint.", Answer: "Added POST /refunds."})
			upload()
			if n := turnsHeld(); n != 2 {
				t.Fatalf("the gateway holds %d turns, want 2", n)
			}
			if len(rec.bodies) != 2 || rec.codes[1] != http.StatusOK {
				t.Fatalf("uploads %d, codes %v", len(rec.bodies), rec.codes)
			}
			first, second := rec.bodies[0], rec.bodies[1]
			if !bytes.Contains(second, []byte(`"offset":`)) || bytes.Contains(second, []byte("Background detail")) || len(second) >= len(first) {
				t.Fatalf("the second upload (%d bytes after %d) resent the first turn", len(second), len(first))
			}

			// Another machine uploads its own copy under the same name.
			other := claudeLines(id, repo, start.Add(time.Minute), []ccTurn{{User: "A different start.", Answer: "Yes."}})
			g.must(tok, "POST", "/v1/sessions", gateway.TranscriptBody{Provider: memory.ProviderClaudeCode, Name: id + ".jsonl",
				Transcript: strings.Join(other, "\n") + "\n"}, nil)
			turns = append(turns, ccTurn{User: "Document the refund endpoint.", Answer: "Documented it."})
			upload()
			codes := rec.codes[2:]
			if len(codes) != 2 || codes[0] != http.StatusConflict || codes[1] != http.StatusOK {
				t.Fatalf("after the gateway's copy changed: codes %v, want 409 then a whole upload", codes)
			}
			if last := rec.bodies[len(rec.bodies)-1]; bytes.Contains(last, []byte(`"offset":`)) || !bytes.Contains(last, []byte("Background detail")) {
				t.Fatal("the upload after the 409 was not the whole file")
			}
			if n := turnsHeld(); n < 3 {
				t.Fatalf("the gateway holds %d turns after the whole upload, want all 3", n)
			}
		})
	}
}

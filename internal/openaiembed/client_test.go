package openaiembed

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/openaiembed/embedtest"
)

func TestEmbedSpeaksTheWireProtocol(t *testing.T) {
	srv := embedtest.NewServer(map[string]embedtest.Vectorizer{"hash-64": {Dim: 64}})
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.BaseURL(), Model: "hash-64", Key: "sk-test-123"})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/never")
	t.Setenv("OPENAI_API_KEY", "sk-from-environment")
	in := []string{"deploy to render", "run the tests", "deploy to render"}
	got, err := c.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(got[0]) != 64 {
		t.Fatalf("%d vectors of %d", len(got), len(got[0]))
	}
	want := embedtest.Vectorizer{Dim: 64}
	for i := range in {
		w := want.Vector(in[i])
		for j := range w {
			if got[i][j] != w[j] {
				t.Fatalf("text %d dimension %d: %v, want %v", i, j, got[i][j], w[j])
			}
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests for one batch", len(reqs))
	}
	r := reqs[0]
	if r.Model != "hash-64" || len(r.Inputs) != 3 || r.EncodingFormat != "float" || r.Dimensions != 0 {
		t.Fatalf("request: %+v", r)
	}
	if r.Authorization != "Bearer sk-test-123" {
		t.Fatalf("authorization %q: the configured key, never OPENAI_API_KEY", r.Authorization)
	}
}

func TestEmbedAsksForDimensionsAndSendsNoKeyUnasked(t *testing.T) {
	srv := embedtest.NewServer(map[string]embedtest.Vectorizer{"m": {Dim: 64}})
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-from-environment")
	c, _ := New(Options{BaseURL: srv.BaseURL(), Model: "m", Dimensions: 16})
	got, err := c.Embed(context.Background(), []string{"hello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0]) != 16 || srv.Requests()[0].Dimensions != 16 {
		t.Fatalf("dimensions not asked for: %d", len(got[0]))
	}
	if a := srv.Requests()[0].Authorization; a != "" {
		t.Fatalf("a key was sent though none is configured: %q", a)
	}
}

func TestEmbedErrorsNameTheProblem(t *testing.T) {
	srv := embedtest.NewServer(map[string]embedtest.Vectorizer{"m": {Dim: 8}})
	defer srv.Close()
	ctx := context.Background()
	c, _ := New(Options{BaseURL: srv.BaseURL(), Model: "absent"})
	if _, err := c.Embed(ctx, []string{"x"}); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("unknown model: %v", err)
	}
	c, _ = New(Options{BaseURL: srv.BaseURL(), Model: "m"})
	srv.FailWith(http.StatusInternalServerError)
	if _, err := c.Embed(ctx, []string{"x"}); err == nil {
		t.Fatal("a failing server must fail the call")
	}
	srv.FailWith(0)
	if v, err := c.Embed(ctx, nil); err != nil || v != nil {
		t.Fatal("nothing to embed sends nothing")
	}
	if _, err := New(Options{Model: "m"}); err == nil {
		t.Fatal("no base URL must be refused")
	}
}

func TestEmbedTimesOut(t *testing.T) {
	block := make(chan struct{})
	srv := embedtest.NewServer(nil)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block })
	defer srv.Close()
	defer close(block)
	c, _ := New(Options{BaseURL: srv.BaseURL(), Model: "m", Timeout: 50 * time.Millisecond})
	if _, err := c.Embed(context.Background(), []string{"x"}); err == nil {
		t.Fatal("a server that never answers must time out")
	}
}

package tui_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-memory/cairn/internal/tui"
)

// screen is the program's output, which tells once the screen was drawn.
type screen struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	drawn chan struct{}
	once  sync.Once
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.buf.Write(p)
	if strings.Contains(s.buf.String(), "memory manager") && strings.Contains(s.buf.String(), "4 notes") {
		s.once.Do(func() { close(s.drawn) })
	}
	return n, err
}

// TestRunQuits runs the real bubbletea program over a real store: it
// draws the loaded lists, and q typed afterwards ends it.
func TestRunQuits(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	// Only a guard against hanging the test binary, not a speed check.
	ctx, cancel := context.WithTimeout(f.ctx, 2*time.Minute)
	defer cancel()
	in, keys := io.Pipe()
	out := &screen{drawn: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- tui.Run(ctx, f.eng, tui.Options{Cwd: cwd}, in, out, tea.WithWindowSize(100, 30)) }()
	select {
	case <-out.drawn:
	case err := <-done:
		t.Fatalf("the program ended before drawing: %v", err)
	}
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

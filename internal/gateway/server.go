package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Options configures a gateway; zero fields take defaults.
type Options struct {
	Accounts AccountStore
	Open     Opener
	Logger   *slog.Logger
	Version  string
	// UploadDir keeps uploaded transcripts, one folder per account.
	UploadDir string
	// MaxBody bounds a request body (default 1 MiB); MaxUpload bounds a
	// transcript upload (default 64 MiB).
	MaxBody, MaxUpload int64
	// Rate is each token's average requests per second (default 50) and
	// Burst how many it may send at once (default 100); a negative Rate
	// turns limiting off.
	Rate  float64
	Burst int
	// Timeout bounds one request's work (default 30 s; uploads get four
	// times as long).
	Timeout time.Duration
	// WorkEvery is how often the background round runs for each open
	// account (default 1 minute).
	WorkEvery time.Duration
	Now       func() time.Time
}

// Server is the gateway.
type Server struct {
	o       Options
	log     *slog.Logger
	acc     Accounts
	engines *engines
	places  *places
	limit   *limiter
	mux     *http.ServeMux
	wg      sync.WaitGroup
	stop    context.CancelFunc
}

// New builds a gateway; Handler serves it and Start runs its background
// round.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.MaxBody == 0 {
		o.MaxBody = 1 << 20
	}
	if o.MaxUpload == 0 {
		o.MaxUpload = 64 << 20
	}
	if o.Rate == 0 {
		o.Rate = 50
	}
	if o.Burst == 0 {
		o.Burst = 100
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	if o.WorkEvery == 0 {
		o.WorkEvery = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	pl := &places{}
	s := &Server{o: o, log: o.Logger, acc: Accounts{Store: o.Accounts}, places: pl,
		engines: &engines{open: o.Open, places: pl},
		limit:   &limiter{rate: o.Rate, burst: float64(o.Burst), now: o.Now}}
	s.routes()
	return s
}

// Handler serves /v1/ and /mcp.
func (s *Server) Handler() http.Handler { return s.mux }

// Engine returns an account's engine from the gateway's own cache, for
// other front ends the app mounts beside it (the web UI): one engine per
// account, whoever asks.
func (s *Server) Engine(ctx context.Context, acct memory.AccountID) (Engine, error) {
	return s.engines.get(ctx, acct)
}

// call is one authenticated request: its token and its account's engine.
type call struct {
	token memory.Token
	eng   Engine
}

type handler func(w http.ResponseWriter, r *http.Request, c *call) error

// auth ties a request to one account or refuses it before any engine is
// touched; then it applies the token's rate, the body limit and the
// timeout.
func (s *Server) auth(maxBody int64, timeout time.Duration, h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			writeError(w, r, s.log, errNoToken)
			return
		}
		t, err := s.acc.Authenticate(r.Context(), strings.TrimSpace(secret))
		if err != nil {
			if memory.IsCode(err, memory.CodeUnauthorized) {
				err = errNoToken
			}
			writeError(w, r, s.log, err)
			return
		}
		if !s.limit.allow(t.ID) {
			w.Header().Set("Retry-After", "1")
			writeError(w, r, s.log, errTooMany)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		r = r.WithContext(ctx)
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		eng, err := s.engines.get(ctx, t.Account)
		if err != nil {
			writeError(w, r, s.log, err)
			return
		}
		if err := h(w, r, &call{token: t, eng: eng}); err != nil {
			writeError(w, r, s.log, err)
		}
	}
}

func (s *Server) handle(pattern string, h handler) {
	s.mux.Handle(pattern, s.auth(s.o.MaxBody, s.o.Timeout, h))
}

// decode reads a JSON body strictly: an unknown field is a mistake the
// caller should hear about.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return memory.Errorf(memory.CodeInvalid, "the request body is not the JSON this route takes: %v", err)
	}
	return nil
}

// Start runs the background round (promotion, extraction, consolidation)
// for every account until ctx ends or Close is called.
func (s *Server) Start(ctx context.Context) {
	ctx, s.stop = context.WithCancel(ctx)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(s.o.WorkEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.WorkOnce(ctx)
			}
		}
	}()
}

// WorkOnce runs one background round for every account with an open
// engine, and for every other account that has work due: an account
// nobody has called since the gateway started still has its sessions
// extracted and consolidated. A failure is logged and the others go on.
func (s *Server) WorkOnce(ctx context.Context) {
	open := map[memory.AccountID]bool{}
	s.engines.each(func(a memory.AccountID, e Engine) {
		open[a] = true
		if ctx.Err() != nil {
			return
		}
		if _, err := e.WorkOnce(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("background round", "account", a, "err", err)
		}
	})
	accts, err := s.o.Accounts.Accounts(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("background round: list accounts", "err", err)
		}
		return
	}
	for _, a := range accts {
		if open[a.ID] || ctx.Err() != nil {
			continue
		}
		e, err := s.engines.get(ctx, a.ID)
		if err == nil {
			var due bool
			if due, err = e.WorkDue(ctx); err == nil && due {
				_, err = e.WorkOnce(ctx)
			}
		}
		if err != nil && ctx.Err() == nil {
			s.log.Error("background round", "account", a.ID, "err", err)
		}
	}
}

// Close stops the background round and closes every engine.
func (s *Server) Close() error {
	if s.stop != nil {
		s.stop()
	}
	s.wg.Wait()
	return s.engines.close()
}

type callKey struct{}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

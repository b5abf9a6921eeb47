package gateway

import (
	"net/http"
	"strconv"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// routes declares every route in one place.
func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.handle("GET /v1/health", s.health)
	s.handle("POST /v1/recall", s.recall)
	s.handle("POST /v1/search", s.search)

	s.handle("POST /v1/statements", s.assert)
	s.handle("POST /v1/statements/query", s.factQuery)
	s.handle("POST /v1/statements/timeline", s.timeline)
	s.handle("POST /v1/statements/asof", s.asOf)
	s.handle("GET /v1/statements/{id}", s.statement)
	s.handle("POST /v1/statements/{id}/retract", s.retract)
	s.handle("POST /v1/statements/{id}/reopen", s.reopen)
	s.handle("POST /v1/statements/{id}/move", s.move)

	s.handle("POST /v1/notes", s.remember)
	s.handle("GET /v1/notes", s.notes)
	s.handle("POST /v1/notes/{ref}/{change}", s.changeNote)
	s.handle("POST /v1/pending", s.rememberLater)
	s.handle("GET /v1/episodes/{id}", s.episode)
	s.handle("GET /v1/parts/{id}", s.part)

	s.mux.Handle("POST /v1/sessions", s.auth(s.o.MaxUpload, 4*s.o.Timeout, s.upload))
	s.mux.Handle("POST /v1/sessions/opencode", s.auth(s.o.MaxUpload, 4*s.o.Timeout, s.uploadOpenCode))
	s.handle("POST /v1/turns", s.turn)
	s.handle("GET /v1/sessions", s.sessions)
	s.handle("GET /v1/sessions/{ref}", s.session)
	s.handle("GET /v1/receipts", s.receipts)
	s.handle("GET /v1/export", s.export)

	s.handle("GET /v1/vault/read", s.vaultRead)
	s.handle("GET /v1/vault/list", s.vaultList)
	s.handle("GET /v1/vault/grep", s.vaultGrep)
	s.handle("GET /v1/vault/status", s.vaultStatus)

	s.mux.Handle("POST /v1/purge", s.auth(s.o.MaxBody, 10*s.o.Timeout, s.purge))
	// Nothing is deleted by an agent: every DELETE is refused, after the
	// token is checked like any other call.
	s.handle("DELETE /v1/", func(http.ResponseWriter, *http.Request, *call) error { return errRefused })

	s.mux.Handle("/mcp", s.mcpHandler())
}

func (s *Server) health(w http.ResponseWriter, r *http.Request, c *call) error {
	h, err := c.eng.Health(r.Context())
	if err != nil {
		return err
	}
	if !c.token.Operator {
		// Row counts cover every account and the path is the server's:
		// an account's token learns only that the store is sound.
		h.Rows, h.Path = nil, ""
	}
	hl := Health{Status: "ok", Account: c.token.Account, Version: s.o.Version, Store: h,
		Token: TokenInfo{Name: c.token.Name, Hint: c.token.Hint, Operator: c.token.Operator}}
	if accts, err := s.o.Accounts.Accounts(r.Context()); err == nil {
		for _, a := range accts {
			if a.ID == c.token.Account {
				hl.AccountName = a.Name
			}
		}
	}
	writeJSON(w, http.StatusOK, hl)
	return nil
}

func (s *Server) recall(w http.ResponseWriter, r *http.Request, c *call) error {
	var b RecallBody
	if err := decode(r, &b); err != nil {
		return err
	}
	s.places.learn(c.token.Account, b.Place)
	get := c.eng.Recall
	if b.Standing {
		get = c.eng.Standing
	}
	res, err := get(r.Context(), b.request())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) search(w http.ResponseWriter, r *http.Request, c *call) error {
	var b SearchBody
	if err := decode(r, &b); err != nil {
		return err
	}
	s.places.learn(c.token.Account, b.Place)
	res, err := c.eng.Search(r.Context(), b.request())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) receipts(w http.ResponseWriter, r *http.Request, c *call) error {
	q := r.URL.Query()
	limit, err := intParam(q.Get("limit"), 20)
	if err != nil {
		return err
	}
	rs, err := c.eng.Receipts(r.Context(), memory.Provider(q.Get("provider")), q.Get("session"), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(rs))
	return nil
}

func (s *Server) export(w http.ResponseWriter, r *http.Request, c *call) error {
	// JSON lines, streamed: an export can be larger than any body limit.
	w.Header().Set("Content-Type", "application/x-ndjson")
	_, err := c.eng.Export(r.Context(), w)
	return err
}

func (s *Server) purge(w http.ResponseWriter, r *http.Request, c *call) error {
	if !c.token.Operator {
		return memory.Errorf(memory.CodeUnauthorized, "purging needs an operator token (`cairn token create --operator`); agents retract or forget instead")
	}
	counts, err := c.eng.Purge(r.Context())
	if err != nil {
		return err
	}
	s.log.Info("purge", "account", c.token.Account, "token", c.token.ID, "statements", counts.Statements, "episodes", counts.Episodes)
	writeJSON(w, http.StatusOK, counts)
	return nil
}

// idParam reads a numeric path id.
func idParam(r *http.Request, name string) (int64, error) {
	v := r.PathValue(name)
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, memory.Errorf(memory.CodeInvalid, "%q is not an id: give a positive number", v)
	}
	return id, nil
}

func intParam(v string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 10000 {
		return 0, memory.Errorf(memory.CodeInvalid, "%q is not a limit: give a number from 0 to 10000", v)
	}
	return n, nil
}

func boolParam(v string) bool { b, _ := strconv.ParseBool(v); return b }

// nonNil makes an empty list encode as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// refParam reads a note or episode reference ("12", "e12").
func refParam(r *http.Request) (engine.Ref, error) { return engine.ParseRef(r.PathValue("ref")) }

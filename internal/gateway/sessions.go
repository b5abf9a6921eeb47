package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// safeName is a transcript file name kept as the client had it (Claude
// Code and Codex read the session id from it); anything else is hashed.
var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.jsonl$`)

// uploadLocks serializes imports of one uploaded file: a Stop hook and a
// SessionEnd import of the same session may arrive together.
var uploadLocks sync.Map

// upload stores a client's transcript file under the account's folder and
// imports it, as a local Stop hook or `cairn import` would. Text is
// redacted by the import before anything is stored or indexed; the file
// itself is the client's raw transcript, kept only to be re-read when it
// grows.
func (s *Server) upload(w http.ResponseWriter, r *http.Request, c *call) error {
	var b TranscriptBody
	if err := decode(r, &b); err != nil {
		return err
	}
	switch b.Provider {
	case memory.ProviderClaudeCode, memory.ProviderCodex:
	default:
		return memory.Errorf(memory.CodeInvalid, "upload a claude-code or codex transcript (provider %q is not accepted over the API)", b.Provider)
	}
	if strings.TrimSpace(b.Transcript) == "" {
		return memory.Errorf(memory.CodeInvalid, "the transcript is empty")
	}
	if s.o.UploadDir == "" {
		return memory.Errorf(memory.CodeUnavailable, "this gateway keeps no uploads")
	}
	name := filepath.Base(b.Name)
	if !safeName.MatchString(name) {
		h := sha256.Sum256([]byte(b.Name))
		name = hex.EncodeToString(h[:12]) + ".jsonl"
	}
	dir := filepath.Join(s.o.UploadDir, strconv.FormatInt(int64(c.token.Account), 10), string(b.Provider))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return memory.Wrap(memory.CodeInternal, "upload", err)
	}
	path := filepath.Join(dir, name)
	mu, _ := uploadLocks.LoadOrStore(path, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	tmp := path + ".part"
	if err := os.WriteFile(tmp, []byte(b.Transcript), 0o600); err != nil {
		return memory.Wrap(memory.CodeInternal, "upload", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return memory.Wrap(memory.CodeInternal, "upload", err)
	}
	s.places.learn(c.token.Account, b.Place)
	reps, err := c.eng.Import(r.Context(), engine.ImportRequest{Provider: b.Provider, Paths: []string{path},
		LastAnswer: b.LastAnswer, Session: b.Session, Force: true})
	if err != nil {
		return err
	}
	for i := range reps {
		reps[i].Source = name // the gateway's own paths are not the caller's business
	}
	writeJSON(w, http.StatusOK, nonNil(reps))
	return nil
}

func (s *Server) sessions(w http.ResponseWriter, r *http.Request, c *call) error {
	limit, err := intParam(r.URL.Query().Get("limit"), 50)
	if err != nil {
		return err
	}
	ss, err := c.eng.Sessions(r.Context(), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(ss))
	return nil
}

func (s *Server) session(w http.ResponseWriter, r *http.Request, c *call) error {
	ss, err := c.eng.Session(r.Context(), r.PathValue("ref"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ss)
	return nil
}

package gateway

import (
	"bytes"
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
// Both patterns compile on first use: their bounded repeats make large
// programs, and every cairn process (each hook) links this package.
var safeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.jsonl$`) })

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
	case memory.ProviderOpenCode:
		return memory.Errorf(memory.CodeInvalid, "upload an OpenCode session's export to /v1/sessions/opencode")
	default:
		return memory.Errorf(memory.CodeInvalid, "upload a claude-code or codex transcript (provider %q is not accepted over the API)", b.Provider)
	}
	if b.Offset < 0 {
		return memory.Errorf(memory.CodeInvalid, "offset %d is negative", b.Offset)
	}
	if b.Offset == 0 && strings.TrimSpace(b.Transcript) == "" {
		return memory.Errorf(memory.CodeInvalid, "the transcript is empty")
	}
	if err := s.learnAll(c, b.Place, b.Places); err != nil {
		return err
	}
	tail := appendAt{offset: b.Offset, prefix: b.Prefix}
	reps, err := s.keepAndImport(r, c, b.Provider, uploadName(b.Name, safeName(), ".jsonl"), []byte(b.Transcript), b.Session, b.LastAnswer, tail)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, reps)
	return nil
}

// safeExportName is an OpenCode export's file name kept as the client had
// it (the session id, as cairn's client names it).
var safeExportName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.json$`) })

// uploadOpenCode stores one exported OpenCode session (the JSON `opencode
// export` prints) and imports it; a later upload of the same session
// replaces the file and adds only what changed.
func (s *Server) uploadOpenCode(w http.ResponseWriter, r *http.Request, c *call) error {
	var b OpenCodeBody
	if err := decode(r, &b); err != nil {
		return err
	}
	raw := bytes.TrimSpace(b.Export)
	if len(raw) == 0 || raw[0] != '{' {
		return memory.Errorf(memory.CodeInvalid, "\"export\" must be the JSON object `opencode export SESSION` prints")
	}
	if err := s.learnAll(c, b.Place, b.Places); err != nil {
		return err
	}
	reps, err := s.keepAndImport(r, c, memory.ProviderOpenCode, uploadName(b.Name, safeExportName(), ".json"), raw, "", "", appendAt{})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, reps)
	return nil
}

// maxPlacesPerUpload bounds the places one upload reports.
const maxPlacesPerUpload = 256

// learnAll learns the places an upload reports for its sessions'
// directories, so the import places them as the client would have.
func (s *Server) learnAll(c *call, p *memory.Place, ps []memory.Place) error {
	if len(ps) > maxPlacesPerUpload {
		return memory.Errorf(memory.CodeInvalid, "an upload reports at most %d places, not %d", maxPlacesPerUpload, len(ps))
	}
	s.places.learn(c.token.Account, p)
	for i := range ps {
		s.places.learn(c.token.Account, &ps[i])
	}
	return nil
}

// uploadName keeps a client's file name when it is plain, else hashes it.
func uploadName(name string, safe *regexp.Regexp, ext string) string {
	base := filepath.Base(name)
	if safe.MatchString(base) {
		return base
	}
	h := sha256.Sum256([]byte(name))
	return hex.EncodeToString(h[:12]) + ext
}

// appendAt says an upload is the tail of a file the gateway already holds
// (offset 0: the whole file).
type appendAt struct {
	offset int64
	prefix string
}

// keepAndImport writes an uploaded file under the account's folder and
// imports it. A file whose bytes did not change is not rewritten, so the
// import finds it unchanged, unless a Stop hook's answer must complete its
// last turn.
func (s *Server) keepAndImport(r *http.Request, c *call, provider memory.Provider, name string, data []byte, session, lastAnswer string, at appendAt) ([]engine.SourceReport, error) {
	if s.o.UploadDir == "" {
		return nil, memory.Errorf(memory.CodeUnavailable, "this gateway keeps no uploads")
	}
	dir := filepath.Join(s.o.UploadDir, strconv.FormatInt(int64(c.token.Account), 10), string(provider))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "upload", err)
	}
	path := filepath.Join(dir, name)
	mu, _ := uploadLocks.LoadOrStore(path, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	old, oldErr := os.ReadFile(path)
	if at.offset > 0 {
		sum := sha256.Sum256(old)
		if oldErr != nil || int64(len(old)) != at.offset || hex.EncodeToString(sum[:]) != at.prefix {
			return nil, memory.Errorf(memory.CodeConflict, "the gateway does not hold the first %d bytes of %s as sent before: send the whole file", at.offset, name)
		}
		if int64(len(old))+int64(len(data)) > s.o.MaxUpload {
			return nil, memory.Errorf(memory.CodeInvalid, "%s would grow past %d MiB, the most this gateway keeps of one transcript", name, s.o.MaxUpload>>20)
		}
		data = append(old[:len(old):len(old)], data...)
	}
	changed := oldErr != nil || !bytes.Equal(old, data)
	if changed {
		if err := writeFileAtomic(path, data); err != nil {
			return nil, err
		}
	}
	reps, err := c.eng.Import(r.Context(), engine.ImportRequest{Provider: provider, Paths: []string{path},
		LastAnswer: lastAnswer, Session: session, Force: changed || lastAnswer != ""})
	if err != nil {
		return nil, err
	}
	for i := range reps {
		reps[i].Source = name // the gateway's own paths are not the caller's business
	}
	return nonNil(reps), nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".part"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return memory.Wrap(memory.CodeInternal, "upload", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return memory.Wrap(memory.CodeInternal, "upload", err)
	}
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

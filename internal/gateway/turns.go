package gateway

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
)

// maxTurnsPerSession bounds one session's turn log.
const maxTurnsPerSession = 10000

// turnRecord is one line of a session's turn log: cairn's own record of
// what a client sent, redacted before it is written.
type turnRecord struct {
	Key     string    `json:"key"`
	Request string    `json:"request"`
	Answer  string    `json:"answer"`
	Model   string    `json:"model,omitempty"`
	Cwd     string    `json:"cwd,omitempty"`
	At      time.Time `json:"at"`
}

// turn stores one finished turn. The session's turns so far are kept in a
// log under the account's folder and the whole session is stored again:
// turns already stored are matched by key and left alone, so a session
// sent turn by turn ends as one session with its turns in order.
func (s *Server) turn(w http.ResponseWriter, r *http.Request, c *call) error {
	var b TurnBody
	if err := decode(r, &b); err != nil {
		return err
	}
	if err := b.check(); err != nil {
		return err
	}
	if s.o.UploadDir == "" {
		return memory.Errorf(memory.CodeUnavailable, "this gateway keeps no uploads")
	}
	if b.At.IsZero() {
		b.At = s.o.Now()
	}
	if b.Cwd == "" && b.Place != nil {
		b.Cwd = b.Place.Worktree
	}
	s.places.learn(c.token.Account, b.Place)
	red := redact.Default()
	req, _ := red.Redact(b.Request)
	ans, _ := red.Redact(b.Answer)
	h := sha256.Sum256([]byte(b.Request + "\x00" + b.At.UTC().Format(time.RFC3339Nano)))
	rec := turnRecord{Key: "t-" + hex.EncodeToString(h[:8]), Request: req, Answer: ans, Model: b.Model, Cwd: b.Cwd, At: b.At.UTC()}

	sid := sha256.Sum256([]byte(b.Session))
	dir := filepath.Join(s.o.UploadDir, strconv.FormatInt(int64(c.token.Account), 10), "turns", string(b.Provider))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return memory.Wrap(memory.CodeInternal, "turn", err)
	}
	path := filepath.Join(dir, hex.EncodeToString(sid[:12])+".jsonl")
	mu, _ := uploadLocks.LoadOrStore(path, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	log, err := readTurnLog(path)
	if err != nil {
		return err
	}
	log, err = withTurn(log, rec)
	if err != nil {
		return err
	}
	if err := writeTurnLog(path, log); err != nil {
		return err
	}
	rep, err := c.eng.Ingest(r.Context(), []memory.Session{sessionOfTurns(b.Provider, b.Session, log)})
	if err != nil {
		return err
	}
	rep.Source = "turn"
	writeJSON(w, http.StatusOK, rep)
	return nil
}

func (b TurnBody) check() error {
	switch b.Provider {
	case memory.ProviderClaudeCode, memory.ProviderCodex, memory.ProviderOpenCode:
	default:
		return memory.Errorf(memory.CodeInvalid, "\"provider\" must be claude-code, codex or opencode, not %q", b.Provider)
	}
	if b.Session == "" || len(b.Session) > 256 || strings.IndexFunc(b.Session, unicode.IsControl) >= 0 {
		return memory.Errorf(memory.CodeInvalid, "\"session\" must be the client's session id (1 to 256 characters, no control characters)")
	}
	if strings.TrimSpace(b.Request) == "" && strings.TrimSpace(b.Answer) == "" {
		return memory.Errorf(memory.CodeInvalid, "a turn needs a \"request\" or an \"answer\"")
	}
	if b.Cwd == "" && (b.Place == nil || b.Place.Worktree == "") {
		return memory.Errorf(memory.CodeInvalid, "a turn needs a place: give \"place\" or \"cwd\"")
	}
	return nil
}

// withTurn puts rec in the log: in place of a record with its key (the
// same turn sent again), else at the end.
func withTurn(log []turnRecord, rec turnRecord) ([]turnRecord, error) {
	for i := range log {
		if log[i].Key == rec.Key {
			log[i] = rec
			return log, nil
		}
	}
	if len(log) >= maxTurnsPerSession {
		return nil, memory.Errorf(memory.CodeConflict, "this session already has %d turns, the most one session takes; start a new session", maxTurnsPerSession)
	}
	return append(log, rec), nil
}

func readTurnLog(path string) ([]turnRecord, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read turn log", err)
	}
	var out []turnRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var r turnRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "read turn log "+path, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "read turn log", err)
	}
	return out, nil
}

func writeTurnLog(path string, log []turnRecord) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range log {
		if err := enc.Encode(r); err != nil {
			return memory.Wrap(memory.CodeInternal, "write turn log", err)
		}
	}
	return writeFileAtomic(path, buf.Bytes())
}

// sessionOfTurns is the session a turn log describes.
func sessionOfTurns(provider memory.Provider, id string, log []turnRecord) memory.Session {
	s := memory.Session{Provider: provider, ExternalID: id}
	for _, r := range log {
		if r.Cwd != "" {
			s.Cwd = r.Cwd
		}
		if s.StartedAt.IsZero() || r.At.Before(s.StartedAt) {
			s.StartedAt = r.At
		}
		if r.At.After(s.EndedAt) {
			s.EndedAt = r.At
		}
		t := memory.Turn{Key: r.Key, Request: r.Request, Outcome: r.Answer, Status: memory.TurnCompleted,
			Model: r.Model, StartedAt: r.At, EndedAt: r.At}
		if r.Request != "" {
			t.Parts = append(t.Parts, memory.Part{Role: memory.RoleUser, Kind: memory.KindText, Text: r.Request, Time: r.At})
		}
		if r.Answer != "" {
			t.Parts = append(t.Parts, memory.Part{Role: memory.RoleAssistant, Kind: memory.KindText, Text: r.Answer, Time: r.At})
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

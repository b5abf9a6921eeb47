package gateway

import (
	"encoding/json"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

// The request bodies of /v1/. The remote client encodes the same types, so
// the two sides cannot drift. A place, when given, is the one the client
// resolved for its directory; the gateway never reads a client's disk.

// RecallBody asks for a block: the standing block when Standing is set.
type RecallBody struct {
	Query    string          `json:"query,omitempty"`
	Cwd      string          `json:"cwd,omitempty"`
	Place    *memory.Place   `json:"place,omitempty"`
	Provider memory.Provider `json:"provider,omitempty"`
	Session  string          `json:"session,omitempty"`
	Preset   string          `json:"preset,omitempty"`
	Subagent bool            `json:"subagent,omitempty"`
	OneShot  bool            `json:"one_shot,omitempty"`
	Channel  recall.Channel  `json:"channel,omitempty"`
	Start    bool            `json:"start,omitempty"`
	Standing bool            `json:"standing,omitempty"`
}

func (b RecallBody) request() engine.RecallRequest {
	return engine.RecallRequest{Query: b.Query, Cwd: b.Cwd, Place: b.Place, Provider: b.Provider, Session: b.Session,
		Preset: b.Preset, Subagent: b.Subagent, OneShot: b.OneShot, Channel: b.Channel, Start: b.Start}
}

// RecallBodyOf is the inverse of request, for the client.
func RecallBodyOf(r engine.RecallRequest, standing bool) RecallBody {
	return RecallBody{Query: r.Query, Cwd: r.Cwd, Place: r.Place, Provider: r.Provider, Session: r.Session, Preset: r.Preset,
		Subagent: r.Subagent, OneShot: r.OneShot, Channel: r.Channel, Start: r.Start, Standing: standing}
}

// SearchBody is one search.
type SearchBody struct {
	Query          string         `json:"query"`
	Layers         []memory.Layer `json:"layers,omitempty"`
	Cwd            string         `json:"cwd,omitempty"`
	Place          *memory.Place  `json:"place,omitempty"`
	Rung           memory.Rung    `json:"rung,omitempty"`
	ExcludeSession int64          `json:"exclude_session,omitempty"`
	Since          time.Time      `json:"since,omitzero"`
	Until          time.Time      `json:"until,omitzero"`
	Limit          int            `json:"limit,omitempty"`
}

func (b SearchBody) request() engine.SearchRequest {
	return engine.SearchRequest{Query: b.Query, Layers: b.Layers, Cwd: b.Cwd, Place: b.Place, Rung: b.Rung,
		ExcludeSession: b.ExcludeSession, Since: b.Since, Until: b.Until, Limit: b.Limit}
}

// SearchBodyOf is the inverse of request.
func SearchBodyOf(r engine.SearchRequest) SearchBody {
	return SearchBody{Query: r.Query, Layers: r.Layers, Cwd: r.Cwd, Place: r.Place, Rung: r.Rung,
		ExcludeSession: r.ExcludeSession, Since: r.Since, Until: r.Until, Limit: r.Limit}
}

// WriteBody is one statement for the write point (assert), or for later
// (a remember call during a turn).
type WriteBody struct {
	Draft    memory.Draft  `json:"draft"`
	Writer   memory.Writer `json:"writer,omitempty"`
	Channel  memory.Writer `json:"channel,omitempty"`
	Tier     memory.Tier   `json:"tier,omitempty"`
	TierSet  bool          `json:"tier_set,omitempty"`
	UserText string        `json:"user_text,omitempty"`
	Cwd      string        `json:"cwd,omitempty"`
	Place    *memory.Place `json:"place,omitempty"`
}

func (b WriteBody) write() engine.Write {
	return engine.Write{Draft: b.Draft, Writer: b.Writer, Channel: b.Channel, Tier: b.Tier, TierSet: b.TierSet,
		UserText: b.UserText, Cwd: b.Cwd, Place: b.Place}
}

// WriteBodyOf is the inverse of write.
func WriteBodyOf(w engine.Write) WriteBody {
	return WriteBody{Draft: w.Draft, Writer: w.Writer, Channel: w.Channel, Tier: w.Tier, TierSet: w.TierSet,
		UserText: w.UserText, Cwd: w.Cwd, Place: w.Place}
}

// FactQueryBody selects statements by place; AsOf and Clock serve the
// timeline and as-of reads.
type FactQueryBody struct {
	Cwd        string        `json:"cwd,omitempty"`
	Place      *memory.Place `json:"place,omitempty"`
	Rung       memory.Rung   `json:"rung,omitempty"`
	Strict     bool          `json:"strict,omitempty"`
	Everywhere bool          `json:"everywhere,omitempty"`
	Kinds      []memory.Kind `json:"kinds,omitempty"`
	Clock      string        `json:"clock,omitempty"`
	Since      time.Time     `json:"since,omitzero"`
	Until      time.Time     `json:"until,omitzero"`
	At         time.Time     `json:"at,omitzero"`
}

func (b FactQueryBody) query() engine.FactQuery {
	return engine.FactQuery{Cwd: b.Cwd, Place: b.Place, Rung: b.Rung, Strict: b.Strict, Everywhere: b.Everywhere, Kinds: b.Kinds}
}

// FactQueryBodyOf is the inverse of query.
func FactQueryBodyOf(q engine.FactQuery) FactQueryBody {
	return FactQueryBody{Cwd: q.Cwd, Place: q.Place, Rung: q.Rung, Strict: q.Strict, Everywhere: q.Everywhere, Kinds: q.Kinds}
}

// NoteBody is a note to remember now.
type NoteBody struct {
	Text     string        `json:"text"`
	Category string        `json:"category,omitempty"`
	Class    memory.Class  `json:"class,omitempty"`
	Pin      bool          `json:"pin,omitempty"`
	Cwd      string        `json:"cwd,omitempty"`
	Place    *memory.Place `json:"place,omitempty"`
}

// EditBody is a note's new wording.
type EditBody struct {
	Text string `json:"text"`
}

// MoveBody moves a statement to another rung of a place's ladder: the
// place (or the directory the gateway resolves) and the rung.
type MoveBody struct {
	Place *memory.Place `json:"place,omitempty"`
	Cwd   string        `json:"cwd,omitempty"`
	Rung  memory.Rung   `json:"rung"`
}

// TranscriptBody uploads one transcript file of a client, as a Stop hook
// or an import would read it.
type TranscriptBody struct {
	Provider memory.Provider `json:"provider"`
	// Name is the file's base name on the client (its session id for
	// Claude Code and Codex).
	Name       string `json:"name"`
	Session    string `json:"session,omitempty"`
	LastAnswer string `json:"last_answer,omitempty"`
	Transcript string `json:"transcript"`
	// Offset, when not 0, says Transcript is the file from this byte on:
	// the gateway appends it to the copy it holds, which must be exactly
	// Offset bytes whose SHA-256 (hex) is Prefix. A transcript only grows,
	// so a Stop hook sends its new turn, not the whole session again.
	// Otherwise the answer is 409 and the client sends the whole file.
	Offset int64  `json:"offset,omitempty"`
	Prefix string `json:"prefix_sha256,omitempty"`
	// Cwd and Place say where the upload was made, as the client resolved
	// it; Places are the places of the directories its sessions ran in.
	Cwd    string         `json:"cwd,omitempty"`
	Place  *memory.Place  `json:"place,omitempty"`
	Places []memory.Place `json:"places,omitempty"`
}

// OpenCodeBody uploads one OpenCode session as `opencode export SESSION`
// prints it.
type OpenCodeBody struct {
	// Name is the export's file name on the client ("ses_….json").
	Name   string          `json:"name"`
	Export json.RawMessage `json:"export"`
	Cwd    string          `json:"cwd,omitempty"`
	Place  *memory.Place   `json:"place,omitempty"`
	Places []memory.Place  `json:"places,omitempty"`
}

// TurnBody uploads one finished turn, what a Stop hook knows, for a
// client with no transcript file to send. Turns of one session accumulate
// on the gateway in the order they arrive; a turn sent again with the same
// request and time replaces the first.
type TurnBody struct {
	Provider memory.Provider `json:"provider"`
	Session  string          `json:"session"`
	Request  string          `json:"request"`
	Answer   string          `json:"answer"`
	Model    string          `json:"model,omitempty"`
	// At is when the turn ended, by the client's clock (default: when the
	// gateway receives it).
	At    time.Time     `json:"at,omitzero"`
	Cwd   string        `json:"cwd,omitempty"`
	Place *memory.Place `json:"place,omitempty"`
}

// Health is /v1/health's answer: the gateway, and the account and token
// the call was tied to.
type Health struct {
	Status      string             `json:"status"`
	Account     memory.AccountID   `json:"account"`
	AccountName string             `json:"account_name,omitempty"`
	Token       TokenInfo          `json:"token"`
	Version     string             `json:"version"`
	Store       memory.StoreHealth `json:"store"`
}

// TokenInfo says which token a call used, never the token itself.
type TokenInfo struct {
	Name     string `json:"name,omitempty"`
	Hint     string `json:"hint,omitempty"`
	Operator bool   `json:"operator,omitempty"`
}

// PendingAnswer is what a remember-later call returns.
type PendingAnswer struct {
	ID int64 `json:"id"`
}

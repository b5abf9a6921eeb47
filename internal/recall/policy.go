package recall

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Policy is a session's own say over reading or learning.
type Policy string

// Policies: inherit follows the global switch; allow and deny are explicit.
const (
	Inherit Policy = "inherit"
	Allow   Policy = "allow"
	Deny    Policy = "deny"
)

// Preset is one of the four session presets of seed 000, persisted as a
// read and a write policy.
type Preset string

// Presets.
const (
	PresetDefault    Preset = ""
	PresetMemoryOn   Preset = "memory-on"
	PresetRecallOnly Preset = "recall-only"
	PresetPrivate    Preset = "private"
	PresetLearnOnly  Preset = "learn-only"
)

// ParsePreset accepts a preset as people type it.
func ParsePreset(s string) (Preset, error) {
	switch strings.ToLower(strings.NewReplacer("_", "-", " ", "-").Replace(strings.TrimSpace(s))) {
	case "", "default", "inherit":
		return PresetDefault, nil
	case "memory-on", "on", "memory":
		return PresetMemoryOn, nil
	case "recall-only", "recall", "read-only":
		return PresetRecallOnly, nil
	case "private", "off", "private-session":
		return PresetPrivate, nil
	case "learn-only", "learn", "write-only":
		return PresetLearnOnly, nil
	}
	return "", memory.Errorf(memory.CodeInvalid, "unknown preset %q: use memory-on, recall-only, private, learn-only or default", s)
}

// Policies returns a preset's read and write policies.
func (p Preset) Policies() (read, write Policy) {
	switch p {
	case PresetMemoryOn:
		return Allow, Allow
	case PresetRecallOnly:
		return Allow, Deny
	case PresetPrivate:
		return Deny, Deny
	case PresetLearnOnly:
		return Deny, Allow
	}
	return Inherit, Inherit
}

// Global are the global switches.
type Global struct {
	Enabled, Capture, Recall bool
}

// Session is what is known about the session asking.
type Session struct {
	Provider memory.Provider
	Preset   Preset
	// Subagent sessions and one-shot runs (claude -p, codex exec) read
	// but do not learn unless a preset says otherwise.
	Subagent, OneShot bool
}

// Channel is where a block would go.
type Channel string

// Channels: hook context (which Codex records as a developer message) or
// text that the client records as the user's own.
const (
	HookContext Channel = "hook"
	UserText    Channel = "user"
)

// Decision is what a session may do now.
type Decision struct {
	Read   bool   `json:"read"`
	Write  bool   `json:"write"`
	Reason string `json:"reason,omitempty"`
}

// Decide resolves the global switches, the session's policies and the
// provider rule. The global switches always win: a session may narrow
// them, never re-enable what they switched off. Codex records hook context
// as a developer message but prompt text as the user's: under its default
// preset the block may go into hook context only; Memory on or Recall only
// allow it anywhere.
func Decide(g Global, s Session, ch Channel) Decision {
	read, write := s.Preset.Policies()
	d := Decision{}
	switch {
	case !g.Enabled:
		d.Reason = "memory is switched off"
	case !g.Recall:
		d.Reason = "recall is switched off"
	case read == Deny:
		d.Reason = "this session does not read memory (" + string(s.Preset) + ")"
	case read == Inherit && s.Provider == memory.ProviderCodex && ch == UserText:
		d.Reason = "Codex records prompt text as the user's own: memory goes in hook context unless the session chose memory-on or recall-only"
	default:
		d.Read = true
	}
	switch {
	case !g.Enabled || !g.Capture:
	case write == Deny:
	case write == Inherit && (s.Subagent || s.OneShot):
	default:
		d.Write = true
	}
	return d
}

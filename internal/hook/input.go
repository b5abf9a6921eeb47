package hook

import (
	"encoding/json"
	"io"
)

// maxInput bounds what a hook reads from stdin: the payloads are small,
// but a Stop payload carries the last answer, which can be long.
const maxInput = 16 << 20

// Input is the union of the fields Claude Code and Codex send.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	Source         string `json:"source"`
	Prompt         string `json:"prompt"`
	LastAnswer     string `json:"last_assistant_message"`
	StopHookActive bool   `json:"stop_hook_active"`
	AgentID        string `json:"agent_id"`
	AgentType      string `json:"agent_type"`
	Model          string `json:"model"`
	TurnID         string `json:"turn_id"`
	Reason         string `json:"reason"`
}

// ReadInput decodes a hook payload. Unknown fields are ignored: the
// clients add fields between versions.
func ReadInput(r io.Reader) (Input, error) {
	var in Input
	b, err := io.ReadAll(io.LimitReader(r, maxInput))
	if err != nil {
		return in, err
	}
	if len(b) == 0 {
		return in, nil
	}
	err = json.Unmarshal(b, &in)
	return in, err
}

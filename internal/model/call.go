package model

import "time"

// Phases that call models; each has its own provider and model.
const (
	PhaseExtraction    = "extraction"
	PhaseConsolidation = "consolidation"
	PhaseTurnFacts     = "turn_facts"
)

// Statuses of a recorded call.
const (
	CallOK      = "ok"
	CallFailed  = "failed"
	CallRefused = "refused"
	CallSkipped = "skipped" // the daily budget was spent; nothing was sent
)

// CallRecord is one model call as the store keeps it, for `cairn costs`
// and the daily budget.
type CallRecord struct {
	ID       int64         `json:"id"`
	At       time.Time     `json:"at"`
	Phase    string        `json:"phase"`
	Provider string        `json:"provider"`
	Model    string        `json:"model"`
	Status   string        `json:"status"`
	In       int           `json:"tokens_in"`
	Out      int           `json:"tokens_out"`
	Took     time.Duration `json:"took_ns"`
	CostUSD  float64       `json:"cost_usd"`
	Priced   bool          `json:"priced"` // false: no price known, cost counted as 0
	Error    string        `json:"error,omitempty"`
}

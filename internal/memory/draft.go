package memory

import "time"

// Draft is a statement proposed by a capture rule, an extractor or a
// person, before the one write point decides its slot, tier, place and
// fate (insert, supersede, restate, refuse).
type Draft struct {
	Kind      Kind   `json:"kind"`
	Subject   string `json:"subject,omitempty"`
	Predicate string `json:"predicate,omitempty"`
	Object    string `json:"object"`
	Class     Class  `json:"class,omitempty"`
	Category  string `json:"category,omitempty"`
	// Cardinality is the writer's declaration; empty lets the registry
	// decide.
	Cardinality Cardinality `json:"cardinality,omitempty"`
	// Rung overrides the class's default place; empty takes the default.
	Rung    Rung      `json:"rung,omitempty"`
	ValidAt time.Time `json:"valid_at,omitzero"`
	// Confidence in (0, 1]; zero means the writer's default.
	Confidence float64  `json:"confidence,omitempty"`
	Pinned     bool     `json:"pinned,omitempty"`
	Evidence   Evidence `json:"evidence,omitzero"`
}

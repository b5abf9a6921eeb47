package memory

// PurgeCounts says what an operator purge physically deleted.
type PurgeCounts struct {
	Statements int64 `json:"statements"`
	Episodes   int64 `json:"episodes"`
	// Traces are receipts, candidates and pending writes that carried the
	// text of a purged row.
	Traces int64 `json:"traces"`
}

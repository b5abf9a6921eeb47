package memory

// StoreHealth is what a store reports about itself for `cairn doctor`.
type StoreHealth struct {
	Kind          string           `json:"kind"` // sqlite or postgres
	Path          string           `json:"path"`
	SchemaVersion int              `json:"schema_version"`
	BinarySchema  int              `json:"binary_schema_version"`
	Integrity     string           `json:"integrity"` // "ok" or the store's complaints
	JournalMode   string           `json:"journal_mode,omitempty"`
	Rows          map[string]int64 `json:"rows"`
}

// Healthy reports whether the store passed its checks.
func (h StoreHealth) Healthy() bool {
	return h.Integrity == "ok" && h.SchemaVersion == h.BinarySchema
}

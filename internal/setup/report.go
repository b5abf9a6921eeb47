package setup

// Op is what happened to one of cairn's entries.
type Op string

// The ops a report lists.
const (
	OpAdded   Op = "added"
	OpUpdated Op = "updated"
	OpRemoved Op = "removed"
)

// Change is one entry added, updated or removed in a file.
type Change struct {
	Op     Op     `json:"op"`
	What   string `json:"what"`             // e.g. "hook SessionStart", "mcp server cairn", "plugin"
	Detail string `json:"detail,omitempty"` // the command, or which fields changed
}

// File actions.
const (
	ActionCreated   = "created"
	ActionUpdated   = "updated"
	ActionDeleted   = "deleted"
	ActionUnchanged = "unchanged"
)

// FileReport is what setup did (or, with --dry-run, would do) to a file.
type FileReport struct {
	Path    string   `json:"path"`
	Action  string   `json:"action"`
	Backup  string   `json:"backup,omitempty"`
	Changes []Change `json:"changes"`
}

// Report is the outcome of one setup run.
type Report struct {
	Client    string       `json:"client"`
	Scope     Scope        `json:"scope"`
	Uninstall bool         `json:"uninstall"`
	DryRun    bool         `json:"dry_run"`
	Cairn     string       `json:"cairn"`
	Home      string       `json:"home,omitempty"`
	Files     []FileReport `json:"files"`
	// Trusted lists the Codex hook keys whose trust --trust recorded.
	Trusted []string `json:"trusted,omitempty"`
	// Notes are what the user still has to do, or should know.
	Notes []string `json:"notes"`
}

// Changed reports whether any file changed (or would change).
func (r Report) Changed() bool {
	for _, f := range r.Files {
		if f.Action != ActionUnchanged {
			return true
		}
	}
	return false
}

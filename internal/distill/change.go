package distill

import (
	"strings"
)

// Vault paths of the files consolidation writes and reads.
const (
	MemoryPath  = "MEMORY.md"
	SummaryPath = "memory_summary.md"
	recapDir    = "rollout_summaries/"
	skillDir    = "skills/"
	extDir      = "extensions/"
	notesDir    = "extensions/ad_hoc/notes/"
)

// RecapPath is where the rollout summary of an extraction with this slug
// is published.
func RecapPath(slug string) string { return recapDir + slug + ".md" }

// SkillPath is where a skill is published.
func SkillPath(name string) string { return skillDir + name + "/SKILL.md" }

// ChangeKind says how a vault file changed since the last baseline.
type ChangeKind string

// Change kinds.
const (
	Added    ChangeKind = "added"
	Modified ChangeKind = "modified"
	Deleted  ChangeKind = "deleted"
)

// Change is one file of the vault's diff since the last baseline. Path is
// relative to the vault root with forward slashes; Before is empty for an
// added file, After for a deleted one.
type Change struct {
	Path   string     `json:"path"`
	Kind   ChangeKind `json:"kind"`
	Before []byte     `json:"before,omitempty"`
	After  []byte     `json:"after,omitempty"`
}

// Mode is how much of the previous state a pass starts from.
type Mode string

// Modes: init builds from scratch (nothing on disk is read back);
// incremental honours hand edits and keeps a person's lines.
const (
	ModeInit        Mode = "init"
	ModeIncremental Mode = "incremental"
)

// cleanPath normalizes a vault path: forward slashes, no leading "./" or "/".
func cleanPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		default:
			return p
		}
	}
}

// changeSet indexes a diff by path; a later change of a path wins.
type changeSet map[string]Change

func newChangeSet(cs []Change) changeSet {
	m := changeSet{}
	for _, c := range cs {
		c.Path = cleanPath(c.Path)
		m[c.Path] = c
	}
	return m
}

// deletedRecaps lists the slugs whose rollout summary was deleted.
func (m changeSet) deletedRecaps() map[string]bool {
	out := map[string]bool{}
	for p, c := range m {
		if c.Kind == Deleted && strings.HasPrefix(p, recapDir) && strings.HasSuffix(p, ".md") {
			out[strings.TrimSuffix(strings.TrimPrefix(p, recapDir), ".md")] = true
		}
	}
	return out
}

// skillName returns the skill a path belongs to, if it is a SKILL.md.
func skillName(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, skillDir)
	if !ok {
		return "", false
	}
	name, file, ok := strings.Cut(rest, "/")
	return name, ok && file == "SKILL.md" && name != ""
}

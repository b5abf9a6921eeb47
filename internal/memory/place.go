package memory

import (
	"net/url"
	"path"
	"strings"
)

// Rung is one step of the place ladder: worktree ⊂ project ⊂ repo ⊂ everywhere.
type Rung string

// The ladder, narrowest first. RungNone marks an unplaced row, which every
// read sees.
const (
	RungNone       Rung = ""
	RungWorktree   Rung = "worktree"
	RungProject    Rung = "project"
	RungRepo       Rung = "repo"
	RungEverywhere Rung = "everywhere"
)

// Rungs lists the ladder from narrowest to widest.
var Rungs = []Rung{RungWorktree, RungProject, RungRepo, RungEverywhere}

// ParseRung accepts a rung name as users type it.
func ParseRung(s string) (Rung, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "worktree", "wt", "here":
		return RungWorktree, nil
	case "project", "clone":
		return RungProject, nil
	case "repo", "repository":
		return RungRepo, nil
	case "everywhere", "all", "global", "account":
		return RungEverywhere, nil
	case "", "none":
		return RungNone, nil
	}
	return RungNone, Errorf(CodeInvalid, "unknown place %q: use worktree, project, repo or everywhere", s)
}

// Wider reports whether r is strictly wider than o on the ladder.
func (r Rung) Wider(o Rung) bool { return r.index() > o.index() }

func (r Rung) index() int {
	for i, x := range Rungs {
		if x == r {
			return i
		}
	}
	return -1
}

// Place is a directory resolved onto the ladder. Worktree is the checkout's
// top level, Project the git common dir shared by all worktrees of a clone,
// Repo the normalized origin URL (empty when there is none). A directory
// outside git is its own worktree and project.
type Place struct {
	Worktree string `json:"worktree"`
	Project  string `json:"project"`
	Repo     string `json:"repo,omitempty"`
}

// Key returns the identifier a row stores for the given rung of this place,
// and false when the place has no such rung (no repo, for instance).
func (p Place) Key(r Rung) (string, bool) {
	switch r {
	case RungWorktree:
		return p.Worktree, p.Worktree != ""
	case RungProject:
		return p.Project, p.Project != ""
	case RungRepo:
		return p.Repo, p.Repo != ""
	case RungEverywhere:
		return "*", true
	}
	return "", false
}

// Clamp returns the widest rung not wider than r that this place has. A
// place with no repo clamps repo to project.
func (p Place) Clamp(r Rung) Rung {
	for i := r.index(); i >= 0; i-- {
		if _, ok := p.Key(Rungs[i]); ok {
			return Rungs[i]
		}
	}
	return RungNone
}

// Scope is what a stored row records about where it applies.
type Scope struct {
	Rung Rung   `json:"rung,omitempty"`
	Key  string `json:"key,omitempty"`
}

// ScopeAt places a row at rung r of p, clamped to a rung p has.
func (p Place) ScopeAt(r Rung) Scope {
	r = p.Clamp(r)
	k, _ := p.Key(r)
	return Scope{Rung: r, Key: k}
}

// Visible lists the scopes a read at p up to rung max sees: each rung of p
// from the worktree up to max. Unplaced rows are visible too; stores add
// them.
func (p Place) Visible(max Rung) []Scope {
	var out []Scope
	for _, r := range Rungs {
		if r.index() > max.index() {
			break
		}
		if k, ok := p.Key(r); ok {
			out = append(out, Scope{Rung: r, Key: k})
		}
	}
	return out
}

// NormalizeRepoURL turns the many spellings of one remote into one key:
// git@host:o/n.git, https://host/o/n, ssh://git@host:22/o/n.git all give
// "host/o/n". Hosts and paths are lowercased because the large forges treat
// them case-insensitively. Local paths keep their case and gain a file://
// prefix. An empty or unparsable URL gives "".
func NormalizeRepoURL(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return ""
	}
	var host, p string
	switch {
	case strings.Contains(s, "://"):
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		if u.Scheme == "file" {
			return "file:///" + cleanRepoPath(u.Path, false)
		}
		host, p = u.Hostname(), u.Path
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "."):
		return "file:///" + cleanRepoPath(s, false)
	default:
		// scp-like syntax: [user@]host:path
		at := strings.LastIndex(s[:max(strings.Index(s, ":"), 0)], "@")
		colon := strings.Index(s, ":")
		if colon < 0 {
			return ""
		}
		host, p = s[at+1:colon], s[colon+1:]
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	p = cleanRepoPath(p, true)
	if host == "" || p == "" {
		return ""
	}
	return host + "/" + p
}

func cleanRepoPath(p string, lower bool) string {
	p = path.Clean("/" + strings.TrimSpace(p))
	p = strings.TrimSuffix(p, "/")
	p = strings.TrimSuffix(p, ".git")
	p = strings.Trim(p, "/")
	if lower {
		p = strings.ToLower(p)
	}
	return p
}

// Sight says which placed rows a read or a write can see; unplaced rows
// are always seen.
type Sight struct {
	Scopes []Scope `json:"scopes,omitempty"`
	All    bool    `json:"all,omitempty"` // every place (a fact about the user)
}

// Sees reports whether a row placed at s is in sight.
func (v Sight) Sees(s Scope) bool {
	if v.All || s.Rung == RungNone {
		return true
	}
	for _, x := range v.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// SightOf is what a read at p up to rung max sees.
func SightOf(p Place, max Rung) Sight { return Sight{Scopes: p.Visible(max)} }

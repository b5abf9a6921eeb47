package temporal

import "github.com/cairn-memory/cairn/internal/memory"

// Rungs is each class's default place (config temporal.rung_*).
type Rungs map[memory.Class]memory.Rung

// DefaultRungs follows DESIGN.md.
func DefaultRungs() Rungs {
	return Rungs{
		memory.ClassUser:        memory.RungEverywhere,
		memory.ClassPreference:  memory.RungEverywhere,
		memory.ClassConvention:  memory.RungRepo,
		memory.ClassDecision:    memory.RungProject,
		memory.ClassEnvironment: memory.RungProject,
		memory.ClassTask:        memory.RungWorktree,
	}
}

// Place decides where a statement applies: the writer's rung if given,
// else its class's default; a class-less statement goes to the narrowest
// rung; environment and the narrow categories never go wider than the
// project; facts about the user apply everywhere.
func Place(r Rungs, p memory.Place, class memory.Class, category string, override memory.Rung) memory.Scope {
	rung := override
	if rung == memory.RungNone {
		if class == "" {
			rung = memory.RungWorktree
		} else if d, ok := r[class]; ok {
			rung = d
		} else {
			rung = memory.RungWorktree
		}
	}
	if (class == memory.ClassEnvironment || NarrowCategory(category)) && rung.Wider(memory.RungProject) {
		rung = memory.RungProject
	}
	if class == memory.ClassUser && override == memory.RungNone {
		rung = memory.RungEverywhere
	}
	return p.ScopeAt(rung)
}

// Visible reports whether a row placed at s can be seen from place p read
// up to rung max: unplaced rows always; placed rows when their scope is one
// of p's rungs up to max.
func Visible(s memory.Scope, p memory.Place, max memory.Rung) bool {
	if s.Rung == memory.RungNone {
		return true
	}
	for _, v := range p.Visible(max) {
		if v == s {
			return true
		}
	}
	return false
}

package mcptools

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor infers a tool's input schema from its input type, then lets
// the caller add what tags cannot say: enums, ranges, defaults. A bad
// schema is a bug caught by every test that builds a server.
func schemaFor[T any](tweak func(p map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcptools: input schema: %v", err))
	}
	if tweak != nil {
		tweak(s.Properties)
	}
	return s
}

func enum(vals ...string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// between bounds an integer property and gives its default.
func between(p *jsonschema.Schema, lo, hi, def int) {
	p.Minimum = jsonschema.Ptr(float64(lo))
	p.Maximum = jsonschema.Ptr(float64(hi))
	p.Default = []byte(fmt.Sprint(def))
}

var scopes = []string{"worktree", "project", "repo", "everywhere"}

func searchSchema() *jsonschema.Schema {
	return schemaFor[SearchInput](func(p map[string]*jsonschema.Schema) {
		p["scope"].Enum = enum(scopes...)
		p["layers"].Items.Enum = enum("L0", "L1", "L2", "L3")
		between(p["limit"], 1, maxSearchLimit, defaultSearchLimit)
	})
}

func readSchema() *jsonschema.Schema { return schemaFor[ReadInput](nil) }

func forgetSchema() *jsonschema.Schema { return schemaFor[ForgetInput](nil) }

func listSchema() *jsonschema.Schema {
	return schemaFor[ListInput](func(p map[string]*jsonschema.Schema) {
		p["kind"].Enum = enum("notes", "facts", "episodes", "files")
		between(p["limit"], 1, maxListLimit, defaultListLimit)
	})
}

func timelineSchema() *jsonschema.Schema {
	return schemaFor[TimelineInput](func(p map[string]*jsonschema.Schema) {
		p["clock"].Enum = enum("world", "system")
		between(p["limit"], 1, maxTimelineLimit, defaultTimelineLimit)
	})
}

func rememberSchema() *jsonschema.Schema {
	return schemaFor[RememberInput](func(p map[string]*jsonschema.Schema) {
		p["kind"].Enum = enum("note", "fact", "event")
		p["class"].Enum = enum("user", "preference", "convention", "decision", "environment", "task")
		p["tier"].Enum = enum("asserted", "observed", "inferred")
		p["text"].MaxLength = jsonschema.Ptr(maxRememberChars)
	})
}

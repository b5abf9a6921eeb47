package setup

import (
	"fmt"
	"io/fs"
	"strings"
)

// jsonEdit is a JSON config file being edited through the document model.
type jsonEdit struct {
	*fileEdit
	doc *jsonFile
}

// loadJSON reads a JSON config file that may not exist yet. A file that
// is not a plain JSON object (comments, trailing commas, another
// top-level value) is refused, not repaired.
func loadJSON(path string, fileMode, dirMode fs.FileMode) (*jsonEdit, error) {
	e, err := loadFile(path, fileMode, dirMode)
	if err != nil {
		return nil, err
	}
	doc, err := parseJSONFile(e.before)
	if err != nil {
		return nil, invalidFile(path, fmt.Errorf("not a plain JSON object (%w)", err))
	}
	return &jsonEdit{fileEdit: e, doc: doc}, nil
}

// note records changes; a file with none keeps its bytes.
func (j *jsonEdit) note(ch ...Change) {
	j.changes = append(j.changes, ch...)
}

// done encodes the document if anything changed. An uninstall that
// leaves an empty object removes the file: it held only cairn's entries.
func (j *jsonEdit) done(uninstall bool) *fileEdit {
	if len(j.changes) == 0 {
		return j.fileEdit
	}
	if uninstall && j.doc.root.Len() == 0 {
		j.remove = true
		return j.fileEdit
	}
	j.after = j.doc.bytes()
	return j.fileEdit
}

// serverSpec is cairn's MCP server entry in a JSON config.
type serverSpec struct {
	container string   // "mcpServers" (Claude Code) or "mcp" (OpenCode)
	fields    []tomlKV // cairn's keys, in the order they are written
	envKey    string   // "env" or "environment"
	home      string   // CAIRN_HOME to set; "" removes cairn's
}

// serverName is the name cairn's MCP server goes by in every client.
const serverName = "cairn"

// applyServer adds, updates or (with uninstall) removes the "cairn" entry,
// keeping every other server and every key of the entry cairn does not
// own. A "cairn" entry that talks to a URL (a team gateway set up by
// hand) is not replaced by a local one.
func applyServer(root *Object, s serverSpec, uninstall bool) ([]Change, error) {
	what := "mcp server " + serverName
	cv, had := root.Get(s.container)
	c, ok := cv.(*Object)
	if had && !ok {
		return nil, fmt.Errorf("%q is not an object", s.container)
	}
	if !had {
		c = NewObject()
	}
	ev, exists := c.Get(serverName)
	entry, isObj := ev.(*Object)
	if exists && !isObj {
		return nil, fmt.Errorf("%s.%s is not an object", s.container, serverName)
	}
	if uninstall {
		if !exists {
			return nil, nil
		}
		c.Delete(serverName)
		if c.Len() == 0 {
			root.Delete(s.container)
		}
		return []Change{{Op: OpRemoved, What: what}}, nil
	}
	if exists {
		if u, ok := entry.Get("url"); ok {
			return nil, fmt.Errorf("%s.%s already points at %v; remove that entry (or run setup with --uninstall) to use a local cairn", s.container, serverName, u)
		}
	} else {
		entry = NewObject()
	}
	var changed []string
	for _, f := range s.fields {
		if old, ok := entry.Get(f.Key); !ok || !equalJSON(old, f.Value) {
			entry.Set(f.Key, f.Value)
			changed = append(changed, f.Key)
		}
	}
	envv, hadEnv := entry.Get(s.envKey)
	env, ok := envv.(*Object)
	if hadEnv && !ok {
		return nil, fmt.Errorf("%s.%s.%s is not an object", s.container, serverName, s.envKey)
	}
	switch {
	case s.home != "":
		if !hadEnv {
			env = NewObject()
			entry.Set(s.envKey, env)
		}
		if old, ok := env.Get("CAIRN_HOME"); !ok || old != s.home {
			env.Set("CAIRN_HOME", s.home)
			changed = append(changed, s.envKey+".CAIRN_HOME")
		}
	case hadEnv && env.Delete("CAIRN_HOME"):
		changed = append(changed, s.envKey+".CAIRN_HOME")
		if env.Len() == 0 {
			entry.Delete(s.envKey)
		}
	}
	if !exists {
		c.Set(serverName, entry)
		if !had {
			root.Set(s.container, c)
		}
		return []Change{{Op: OpAdded, What: what, Detail: describeServer(s)}}, nil
	}
	if len(changed) == 0 {
		return nil, nil
	}
	return []Change{{Op: OpUpdated, What: what, Detail: joinComma(changed)}}, nil
}

// describeServer is the command line the entry runs.
func describeServer(s serverSpec) string {
	var words []string
	for _, f := range s.fields {
		switch v := f.Value.(type) {
		case string:
			if f.Key == "command" {
				words = append(words, v)
			}
		case []any:
			if f.Key == "command" || f.Key == "args" {
				for _, a := range v {
					words = append(words, fmt.Sprint(a))
				}
			}
		}
	}
	return strings.Join(words, " ")
}

func joinComma(s []string) string { return strings.Join(s, ", ") }

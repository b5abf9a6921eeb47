package capture

import (
	"path"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// fileOp is what a call did to a file.
type fileOp int

const (
	opEdit fileOp = iota
	opAdd
	opDelete
)

// fileChange is one file a call changed, relative to the worktree when
// it lies inside it.
type fileChange struct {
	path string
	op   fileOp
}

// editTools name a file in a field: Claude Code's Edit, Write, MultiEdit
// and NotebookEdit, OpenCode's edit, write and multiedit, and the generic
// names other MCP clients use.
var editTools = map[string]bool{
	"edit": true, "write": true, "multiedit": true, "notebookedit": true, "create_file": true,
	"write_file": true, "edit_file": true, "str_replace_editor": true, "replace_in_file": true,
}

// editedFiles lists the files a tool call changes: the path field of an
// edit tool, or the file headers of an apply_patch body (Codex's custom
// tool, OpenCode's patch tool, or apply_patch run through a shell).
func editedFiles(p memory.Part, root string) []fileChange {
	if p.Kind != memory.KindToolCall {
		return nil
	}
	var out []fileChange
	tool := strings.ToLower(p.Tool)
	switch {
	case editTools[tool]:
		for _, k := range []string{"file_path", "filePath", "notebook_path", "path"} {
			if v := strings.TrimSpace(fieldValue(p.Text, k)); v != "" && !strings.Contains(v, "\n") {
				out = append(out, fileChange{path: relPath(v, root), op: opEdit})
				break
			}
		}
	case strings.Contains(p.Text, "*** Begin Patch"):
		if tool == "apply_patch" || tool == "patch" || shellTools[tool] {
			out = patchFiles(p.Text, root)
		}
	}
	return out
}

// patchFiles reads the file headers of an apply_patch body.
func patchFiles(body, root string) []fileChange {
	var out []fileChange
	for line := range strings.Lines(body) {
		line = strings.TrimSpace(line)
		for _, h := range []struct {
			prefix string
			op     fileOp
		}{
			{"*** Update File: ", opEdit}, {"*** Add File: ", opAdd},
			{"*** Delete File: ", opDelete}, {"*** Move to: ", opEdit},
		} {
			if v, ok := strings.CutPrefix(line, h.prefix); ok && strings.TrimSpace(v) != "" {
				out = append(out, fileChange{path: relPath(strings.TrimSpace(v), root), op: h.op})
			}
		}
	}
	return out
}

// relPath shortens a path inside root to a path relative to it, so that
// Claude Code's absolute paths and Codex's relative ones name a file the
// same way.
func relPath(p, root string) string {
	p = strings.TrimSpace(p)
	if strings.Contains(p, "\\") {
		return p // a Windows path: left as written
	}
	clean := path.Clean(p)
	if root != "" && strings.HasPrefix(clean, root+"/") {
		return clean[len(root)+1:]
	}
	return clean
}

package claudecode

import (
	"bytes"
	"encoding/json"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
)

// block is one content block. Image data and thinking text are not
// decoded: they are never stored.
type block struct {
	Type      string
	Text      string
	ID        string
	Name      string
	Input     json.RawMessage // copied out of the line
	ToolUseID string
	// Content of a tool result: a string, or a list of blocks as maps
	// holding the string members type, text, title and url, the shapes
	// encoding/json would give them (see resultContent).
	Content any
	IsError bool
}

var blockFields = []string{"type", "text", "id", "name", "input", "tool_use_id", "content", "is_error"}

func (b *block) read(obj []byte) {
	it := jsonscan.MembersOf(obj)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		switch matchField(k, blockFields) {
		case "type":
			setString(&b.Type, v)
		case "text":
			setString(&b.Text, v)
		case "id":
			setString(&b.ID, v)
		case "name":
			setString(&b.Name, v)
		case "input":
			b.Input = bytes.Clone(v)
		case "tool_use_id":
			setString(&b.ToolUseID, v)
		case "content":
			b.Content = resultContent(v)
		case "is_error":
			setBool(&b.IsError, v)
		}
	}
}

// resultContent decodes a tool result's content as far as resultText and
// serverResultText read it: a string, or a list whose objects keep their
// string members type, text, title and url. Anything else reads as nil,
// which renders as nothing, as the decoded value would.
func resultContent(raw []byte) any {
	switch raw[0] {
	case '"':
		return jsonscan.Unquote(raw)
	case '[':
		items := []any{}
		it := jsonscan.ElementsOf(raw)
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			if v[0] != '{' {
				items = append(items, nil)
				continue
			}
			m := map[string]any{}
			members := jsonscan.MembersOf(v)
			for k, mv, ok := members.Next(); ok; k, mv, ok = members.Next() {
				for _, name := range [...]string{"type", "text", "title", "url"} {
					if keyIs(k, name) {
						if mv[0] == '"' {
							m[name] = jsonscan.Unquote(mv)
						} else {
							delete(m, name)
						}
					}
				}
			}
			items = append(items, m)
		}
		return items
	}
	return nil
}

// decodeContent returns a message's content as either a string or blocks.
// An item that is not an object is an empty block, ignored later.
func decodeContent(raw []byte) (text string, blocks []block, isString bool) {
	if len(raw) == 0 {
		return "", nil, false
	}
	switch raw[0] {
	case '"':
		return jsonscan.Unquote(raw), nil, true
	case '[':
		blocks = []block{}
		it := jsonscan.ElementsOf(raw)
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			var b block
			if v[0] == '{' {
				b.read(v)
			}
			blocks = append(blocks, b)
		}
	}
	return "", blocks, false
}

package claudecode

import (
	"bytes"
	"encoding/json"
)

// Sniff reports whether head, the first few KB of a file, looks like a
// Claude Code transcript: some whole line in it is a record only Claude
// Code writes. When not even one line fits in head, the field names of
// the line's envelope decide.
func Sniff(head []byte) bool {
	lines := bytes.Split(head, []byte("\n"))
	whole := 0
	for i, line := range lines {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if i == len(lines)-1 && !json.Valid(line) {
			break // cut by the end of head
		}
		whole++
		if sniffLine(line) {
			return true
		}
	}
	if whole > 0 {
		return false
	}
	first := bytes.TrimSpace(lines[0])
	return bytes.HasPrefix(first, []byte("{")) &&
		bytes.Contains(first, []byte(`"parentUuid":`)) &&
		bytes.Contains(first, []byte(`"sessionId":"`))
}

// sniffLine reports whether one line is a Claude Code record.
func sniffLine(line []byte) bool {
	var v struct {
		Type       string    `json:"type"`
		SessionID  string    `json:"sessionId"`
		UUID       string    `json:"uuid"`
		ParentUUID parentRef `json:"parentUuid"`
		LeafUUID   string    `json:"leafUuid"`
		MessageID  string    `json:"messageId"`
		Operation  string    `json:"operation"`
	}
	if json.Unmarshal(line, &v) != nil {
		return false
	}
	switch v.Type {
	case "user", "assistant", "system", "progress", "attachment":
		return v.UUID != "" && (v.ParentUUID.Set || v.SessionID != "")
	case "summary":
		return v.LeafUUID != ""
	case "file-history-snapshot":
		return v.MessageID != ""
	case "queue-operation":
		return v.Operation != "" && v.SessionID != ""
	case "ai-title", "custom-title", "last-prompt":
		return v.SessionID != ""
	}
	return false
}

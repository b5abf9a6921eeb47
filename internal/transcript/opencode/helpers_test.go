package opencode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// obj is one JSON object of a hand-built export.
type obj = map[string]any

// export builds `opencode export` JSON with the shape 1.18.33 prints,
// messages one second apart.
type export struct {
	info  obj
	msgs  []obj
	clock int64
}

func newExport(id string) *export {
	return &export{clock: 1_790_000_000_000, info: obj{
		"id": id, "title": "t", "version": "1.18.33", "directory": "/work/app",
		"time": obj{"created": int64(1_790_000_000_000), "updated": int64(1_790_000_100_000)},
	}}
}

func (e *export) tick() int64 { e.clock += 1000; return e.clock }

// user appends a user message.
func (e *export) user(id string, parts ...obj) *export {
	info := obj{"id": id, "role": "user", "time": obj{"created": e.tick()},
		"model": obj{"providerID": "p", "modelID": "m-user"}}
	return e.add(info, parts)
}

// answer appends an assistant message that finished normally; extra
// fields override the defaults (set "completed" to nil to leave it out).
func (e *export) answer(id string, extra obj, parts ...obj) *export {
	created := e.tick()
	info := obj{"id": id, "role": "assistant", "modelID": "m-1", "providerID": "p",
		"path": obj{"cwd": "/work/app", "root": "/work/app"},
		"time": obj{"created": created, "completed": e.tick()}, "finish": "stop"}
	for k, v := range extra {
		if k == "completed" {
			info["time"] = obj{"created": created}
			continue
		}
		info[k] = v
	}
	return e.add(info, parts)
}

func (e *export) add(info obj, parts []obj) *export {
	ps := make([]any, 0, len(parts))
	for _, p := range parts {
		ps = append(ps, p)
	}
	e.msgs = append(e.msgs, obj{"info": info, "parts": ps})
	return e
}

func (e *export) bytes(t testing.TB) []byte {
	t.Helper()
	b, err := json.Marshal(obj{"info": e.info, "messages": e.msgs})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *export) parse(t testing.TB) transcript.Result {
	t.Helper()
	res, err := ParseExport(bytes.NewReader(e.bytes(t)))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func text(s string) obj { return obj{"type": "text", "text": s} }

func tool(name, status string, input any, output any) obj {
	state := obj{"status": status, "input": input, "time": obj{"start": int64(1_790_000_000_500), "end": int64(1_790_000_000_900)}}
	if status == "error" {
		state["error"] = output
	} else if output != nil {
		state["output"] = output
	}
	return obj{"type": "tool", "tool": name, "callID": "c1", "state": state}
}

// oneTurn parses e and returns its only session's only turn.
func oneTurn(t testing.TB, e *export) memory.Turn {
	t.Helper()
	res := e.parse(t)
	if len(res.Sessions) != 1 || len(res.Sessions[0].Turns) != 1 {
		t.Fatalf("want 1 session with 1 turn, got %+v", res.Sessions)
	}
	return res.Sessions[0].Turns[0]
}

// parseFile runs ParseExport on a testdata file.
func parseFile(t testing.TB, name string) transcript.Result {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := ParseExport(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// partKinds lists a turn's parts as role/kind[/tool] for compact checks.
func partKinds(t memory.Turn) []string {
	out := make([]string, 0, len(t.Parts))
	for _, p := range t.Parts {
		s := string(p.Role) + "/" + string(p.Kind)
		if p.Tool != "" {
			s += "/" + p.Tool
		}
		if p.IsError {
			s += "!"
		}
		out = append(out, s)
	}
	return out
}

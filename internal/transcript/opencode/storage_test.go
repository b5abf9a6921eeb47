package opencode

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// writeStorage lays a real export out as the legacy storage/ tree, the
// way OpenCode ≤1.1 kept it: the same JSON objects, one file each. It
// returns the data root (the directory holding storage/).
func writeStorage(t *testing.T, root string, exportFiles ...string) {
	t.Helper()
	put := func(raw json.RawMessage, parts ...string) {
		p := filepath.Join(append([]string{root, "storage"}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type ids struct {
		ID        string `json:"id"`
		ProjectID string `json:"projectID"`
	}
	idOf := func(raw json.RawMessage) ids {
		var v ids
		if err := json.Unmarshal(raw, &v); err != nil || v.ID == "" {
			t.Fatalf("no id in %s", raw)
		}
		return v
	}
	for _, name := range exportFiles {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Info     json.RawMessage `json:"info"`
			Messages []struct {
				Info  json.RawMessage   `json:"info"`
				Parts []json.RawMessage `json:"parts"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		info := idOf(doc.Info)
		put(doc.Info, "session", info.ProjectID, info.ID+".json")
		for _, m := range doc.Messages {
			mid := idOf(m.Info).ID
			put(m.Info, "message", info.ID, mid+".json")
			for _, p := range m.Parts {
				put(p, "part", mid, idOf(p).ID+".json")
			}
		}
	}
}

// TestStorageMatchesExport: the real shape read from storage/ gives the
// sessions the export gives.
func TestStorageMatchesExport(t *testing.T) {
	root := t.TempDir()
	var files []string
	for _, fx := range realFixtures {
		files = append(files, fx.file)
	}
	writeStorage(t, root, files...)
	res, err := ParseStorage(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.SkippedTotal() != 0 {
		t.Errorf("skipped: %v", res.Stats.Skipped)
	}
	// One file per record of the exports.
	records := 0
	for _, fx := range realFixtures {
		records += fx.records
	}
	if res.Stats.Lines != records || len(res.Files) != records {
		t.Errorf("records = %d, files = %d, want %d", res.Stats.Lines, len(res.Files), records)
	}
	byID := map[string]memory.Session{}
	for _, s := range res.Sessions {
		byID[s.ExternalID] = s
	}
	if len(res.Sessions) != len(realFixtures) {
		t.Fatalf("sessions = %d", len(res.Sessions))
	}
	for _, fx := range realFixtures {
		if want := parseFile(t, fx.file).Sessions[0]; !reflect.DeepEqual(byID[fx.id], want) {
			t.Errorf("%s: storage and export differ", fx.id)
		}
	}
	// The storage directory itself works as well as its parent.
	again, err := ParseStorage(context.Background(), filepath.Join(root, "storage"))
	if err != nil || !reflect.DeepEqual(again.Sessions, res.Sessions) {
		t.Errorf("reading storage/ directly differs: %v", err)
	}
}

func TestStorageDamage(t *testing.T) {
	root := t.TempDir()
	writeStorage(t, root, "real/subagent.export.json", "real/tools-abort.export.json")
	st := filepath.Join(root, "storage")
	// The subagent's session file is lost: its messages still make a
	// session, with only an id.
	if err := os.RemoveAll(filepath.Join(st, "session", "788ad91b1f3932ed780b60c23c2cb09047a4142f", "ses_dd462d815ffeG6IOC57Ownb99s.json")); err != nil {
		t.Fatal(err)
	}
	write := func(rel, content string) {
		if err := os.WriteFile(filepath.Join(st, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("message/ses_dd46453a6ffeXulBS18MWvOTuX/msg_zz_broken.json", `{"role":`)
	write("part/msg_22b9baeb1001m40SrtgZJ7JsQn/prt_zz_broken.json", `[]`)
	write("part/msg_22b9baeb1001m40SrtgZJ7JsQn/notes.txt", `not json, not read`)
	write("session/788ad91b1f3932ed780b60c23c2cb09047a4142f/bad.json", `{"id": "../etc"}`)

	res, err := ParseStorage(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"invalid message": 1, "invalid part": 1, "session without id": 1}
	if !reflect.DeepEqual(res.Stats.Skipped, want) {
		t.Errorf("skipped = %v, want %v", res.Stats.Skipped, want)
	}
	if len(res.Sessions) != 2 {
		t.Fatalf("sessions = %d", len(res.Sessions))
	}
	for _, s := range res.Sessions {
		switch s.ExternalID {
		case "ses_dd462d815ffeG6IOC57Ownb99s":
			if len(s.Turns) != 1 || s.Title != "" || s.Cwd != "/tmp/ocr/demo-repo" {
				t.Errorf("orphaned session = %+v", s)
			}
		case "ses_dd46453a6ffeXulBS18MWvOTuX":
			if len(s.Turns) != 4 {
				t.Errorf("turns = %d", len(s.Turns))
			}
		default:
			t.Errorf("unexpected session %q", s.ExternalID)
		}
	}
}

func TestStorageErrors(t *testing.T) {
	_, err := ParseStorage(context.Background(), t.TempDir())
	if memory.ErrorCode(err) != memory.CodeNotFound {
		t.Errorf("empty dir: %v", err)
	}
	root := t.TempDir()
	writeStorage(t, root, "real/subagent.export.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseStorage(ctx, root); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

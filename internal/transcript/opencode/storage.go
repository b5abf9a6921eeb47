package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// maxStorageFile bounds one storage file; a bigger one is skipped and
// counted rather than read into memory.
const maxStorageFile = transcript.MaxLine

// ParseStorage reads the legacy flat-JSON store OpenCode kept until 1.1
// (1.2 migrates it into opencode.db on first run):
//
//	storage/session/<projectID>/<sessionID>.json   session info
//	storage/message/<sessionID>/<messageID>.json   message info
//	storage/part/<messageID>/<partID>.json         one part
//
// dir is either the storage directory or the data root that holds it
// (DefaultRoot()). Every session found is returned, also one that has
// messages but lost its session file. Files that do not decode are
// counted in Stats and skipped. Messages are ordered by creation time, then
// id; parts by the message's own parts list when it has one (the shape of
// some hand-written data), then by id.
func ParseStorage(ctx context.Context, dir string) (transcript.Result, error) {
	var res transcript.Result
	root := dir
	if fi, err := os.Stat(filepath.Join(dir, "storage")); err == nil && fi.IsDir() {
		root = filepath.Join(dir, "storage")
	}
	if fi, err := os.Stat(filepath.Join(root, "session")); err != nil || !fi.IsDir() {
		return res, &memory.Error{Code: memory.CodeNotFound, Op: "read opencode storage",
			Message: fmt.Sprintf("no OpenCode storage at %s: expected a session/ directory", dir)}
	}
	sr := storageReader{root: root, res: &res}
	infos := sr.sessionInfos()
	// Message directories name sessions too, in case a session file is gone.
	for _, sid := range sr.dirNames(filepath.Join(root, "message")) {
		if _, ok := infos[sid]; !ok && validID(sid) {
			infos[sid] = sessionInfo{ID: sid}
		}
	}
	ids := make([]string, 0, len(infos))
	for id := range infos {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := infos[ids[i]], infos[ids[j]]
		if a.Time.Created != b.Time.Created {
			return a.Time.Created < b.Time.Created
		}
		return ids[i] < ids[j]
	})
	for _, sid := range ids {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("read opencode storage: %w", err)
		}
		msgs := sr.messages(sid)
		s, _ := buildSession(infos[sid], msgs, &res.Stats)
		res.Sessions = append(res.Sessions, s)
	}
	return res, nil
}

// storageReader reads one storage tree into a Result's stats and files.
type storageReader struct {
	root string
	res  *transcript.Result
}

// sessionInfos reads session/<projectID>/<id>.json (and session/<id>.json,
// which a flattened copy may hold).
func (sr storageReader) sessionInfos() map[string]sessionInfo {
	out := map[string]sessionInfo{}
	dir := filepath.Join(sr.root, "session")
	var files []string
	for _, name := range sr.dirNames(dir) {
		files = append(files, sr.jsonFiles(filepath.Join(dir, name))...)
	}
	files = append(files, sr.jsonFiles(dir)...)
	for _, f := range files {
		raw, ok := sr.read(f)
		if !ok {
			continue
		}
		var info sessionInfo
		switch decodeRecord(raw, &info) {
		case decodedInvalid:
			sr.res.Stats.Skip("invalid session info")
			continue
		case decodedPartial:
			sr.res.Stats.Skip("session field of wrong type")
		}
		if info.ID == "" {
			info.ID = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		if !validID(info.ID) {
			sr.res.Stats.Skip("session without id")
			continue
		}
		out[info.ID] = info
	}
	return out
}

// messages reads one session's messages with their parts, in order.
func (sr storageReader) messages(sid string) []message {
	var msgs []message
	for _, f := range sr.jsonFiles(filepath.Join(sr.root, "message", sid)) {
		raw, ok := sr.read(f)
		if !ok {
			continue
		}
		var m message
		if !decodeInfo(raw, &m.Info, &sr.res.Stats) {
			continue
		}
		if m.Info.ID == "" {
			m.Info.ID = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		if validID(m.Info.ID) {
			m.Parts = sr.parts(m.Info.ID, partOrder(raw))
		}
		msgs = append(msgs, m)
	}
	sort.SliceStable(msgs, func(i, j int) bool {
		a, b := msgs[i].Info, msgs[j].Info
		if a.Time.Created != b.Time.Created {
			return a.Time.Created < b.Time.Created
		}
		return a.ID < b.ID
	})
	return msgs
}

// partOrder reads the parts list some hand-written messages carry.
func partOrder(raw []byte) map[string]int {
	var hint struct {
		Parts []string `json:"parts"`
	}
	if json.Unmarshal(raw, &hint) != nil || len(hint.Parts) == 0 {
		return nil
	}
	order := make(map[string]int, len(hint.Parts))
	for i, id := range hint.Parts {
		if _, dup := order[id]; !dup {
			order[id] = i
		}
	}
	return order
}

// parts reads part/<messageID>/*.json.
func (sr storageReader) parts(mid string, order map[string]int) []part {
	var ps []part
	for _, f := range sr.jsonFiles(filepath.Join(sr.root, "part", mid)) {
		raw, ok := sr.read(f)
		if !ok {
			continue
		}
		p, ok := decodePart(raw, &sr.res.Stats)
		if !ok {
			continue
		}
		if p.ID == "" {
			p.ID = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		ps = append(ps, p)
	}
	rank := func(p part) int {
		if i, ok := order[p.ID]; ok {
			return i
		}
		return len(order)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ri, rj := rank(ps[i]), rank(ps[j]); ri != rj {
			return ri < rj
		}
		return ps[i].ID < ps[j].ID
	})
	return ps
}

// read reads one file, records it, and counts it as one record.
func (sr storageReader) read(path string) ([]byte, bool) {
	st := &sr.res.Stats
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		st.Skip("unreadable file")
		return nil, false
	}
	st.Lines++
	if fi.Size() > maxStorageFile {
		st.Skip("file too large")
		return nil, false
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		st.Skip("unreadable file")
		return nil, false
	}
	st.Consumed += int64(len(raw))
	sr.res.Files = append(sr.res.Files, transcript.File{Path: path, Size: fi.Size(), ModTime: fi.ModTime()})
	return raw, true
}

// dirNames lists the subdirectories of dir, sorted; a missing dir is empty.
func (sr storageReader) dirNames(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// jsonFiles lists the *.json files directly in dir, sorted by name.
func (sr storageReader) jsonFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type()&fs.ModeType == 0 && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

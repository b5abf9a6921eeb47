package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// sentLog records, per gateway and transcript, how many bytes the last
// upload sent and their digest. It is a hint: the gateway checks the
// digest against its own copy and answers 409 when they differ, so a lost
// or stale record costs one whole upload, never a wrong file.
type sentLog struct{ dir string }

// sentEntry is one transcript's last upload.
type sentEntry struct {
	Size   int64     `json:"size"`
	SHA256 string    `json:"sha256"`
	At     time.Time `json:"at"`
}

// sentKeep is how long a record outlives its last upload.
const sentKeep = 30 * 24 * time.Hour

func (l sentLog) file() string { return filepath.Join(l.dir, "uploads.json") }

func (l sentLog) load() map[string]sentEntry {
	m := map[string]sentEntry{}
	if l.dir == "" {
		return m
	}
	if b, err := os.ReadFile(l.file()); err == nil {
		_ = json.Unmarshal(b, &m) // a damaged record only costs whole uploads
	}
	return m
}

func (l sentLog) get(key string) (sentEntry, bool) {
	e, ok := l.load()[key]
	return e, ok
}

// put records an upload. Two processes writing at once may lose one
// record; the next upload of that file is then whole.
func (l sentLog) put(key string, size int64, sha string) {
	if l.dir == "" {
		return
	}
	m := l.load()
	now := time.Now()
	for k, e := range m {
		if now.Sub(e.At) > sentKeep {
			delete(m, k)
		}
	}
	m[key] = sentEntry{Size: size, SHA256: sha, At: now}
	b, err := json.Marshal(m)
	if err != nil || os.MkdirAll(l.dir, 0o700) != nil {
		return
	}
	tmp := l.file() + "." + strconv.Itoa(os.Getpid())
	if os.WriteFile(tmp, b, 0o600) != nil {
		return
	}
	if os.Rename(tmp, l.file()) != nil {
		_ = os.Remove(tmp)
	}
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

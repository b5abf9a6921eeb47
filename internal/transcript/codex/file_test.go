package codex

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/klauspost/compress/zstd"
)

const bigFixture = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"

// compress writes data zstd-compressed to path.
func compress(t *testing.T, path string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestZstdRoundTrip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", bigFixture))
	if err != nil {
		t.Fatal(err)
	}
	plain := parseFixture(t, bigFixture)
	path := filepath.Join(t.TempDir(), bigFixture+".zst")
	compress(t, path, data)

	res, err := ParseFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Sessions, plain.Sessions) {
		t.Error("sessions from the .zst file differ from the plain file's")
	}
	if !reflect.DeepEqual(res.Stats, plain.Stats) {
		t.Errorf("stats = %+v, want %+v", res.Stats, plain.Stats)
	}
	st, _ := os.Stat(path)
	if len(res.Files) != 1 || res.Files[0].Path != path || res.Files[0].Size != st.Size() || !res.Files[0].ModTime.Equal(st.ModTime()) {
		t.Errorf("files = %+v", res.Files)
	}
}

func TestZstdTruncated(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", bigFixture))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	full := compress(t, filepath.Join(dir, "full.jsonl.zst"), data)
	cut := filepath.Join(dir, "rollout-cut-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl.zst")
	if err := os.WriteFile(cut, full[:len(full)*2/3], 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := ParseFile(context.Background(), cut)
	if err != nil {
		t.Fatalf("a cut-off frame is not an error: %v", err)
	}
	if !res.Stats.Pending || res.Stats.SkippedTotal() != 0 {
		t.Errorf("stats = %+v, want pending and nothing skipped", res.Stats)
	}
	if res.Stats.Consumed >= int64(len(data)) {
		t.Errorf("consumed %d of %d bytes", res.Stats.Consumed, len(data))
	}
	s := onlySession(t, res)
	if len(s.Turns) == 0 || s.ExternalID != "019e1625-789d-76c0-80ab-3724b5ddb799" {
		t.Errorf("session %s with %d turns", s.ExternalID, len(s.Turns))
	}
}

func TestZstdCorrupt(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", bigFixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.jsonl.zst")
	z := compress(t, path, data)
	for i := len(z) / 2; i < len(z)/2+64; i++ {
		z[i] ^= 0x5a
	}
	if err := os.WriteFile(path, z, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := ParseFile(context.Background(), path)
	if err != nil {
		t.Fatalf("corrupt data is counted, not an error: %v", err)
	}
	if res.Stats.Skipped["corrupt zstd stream"] != 1 {
		t.Errorf("stats = %+v", res.Stats)
	}
}

func TestParseFileIDFromName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout-2026-06-01T10-00-00-019e0000-0000-7000-8000-00000000abcd.jsonl")
	r := (&rollout{}).started("t1").user("hi").answer("hello", "final_answer").complete("t1", "hello")
	if err := os.WriteFile(path, []byte(r.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := ParseFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if s := onlySession(t, res); s.ExternalID != "019e0000-0000-7000-8000-00000000abcd" || len(s.Turns) != 1 {
		t.Errorf("session %q with %d turns", s.ExternalID, len(s.Turns))
	}
}

func TestParseFileMissing(t *testing.T) {
	if _, err := ParseFile(context.Background(), filepath.Join(t.TempDir(), "nope.jsonl")); err == nil {
		t.Fatal("no error for a missing file")
	}
}

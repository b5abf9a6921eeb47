package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDoctorCreatesAHealthyStore(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	code, out, errOut := run(t, "doctor", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var r cli.DoctorReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.OK || r.Store.Integrity != "ok" || r.Store.SchemaVersion != sqlite.SchemaVersion() || r.Database != filepath.Join(home, "cairn.db") {
		t.Fatalf("report %+v", r)
	}
	if _, err := os.Stat(filepath.Join(home, "cairn.db")); err != nil {
		t.Fatal("store not created")
	}
}

func TestHomeFlagBeatsEnvironment(t *testing.T) {
	t.Setenv("CAIRN_HOME", filepath.Join(t.TempDir(), "env"))
	flag := filepath.Join(t.TempDir(), "flag")
	if code, out, errOut := run(t, "--home", flag, "doctor"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(flag, "cairn.db")); err != nil {
		t.Fatal("--home not honoured")
	}
}

func TestBadConfigFailsWithTheKeyNamed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[recall]\nbudget = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "config", "show")
	if code != 2 || !strings.Contains(errOut, "recall.budget") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, out, _ := run(t, "doctor")
	if code == 0 || !strings.Contains(out, "recall.budget") {
		t.Fatalf("doctor passed a broken config: %d %s", code, out)
	}
}

func TestDoctorRefusesANewerStore(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	db, err := sqlite.Open(context.Background(), filepath.Join(home, "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ForceVersionForTest(context.Background(), sqlite.SchemaVersion()+5); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, out, _ := run(t, "doctor")
	if code == 0 || !strings.Contains(out, "newer than this cairn") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

func TestConfigShowSources(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	t.Setenv("CAIRN_RECALL_L2_LIMIT", "2")
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[recall]\nl1_limit = 9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "config", "show", "--json")
	if code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	var got struct {
		FileFound bool `json:"file_found"`
		Keys      []struct{ Key, Value, Source string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"recall.l1_limit": "9 file", "recall.l2_limit": "2 env", "recall.l0_limit": "3 default"}
	for _, k := range got.Keys {
		if w, ok := want[k.Key]; ok && w != k.Value+" "+k.Source {
			t.Errorf("%s: %s %s, want %s", k.Key, k.Value, k.Source, w)
		}
	}
	if !got.FileFound {
		t.Error("file not reported as found")
	}
}

func TestVersionJSON(t *testing.T) {
	code, out, _ := run(t, "version", "--json")
	var v cli.BuildInfo
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.SchemaVersion != sqlite.SchemaVersion() || v.Version == "" {
		t.Fatalf("%d %s", code, out)
	}
}

func TestUnknownCommandIsAUsageError(t *testing.T) {
	code, _, errOut := run(t, "frobnicate")
	if code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Fatalf("%d %q", code, errOut)
	}
}

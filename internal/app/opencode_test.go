package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ocTestdata = "../transcript/opencode/testdata/real"

// fakeOpenCode puts an `opencode` script on PATH that answers `session
// list` and `export ID` from the real captured fixtures, so the wiring of
// `cairn import --opencode` runs end to end without the real CLI.
func fakeOpenCode(t *testing.T) {
	t.Helper()
	abs, err := filepath.Abs(ocTestdata)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := `#!/bin/sh
if [ "$1" = "session" ]; then cat "` + abs + `/session-list.json"; exit 0; fi
if [ "$1" = "export" ]; then
  for f in "` + abs + `"/*.export.json; do
    if grep -q "\"id\": *\"$2\"" "$f"; then cat "$f"; exit 0; fi
  done
  echo "Session not found: $2" >&2; exit 1
fi
exit 2
`
	if err := os.WriteFile(filepath.Join(dir, "opencode"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestOpenCodeThroughTheCLIAndTheDatabaseAgree(t *testing.T) {
	fakeOpenCode(t)
	t.Setenv("CAIRN_HOME", t.TempDir())
	o := importJSON(t, "--opencode")
	if o.Totals.Failed != 0 || o.Totals.Sessions < 3 {
		t.Fatalf("opencode export import: %+v", o.Totals)
	}
	turns, _ := sessionTurns(t)
	if turns != 13 {
		t.Fatalf("%d turns through `opencode export`, want 13 (4 sessions with the subagent)", turns)
	}
	// The same sessions read from the database change nothing.
	o = importJSON(t, "--opencode-db="+filepath.Join(ocTestdata, "opencode.db"))
	if o.Totals.Added != 0 || o.Totals.Updated != 0 || o.Totals.Sessions != 4 {
		t.Fatalf("the database disagrees with the exports: %+v", o.Totals)
	}
	code, _, errOut := run(t, "import", "--opencode=ses_doesnotexist")
	if code == 0 || !strings.Contains(errOut, "failed") {
		t.Fatalf("unknown session: exit %d %s", code, errOut)
	}
}

package setup

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const testCairn = "/opt/cairn/bin/cairn"

// testEnv is a throwaway home and project for one test.
type testEnv struct {
	t       *testing.T
	root    string
	home    string
	project string
	vars    map[string]string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	root := t.TempDir()
	e := &testEnv{t: t, root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj"), vars: map[string]string{}}
	for _, d := range []string{e.home, e.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.vars["HOME"] = e.home
	return e
}

func (e *testEnv) getenv(k string) string { return e.vars[k] }

func (e *testEnv) opts(client string, scope Scope) Options {
	return Options{
		Client: client, Scope: scope, Dir: e.project, Cairn: testCairn,
		Getenv: e.getenv,
		Now:    func() time.Time { return time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC) },
	}
}

// write puts a file (relative to the temp root, or absolute) in place.
func (e *testEnv) write(path, content string) string {
	e.t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.root, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

func (e *testEnv) fixture(name, dest string) string {
	e.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		e.t.Fatal(err)
	}
	return e.write(dest, string(data))
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func run(t *testing.T, o Options) Report {
	t.Helper()
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("setup %s: %v", o.Client, err)
	}
	return rep
}

// fileState is a file's content and modification time.
type fileState struct {
	content string
	mtime   time.Time
}

// snapshot records every file under the root, after pushing every
// mtime into the past so that any later write shows.
func (e *testEnv) snapshot() map[string]fileState {
	e.t.Helper()
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	m := map[string]fileState{}
	err := filepath.WalkDir(e.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if err := os.Chtimes(p, past, past); err != nil {
			return err
		}
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		m[p] = fileState{string(data), fi.ModTime()}
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

// unchangedSince fails if any file appeared, vanished or was written.
func (e *testEnv) unchangedSince(before map[string]fileState) {
	e.t.Helper()
	now := map[string]fileState{}
	filepath.WalkDir(e.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := os.Stat(p)
			data, _ := os.ReadFile(p)
			now[p] = fileState{string(data), fi.ModTime()}
		}
		return nil
	})
	for p, b := range before {
		a, ok := now[p]
		switch {
		case !ok:
			e.t.Errorf("%s was removed", p)
		case a.content != b.content:
			e.t.Errorf("%s was changed", p)
		case !a.mtime.Equal(b.mtime):
			e.t.Errorf("%s was rewritten (mtime changed)", p)
		}
	}
	for p := range now {
		if _, ok := before[p]; !ok {
			e.t.Errorf("%s was created", p)
		}
	}
}

func parseJSONString(t *testing.T, s string) *Object {
	t.Helper()
	f, err := parseJSONFile([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return f.root
}

// sameDoc fails unless two JSON files hold equal documents.
func sameDoc(t *testing.T, what, a, b string) {
	t.Helper()
	if !equalJSON(parseJSONString(t, a), parseJSONString(t, b)) {
		t.Errorf("%s: documents differ:\n%s\n---\n%s", what, a, b)
	}
}

// changesOf lists a report's changes as "path op what".
func changesOf(r Report) []string {
	var out []string
	for _, f := range r.Files {
		for _, c := range f.Changes {
			out = append(out, filepath.Base(f.Path)+" "+string(c.Op)+" "+c.What)
		}
	}
	return out
}

func fileReport(t *testing.T, r Report, path string) FileReport {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("no report for %s in %+v", path, r.Files)
	return FileReport{}
}

func mustEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

func mustContain(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s: %q does not contain %q", what, s, sub)
		}
	}
}

// backups lists the backups of path.
func backups(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + backupSuffix + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

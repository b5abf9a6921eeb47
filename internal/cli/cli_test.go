package cli

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

func TestExitCodes(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{memory.Errorf(memory.CodeInvalid, "x"), 2},
		{memory.Errorf(memory.CodeNotFound, "x"), 3},
		{memory.Errorf(memory.CodeConflict, "x"), 4},
		{memory.Errorf(memory.CodeUnauthorized, "x"), 5},
		{memory.Errorf(memory.CodeUnavailable, "x"), 6},
		{ErrSilent, 1},
		{Classify(errors.New(`unknown command "x" for "cairn"`)), 2},
		{Classify(errors.New("accepts 0 arg(s), received 1")), 2},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

func TestVersionFlags(t *testing.T) {
	ios, _, _, _ := Test()
	var got *VersionOptions
	cmd := newVersionCmd(&Factory{IO: ios, Version: BuildInfo{Version: "1.2.3"}}, func(o *VersionOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !got.JSON || got.Info.Version != "1.2.3" {
		t.Fatalf("%+v", got)
	}
	cmd.SetArgs([]string{"extra"})
	if err := cmd.Execute(); err == nil {
		t.Fatal("extra argument accepted")
	}
}

// fakeStore answers Health; the other methods of the port are not called
// by doctor and would panic through the nil interface.
type fakeStore struct {
	engine.Store
	h memory.StoreHealth
}

func (s fakeStore) Health(context.Context) (memory.StoreHealth, error) { return s.h, nil }
func (fakeStore) Close() error                                         { return nil }

func doctorFactory(t *testing.T, h memory.StoreHealth) *Factory {
	ios, _, _, _ := Test()
	dir := t.TempDir()
	f := &Factory{
		IO:     ios,
		Paths:  func() config.Paths { return config.ResolvePaths(dir, func(string) string { return "" }) },
		Config: func() (*config.Loaded, error) { return config.Parse(nil, dir+"/config.toml", nil) },
		Getenv: func(k string) string {
			if k == "HOME" {
				return dir
			}
			return ""
		},
		OpenEngine: func(context.Context, string, config.Config) (*engine.Engine, error) {
			return engine.New(fakeStore{h: h}, engine.Options{}), nil
		},
	}
	return f
}

func TestDoctorReportsProblems(t *testing.T) {
	cases := []struct {
		name    string
		health  memory.StoreHealth
		ok      bool
		mention string
	}{
		{"healthy", memory.StoreHealth{Kind: "sqlite", Integrity: "ok", SchemaVersion: 3, BinarySchema: 3}, true, ""},
		{"corrupt", memory.StoreHealth{Kind: "sqlite", Integrity: "row 3 missing from index", SchemaVersion: 3, BinarySchema: 3}, false, "integrity"},
		{"schema mismatch", memory.StoreHealth{Kind: "sqlite", Integrity: "ok", SchemaVersion: 2, BinarySchema: 3}, false, "schema version 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := doctorFactory(t, c.health)
			o := &DoctorOptions{IO: f.IO, Factory: f, JSON: true}
			err := runDoctor(context.Background(), o)
			if (err == nil) != c.ok {
				t.Fatalf("err = %v", err)
			}
			var r DoctorReport
			if e := json.Unmarshal(f.IO.Out.(interface{ Bytes() []byte }).Bytes(), &r); e != nil {
				t.Fatal(e)
			}
			if r.OK != c.ok || (c.mention != "" && !strings.Contains(strings.Join(r.Problems, " "), c.mention)) {
				t.Fatalf("report %+v", r)
			}
		})
	}
}

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/resident"
	"github.com/cairn-memory/cairn/internal/setup"
	"github.com/spf13/cobra"
)

// DoctorOptions holds `cairn doctor`'s inputs.
type DoctorOptions struct {
	IO      *IOStreams
	Factory *Factory
	JSON    bool
}

// DoctorReport is what doctor found.
type DoctorReport struct {
	OK          bool               `json:"ok"`
	Problems    []string           `json:"problems"`
	Version     BuildInfo          `json:"version"`
	DataDir     string             `json:"data_dir"`
	Database    string             `json:"database"`
	ConfigFile  string             `json:"config_file"`
	ConfigFound bool               `json:"config_found"`
	Store       memory.StoreHealth `json:"store"`
	// Gateway is set in remote mode: the store is the gateway's.
	Gateway *GatewayStatus `json:"gateway,omitempty"`
	// Resident is the process answering hooks; nil with hooks.resident off.
	Resident *DaemonStatus  `json:"resident,omitempty"`
	Clients  []ClientStatus `json:"clients"`
}

// ClientStatus says whether a client is wired to cairn.
type ClientStatus struct {
	Client string `json:"client"`
	Hooks  bool   `json:"hooks"`
	MCP    bool   `json:"mcp"`
	Detail string `json:"detail,omitempty"`
}

func newDoctorCmd(f *Factory, runF func(context.Context, *DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the data dir, the store and the configuration",
		Long: `doctor creates the store if there is none, checks its integrity and schema,
counts its rows, and shows which configuration file is in use. It exits
non-zero and says what to do when something is wrong.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runDoctor(cmd.Context(), opts)
		},
	}
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runDoctor(ctx context.Context, o *DoctorOptions) error {
	f := o.Factory
	p := f.Paths()
	r := DoctorReport{Version: f.Version, DataDir: p.DataDir, Database: p.DB, ConfigFile: p.ConfigFile, Clients: []ClientStatus{}}
	if _, err := os.Stat(p.ConfigFile); err == nil {
		r.ConfigFound = true
	}
	cfg := config.Default()
	if l, err := f.Config(); err != nil {
		r.Problems = append(r.Problems, describe(err))
	} else {
		cfg = l.Config
	}
	rc, rerr := f.remote()
	switch {
	case rerr != nil:
		r.Database = ""
		r.Problems = append(r.Problems, describe(rerr))
	case rc != nil:
		// Remote mode: the gateway's store is checked, and no local one
		// is created. The data dir still takes the hooks' log.
		defer rc.Close()
		r.Database = ""
		if err := checkWritable(p.DataDir); err != nil {
			r.Problems = append(r.Problems, err.Error())
		}
		r.Gateway = checkGateway(ctx, rc, f.Getenv("CAIRN_URL"), &r.Problems)
		r.Store = r.Gateway.Store
	default:
		closeStore := checkLocalStore(ctx, f, cfg, &r)
		defer closeStore()
	}
	if cfg.Hooks.Resident {
		r.Resident = &DaemonStatus{Socket: residentSocket(f)}
		if a, err := f.callDaemon(resident.Status); err == nil {
			_ = json.Unmarshal(a.Stdout, r.Resident)
		}
	}
	wd, _ := os.Getwd()
	for _, c := range setup.Status(setup.Options{Getenv: f.Getenv, Dir: wd}) {
		r.Clients = append(r.Clients, ClientStatus{Client: c.Client, Hooks: c.Hooks, MCP: c.MCP, Detail: c.Detail})
	}
	r.OK = len(r.Problems) == 0
	if r.Problems == nil {
		r.Problems = []string{}
	}
	if o.JSON {
		if err := printJSON(o.IO.Out, r); err != nil {
			return err
		}
	} else {
		printDoctor(o.IO, r)
	}
	if !r.OK {
		if o.JSON {
			return ErrSilent
		}
		return memory.Errorf(memory.CodeInternal, "doctor found %d problem(s); fix them as described above", len(r.Problems))
	}
	return nil
}

// checkLocalStore creates this machine's store if there is none and
// checks it; the caller runs the returned func when done.
func checkLocalStore(ctx context.Context, f *Factory, cfg config.Config, r *DoctorReport) func() {
	p := f.Paths()
	if err := checkWritable(p.DataDir); err != nil {
		r.Problems = append(r.Problems, err.Error())
		return func() {}
	}
	eng, err := f.OpenEngine(ctx, p.DB, cfg)
	if err != nil {
		r.Problems = append(r.Problems, describe(err))
		return func() {}
	}
	h, err := eng.Health(ctx)
	r.Store = h
	switch {
	case err != nil:
		r.Problems = append(r.Problems, describe(err))
	case h.Integrity != "ok":
		r.Problems = append(r.Problems, fmt.Sprintf("database integrity check failed (%s); restore %s from a backup or move it aside and re-import", h.Integrity, p.DB))
	case h.SchemaVersion != h.BinarySchema:
		r.Problems = append(r.Problems, fmt.Sprintf("schema version %d does not match this cairn's %d", h.SchemaVersion, h.BinarySchema))
	}
	return func() { eng.Close() }
}

func printDoctor(io *IOStreams, r DoctorReport) {
	w := io.Out
	t := &table{}
	t.add("cairn", r.Version.Version+" (schema "+fmt.Sprint(r.Version.SchemaVersion)+")")
	t.add("data dir", r.DataDir)
	if g := r.Gateway; g != nil {
		t.add("gateway", g.URL+" (remote mode: CAIRN_URL)")
		if g.Status != "" {
			t.add("account", fmt.Sprintf("%s (id %d)", orNone(g.AccountName), g.Account))
			role := "agent"
			if g.Token.Operator {
				role = "operator"
			}
			t.add("token", fmt.Sprintf("%s… %s (%s)", g.Token.Hint, orNone(g.Token.Name), role))
			t.add("gateway version", g.Version)
		}
	} else {
		t.add("database", r.Database)
	}
	cfg := r.ConfigFile + " (not present: defaults in use)"
	if r.ConfigFound {
		cfg = r.ConfigFile
	}
	t.add("config", cfg)
	switch d := r.Resident; {
	case d == nil:
		t.add("hooks", "each hook answers itself (hooks.resident off)")
	case d.Running:
		t.add("hooks", fmt.Sprintf("resident process %d, %d served, %d sent back", d.PID, d.Served, d.SentBack))
	default:
		t.add("hooks", "no resident process running: the next hook starts one")
	}
	if r.Store.Kind != "" {
		t.add("schema", fmt.Sprintf("%d (binary %d)", r.Store.SchemaVersion, r.Store.BinarySchema))
		t.add("integrity", r.Store.Integrity)
		t.add("journal", r.Store.JournalMode)
	}
	t.print(w)
	if len(r.Store.Rows) > 0 {
		fmt.Fprintln(w, io.Bold("rows"))
		names := make([]string, 0, len(r.Store.Rows))
		for n := range r.Store.Rows {
			names = append(names, n)
		}
		sort.Strings(names)
		rt := &table{}
		for _, n := range names {
			rt.add("  "+n, fmt.Sprint(r.Store.Rows[n]))
		}
		rt.print(w)
	}
	fmt.Fprintln(w, io.Bold("clients"))
	if len(r.Clients) == 0 {
		fmt.Fprintln(w, "  none set up yet: run `cairn setup claude-code` (or codex, opencode)")
	}
	for _, c := range r.Clients {
		fmt.Fprintf(w, "  %s: hooks %v, mcp %v %s\n", c.Client, c.Hooks, c.MCP, c.Detail)
	}
	if r.OK {
		fmt.Fprintln(w, io.Green("healthy"))
		return
	}
	for _, pr := range r.Problems {
		fmt.Fprintln(w, io.Red("problem: ")+pr)
	}
}

// checkWritable makes sure the data dir exists and accepts files.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create data dir %s: %v; choose another with --home or CAIRN_HOME", dir, err)
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return fmt.Errorf("data dir %s is not writable: %v; fix its permissions or choose another with --home", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// describe turns an error into a line for the user.
func describe(err error) string {
	if m := memory.ErrorMessage(err); m != "" {
		return m
	}
	return strings.TrimSpace(err.Error())
}

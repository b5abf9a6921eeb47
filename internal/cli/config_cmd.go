package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/cairn-memory/cairn/internal/config"

	"github.com/spf13/cobra"
)

func newConfigCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show or change the configuration",
	}
	cmd.AddCommand(newConfigShowCmd(f, nil), newConfigSetCmd(f))
	return cmd
}

func newConfigSetCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Change a run-time setting kept in the store (global switches, budgets); VALUE \"\" returns to the file's value",
		Example: `  cairn config set memory.recall false     # stop showing memory to agents
  cairn config set memory.capture false    # stop learning; what arrives meanwhile waits
  cairn config set memory.capture true     # learn again, including what waited
  cairn config set temporal.rung_decision repo`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := f.Engine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			if err := eng.SetSetting(cmd.Context(), args[0], args[1]); err != nil {
				return err
			}
			sw, err := eng.Switches(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, sw)
			}
			fmt.Fprintf(f.IO.Out, "%s = %q (kept in the store)\nmemory: enabled %v, capture %v, recall %v, learn from external context %v\n",
				args[0], args[1], sw.Enabled, sw.Capture, sw.Recall, sw.LearnExternal)
			return nil
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// ConfigShowOptions holds `cairn config show`'s inputs.
type ConfigShowOptions struct {
	IO      *IOStreams
	Factory *Factory
	JSON    bool
}

func newConfigShowCmd(f *Factory, runF func(*ConfigShowOptions) error) *cobra.Command {
	opts := &ConfigShowOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show every key's effective value and where it came from",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runConfigShow(opts)
		},
	}
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runConfigShow(o *ConfigShowOptions) error {
	l, err := o.Factory.Config()
	if err != nil {
		return err
	}
	// Settings changed at run time live in the store; show them over the
	// file's, but never create a store just to look.
	if _, err := os.Stat(o.Factory.Paths().DB); err == nil {
		ctx := context.Background()
		if eng, err := o.Factory.Engine(ctx); err == nil {
			defer eng.Close()
			if _, set, err := eng.Effective(ctx); err == nil {
				for i, k := range l.Keys {
					if v, ok := set[k.Name]; ok {
						l.Keys[i].Value, l.Keys[i].Source = v, config.FromStore
					}
				}
			}
		}
	}
	if o.JSON {
		return printJSON(o.IO.Out, struct {
			File      string `json:"file"`
			FileFound bool   `json:"file_found"`
			Keys      any    `json:"keys"`
		}{l.File, l.FileFound, l.Keys})
	}
	state := "not present, defaults in use"
	if l.FileFound {
		state = "in use"
	}
	fmt.Fprintf(o.IO.Out, "%s %s (%s)\n", o.IO.Bold("config file"), l.File, state)
	t := &table{}
	t.add("KEY", "VALUE", "SOURCE", "ENV")
	for _, k := range l.Keys {
		t.add(k.Name, k.Value, string(k.Source), k.Env)
	}
	t.print(o.IO.Out)
	return nil
}

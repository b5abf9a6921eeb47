package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newConfigCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show or change the configuration",
	}
	cmd.AddCommand(newConfigShowCmd(f, nil))
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

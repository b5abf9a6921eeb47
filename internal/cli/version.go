package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

// VersionOptions holds `cairn version`'s inputs.
type VersionOptions struct {
	IO   *IOStreams
	Info BuildInfo
	JSON bool
}

func newVersionCmd(f *Factory, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and schema version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			opts.Info = f.Version
			if runF != nil {
				return runF(opts)
			}
			return runVersion(opts)
		},
	}
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runVersion(o *VersionOptions) error {
	if o.JSON {
		return printJSON(o.IO.Out, o.Info)
	}
	fmt.Fprintf(o.IO.Out, "cairn %s (commit %s, schema %d, %s)\n", o.Info.Version, o.Info.Commit, o.Info.SchemaVersion, o.Info.Go)
	return nil
}

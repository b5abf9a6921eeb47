package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// UIOptions are `cairn ui`'s flags.
type UIOptions struct {
	Addr   string
	NoOpen bool
	Out    io.Writer
}

func newUICmd(f *Factory) *cobra.Command {
	o := UIOptions{}
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Open the memory screen in a browser: see, correct, pin and forget what cairn remembers",
		Long: `ui serves cairn's memory screen for this machine's store on 127.0.0.1 and
prints a one-time link that signs the browser in (and opens it when a browser
is available). The link works once and for ten minutes; the server runs until
Ctrl-C. A team gateway serves the same screens under /ui/ (` + "`cairn serve`" + `),
where people sign in with their API token.`,
		Example: `  cairn ui
  cairn ui --addr 127.0.0.1:7788 --no-open`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = f.IO.Out
			return f.Team.UI(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Addr, "addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one)")
	cmd.Flags().BoolVar(&o.NoOpen, "no-open", false, "print the link without opening a browser")
	return cmd
}

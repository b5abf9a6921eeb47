package cli

import (
	"context"
	"io"

	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/remote"
	"github.com/spf13/cobra"
)

// Team is what the gateway commands need from the composition root.
type Team interface {
	// Serve runs the gateway until ctx ends.
	Serve(ctx context.Context, o ServeOptions) error
	// Accounts opens the account store of db ("" is this machine's store);
	// the caller closes it.
	Accounts(ctx context.Context, db string) (gateway.Accounts, io.Closer, error)
	// Purge physically deletes an account's retracted and forgotten rows
	// in db ("" is this machine's store).
	Purge(ctx context.Context, db, account string) (memory.PurgeCounts, error)
	// Remote is the gateway client when CAIRN_URL and CAIRN_TOKEN are set;
	// nil when they are not.
	Remote() (*remote.Client, error)
	// UI serves the memory screen over this machine's store until ctx
	// ends, printing a one-time sign-in link.
	UI(ctx context.Context, o UIOptions) error
}

// ServeOptions are `cairn serve`'s flags.
type ServeOptions struct {
	Addr, DB         string
	TLSCert, TLSKey  string
	Out              io.Writer
	RatePerSecond    float64
	Burst            int
	MaxBodyBytes     int64
	WorkEverySeconds int
	TimeoutSeconds   int
}

func newServeCmd(f *Factory) *cobra.Command {
	o := ServeOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the team gateway: the HTTP API under /v1/ and MCP at /mcp, one store and vault per account",
		Long: `serve runs cairn's team gateway. Every request needs a token made with
` + "`cairn token create --account NAME`" + ` and sees only that account's memory. It binds
127.0.0.1 by default; to serve other machines, give --tls-cert and --tls-key
or put it behind a reverse proxy that terminates TLS (docs/gateway.md).
The gateway runs each account's background round (promotion, extraction,
consolidation) itself. The API is described in docs/api.md.`,
		Example: `  cairn account create team
  cairn token create --account team --name laptop
  cairn serve --addr 127.0.0.1:7777
  cairn serve --db postgres://cairn@db/cairn --addr 0.0.0.0:443 --tls-cert cert.pem --tls-key key.pem`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (o.TLSCert == "") != (o.TLSKey == "") {
				return memory.Errorf(memory.CodeInvalid, "give both --tls-cert and --tls-key, or neither")
			}
			o.Out = f.IO.Out
			return f.Team.Serve(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Addr, "addr", "127.0.0.1:7777", "address to listen on")
	cmd.Flags().StringVar(&o.DB, "db", "", "store: a SQLite file or a postgres:// URL (default: this machine's store)")
	cmd.Flags().StringVar(&o.TLSCert, "tls-cert", "", "serve HTTPS with this certificate (PEM)")
	cmd.Flags().StringVar(&o.TLSKey, "tls-key", "", "and this private key (PEM)")
	cmd.Flags().Float64Var(&o.RatePerSecond, "rate", 50, "requests per second each token may make on average")
	cmd.Flags().IntVar(&o.Burst, "burst", 100, "requests a token may make at once")
	cmd.Flags().Int64Var(&o.MaxBodyBytes, "max-body", 1<<20, "largest request body in bytes (transcript uploads may be 64 times larger)")
	cmd.Flags().IntVar(&o.WorkEverySeconds, "work-every", 60, "seconds between background rounds")
	cmd.Flags().IntVar(&o.TimeoutSeconds, "timeout", 30, "seconds one request may take")
	return cmd
}

// remote is the gateway client in remote mode, nil otherwise.
func (f *Factory) remote() (*remote.Client, error) {
	if f.Team == nil {
		return nil, nil
	}
	return f.Team.Remote()
}

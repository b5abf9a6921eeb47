package cli

import (
	"fmt"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newPurgeCmd(f *Factory) *cobra.Command {
	var db, account string
	var yes, asJSON bool
	cmd := &cobra.Command{
		Use:   "purge",
		Short: "Operator only: delete retracted and forgotten memory for good, then compact the store",
		Long: `purge is the one physical delete in cairn. Retracting and forgetting keep a
row as history; purge deletes those rows, their full-text index terms and
the receipts, candidates and pending writes that carried their text, then
vacuums the store, so the text is in none of its bytes. Raw transcripts
(L0) are not touched.

Locally it purges this machine's store (or --db) for --account (default:
the local account). With CAIRN_URL and CAIRN_TOKEN set it asks the gateway,
which accepts only an operator token (` + "`cairn token create --operator`" + `).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !yes {
				return memory.Errorf(memory.CodeInvalid, "purge cannot be undone: run it again with --yes")
			}
			var counts memory.PurgeCounts
			rc, err := f.remote()
			if err != nil {
				return err
			}
			if rc != nil && db == "" && account == "" {
				defer rc.Close()
				counts, err = rc.Purge(cmd.Context())
			} else {
				counts, err = f.Team.Purge(cmd.Context(), db, account)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, counts)
			}
			fmt.Fprintf(f.IO.Out, "purged %d statements, %d episodes and %d receipts, candidates or pending writes\n",
				counts.Statements, counts.Episodes, counts.Traces)
			return nil
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "store: a SQLite file or a postgres:// URL (default: this machine's store)")
	cmd.Flags().StringVar(&account, "account", "", "the account to purge (default: the local account)")
	cmd.Flags().BoolVar(&yes, "yes", false, "confirm: the deleted rows cannot be brought back")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

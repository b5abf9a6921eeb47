package cli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
)

func newAccountCmd(f *Factory) *cobra.Command {
	var db string
	cmd := &cobra.Command{
		Use:   "account",
		Short: "Manage the gateway's accounts (each has its own memory)",
	}
	cmd.PersistentFlags().StringVar(&db, "db", "", "store: a SQLite file or a postgres:// URL (default: this machine's store)")
	var asJSON bool
	create := &cobra.Command{
		Use:   "create NAME",
		Short: "Add an account",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			acc, c, err := f.Team.Accounts(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer c.Close()
			a, err := acc.Create(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, a)
			}
			fmt.Fprintf(f.IO.Out, "created account %s (#%d); make it a token with `cairn token create --account %s`\n", a.Name, a.ID, a.Name)
			return nil
		},
	}
	addJSONFlag(create, &asJSON)
	var listJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List accounts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			acc, c, err := f.Team.Accounts(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer c.Close()
			as, err := acc.Store.Accounts(cmd.Context())
			if err != nil {
				return err
			}
			if listJSON {
				return printJSON(f.IO.Out, as)
			}
			var t table
			t.add("ID", "NAME")
			for _, a := range as {
				t.add(strconv.FormatInt(int64(a.ID), 10), a.Name)
			}
			t.print(f.IO.Out)
			return nil
		},
	}
	addJSONFlag(list, &listJSON)
	cmd.AddCommand(create, list)
	return cmd
}

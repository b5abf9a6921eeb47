package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newTokenCmd(f *Factory) *cobra.Command {
	var db, account string
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Manage an account's API tokens for the gateway",
	}
	cmd.PersistentFlags().StringVar(&db, "db", "", "store: a SQLite file or a postgres:// URL (default: this machine's store)")
	cmd.PersistentFlags().StringVar(&account, "account", "", "the account (required)")
	_ = cmd.MarkPersistentFlagRequired("account")

	var name string
	var operator, createJSON bool
	create := &cobra.Command{
		Use:   "create",
		Short: "Make a token; it is shown once and only its hash is kept",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			acc, c, err := f.Team.Accounts(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer c.Close()
			secret, t, err := acc.Issue(cmd.Context(), account, name, operator)
			if err != nil {
				return err
			}
			if createJSON {
				return printJSON(f.IO.Out, struct {
					Token  string       `json:"token"`
					Record memory.Token `json:"record"`
				}{secret, t})
			}
			fmt.Fprintln(f.IO.Out, secret)
			fmt.Fprintf(f.IO.ErrOut, "token #%d for %s: copy it now, it is not shown again (set CAIRN_TOKEN to it and CAIRN_URL to the gateway)\n", t.ID, account)
			return nil
		},
	}
	create.Flags().StringVar(&name, "name", "", "what the token is for, e.g. the machine")
	create.Flags().BoolVar(&operator, "operator", false, "an operator token: may also purge")
	addJSONFlag(create, &createJSON)

	var listJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List an account's tokens (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			acc, c, err := f.Team.Accounts(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer c.Close()
			ts, err := acc.Tokens(cmd.Context(), account)
			if err != nil {
				return err
			}
			if listJSON {
				return printJSON(f.IO.Out, ts)
			}
			var tb table
			tb.add("ID", "HINT", "NAME", "ROLE", "CREATED", "STATE")
			for _, t := range ts {
				role, state := "agent", "live"
				if t.Operator {
					role = "operator"
				}
				if t.Revoked() {
					state = "revoked " + t.RevokedAt.Format(time.DateOnly)
				}
				tb.add(strconv.FormatInt(t.ID, 10), t.Hint+"…", t.Name, role, t.CreatedAt.Format(time.DateOnly), state)
			}
			tb.print(f.IO.Out)
			return nil
		},
	}
	addJSONFlag(list, &listJSON)

	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Stop a token at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return memory.Errorf(memory.CodeInvalid, "%q is not a token id: see `cairn token list --account %s`", args[0], account)
			}
			acc, c, err := f.Team.Accounts(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer c.Close()
			t, err := acc.Revoke(cmd.Context(), account, id)
			if err != nil {
				return err
			}
			fmt.Fprintf(f.IO.Out, "revoked token #%d (%s…)\n", t.ID, t.Hint)
			return nil
		},
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}

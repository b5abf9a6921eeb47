package cli

import (
	"github.com/spf13/cobra"
)

// NewRootCmd builds the command tree.
func NewRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "cairn",
		Short: "Long-term memory for AI coding agents",
		Long: `cairn remembers what you tell your coding agents — Claude Code, Codex,
OpenCode or any MCP client — and shows them the right slice of it at the
right moment. Everything stays on this machine unless you run a team gateway.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			if h, err := cmd.Flags().GetString("home"); err == nil && h != "" {
				f.Home = h
			}
		},
	}
	root.PersistentFlags().String("home", "", "data and config directory (default: $CAIRN_HOME, else XDG dirs)")
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.CompletionOptions.HiddenDefaultCmd = true

	root.AddCommand(
		newVersionCmd(f, nil),
		newDoctorCmd(f, nil),
		newConfigCmd(f),
		newImportCmd(f, nil),
		newSessionsCmd(f, nil),
		newShowCmd(f, nil),
		newDemoCmd(f, nil),
		newSearchCmd(f, nil),
		newEvalCmd(f),
		newFactCmd(f),
		newRememberCmd(f),
		newForgetCmd(f),
		newUndoCmd(f),
		newPinCmd(f),
		newEditCmd(f),
		newUnpinCmd(f),
		newNotesCmd(f),
		newTUICmd(f, nil),
		newMaintainCmd(f),
		newRecallCmd(f),
		newReceiptsCmd(f),
		newSessionCmd(f),
		newPresetCmd(f),
		newHookCmd(f),
		newDaemonCmd(f),
		newMCPCmd(f),
		newSetupCmd(f),
		newConsolidateCmd(f),
		newWorkerCmd(f),
		newVaultCmd(f),
		newResetCmd(f),
		newCostsCmd(f, nil),
		newServeCmd(f),
		newUICmd(f),
		newAccountCmd(f),
		newTokenCmd(f),
		newPurgeCmd(f),
	)
	return root
}

// addJSONFlag gives a command the --json switch every data-printing
// command has.
func addJSONFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "json", false, "print JSON instead of text")
}

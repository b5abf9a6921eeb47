// Package app is cairn's one composition root: it builds the adapters
// (SQLite store, git place resolver, …), hands them to the engine and the
// commands, runs the command line, and maps errors to exit codes in one
// place. Nothing below it calls os.Exit.
package app

// Package cli holds cairn's commands. Each command is an Options struct, a
// newXCmd constructor that parses flags into it, and a runX function that
// does the work with injected streams, so flag parsing and behaviour are
// tested apart. Every command that prints data takes --json.
package cli

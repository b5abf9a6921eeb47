// Package demo writes cairn's bundled sample sessions — a day of work in
// Claude Code and a next-day Codex session in the same repository — into a
// scratch directory, in each client's real transcript format, so `cairn
// demo` can show the whole story on a fresh machine with no client, model
// or server installed.
package demo

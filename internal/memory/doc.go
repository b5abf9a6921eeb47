// Package memory holds cairn's nouns — places, sessions, turns, parts,
// statements — and the one error type shared by every layer. It does no I/O:
// everything here is plain data and pure rules, so it can be tested with
// tables and imported by every other package.
package memory

// Package transcript holds what every client importer shares: the result
// of reading one transcript source, the skip accounting, and a JSONL line
// reader that copes with very long lines and a half-written last line. The
// importers themselves live in subpackages named after each client and never
// import each other.
package transcript

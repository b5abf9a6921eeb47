// Package jsonscan is a small JSON reader for the transcript importers.
// A line is validated once, the members an importer asks for are found by
// skipping over the rest, and only the strings it keeps are decoded —
// accepting and decoding exactly what encoding/json does, at several times
// its speed on multi-megabyte lines.
package jsonscan

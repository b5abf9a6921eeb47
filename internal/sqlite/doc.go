// Package sqlite implements the engine's store ports on SQLite through
// modernc.org/sqlite (pure Go, no cgo). One writer connection whose
// transactions begin IMMEDIATE serializes writes across goroutines and,
// with busy_timeout, across processes; a separate read-only pool serves
// reads. Numbered migrations are embedded and recorded, each applied in
// its own transaction.
package sqlite

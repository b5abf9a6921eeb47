// Package postgres implements the engine's store ports on PostgreSQL
// through pgx (pgxpool), for a team gateway that serves many accounts
// from one database. It passes the same conformance suite as the SQLite
// store (internal/storetest), down to the hit sets of a search at each k:
// each layer's index is a tsvector with a GIN index, built from
// internal/text's tokens, and rows are ranked in Go by the bm25 that
// SQLite's FTS5 computes, from the same features (docs/postgres.md).
//
// Two roles: the owner runs the numbered, embedded migrations (Migrate)
// and owns the tables; the server connects as an application role that is
// neither superuser nor BYPASSRLS (Open). Every account table has
// row-level security ENABLEd and FORCEd with a policy on the setting
// cairn.account, which each transaction sets for itself with
// set_config(…, true) (SET LOCAL), so a pooled connection never carries
// one request's account into another's; every query also names the
// account itself.
package postgres

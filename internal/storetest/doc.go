// Package storetest is the conformance suite every store passes: one set
// of table tests over the engine's store ports (engine.Store), run by the
// SQLite store always and by the PostgreSQL store when CAIRN_TEST_POSTGRES
// names a database. A store that passes it is interchangeable under the
// engine, down to the hit sets of a search at each k (the golden file
// testdata/search.golden.json, recorded from SQLite with -update).
package storetest

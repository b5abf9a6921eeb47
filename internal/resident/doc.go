// Package resident is the wire between a client's hook and cairn's
// resident hook server: one request and one answer per connection over a
// Unix socket under the data dir. A hook process that starts, forwards its
// payload and prints the answer costs a few milliseconds; one that opens the
// store and reads it cold costs tens. The package imports only the standard
// library, so the small `cairn-hook` binary stays small.
package resident

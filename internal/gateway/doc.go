// Package gateway is cairn's team gateway: an HTTP API under /v1/ and MCP
// over streamable HTTP at /mcp, in front of one engine per account. Every
// request is tied to exactly one account by its bearer token or refused;
// a request that cannot be tied to an account reaches no engine.
//
// The package declares the ports it consumes (AccountStore, Engine,
// Engines) and knows no store: the app wires SQLite or PostgreSQL in.
package gateway

// Package remote is the client of a cairn gateway: it satisfies the same
// ports as the local engine for the operations hooks, `cairn mcp` and the
// CLI use, so that with CAIRN_URL and CAIRN_TOKEN set they talk to the
// team's gateway instead of the local store.
package remote

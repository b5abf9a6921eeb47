// Package engine holds cairn's use cases: import, search, capture, recall,
// statements, maintenance. It declares the ports it consumes (the store, the
// clock, place resolution, models, the vault) as small interfaces; adapters
// implement them and the app package wires them together.
package engine

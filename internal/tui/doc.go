// Package tui is `cairn tui`: a terminal memory manager over the engine.
// It lists what cairn remembers by layer (L1 notes, L2 episodes, the L3
// profile) and what was forgotten, searches every layer, and forgets,
// restores and pins rows. Every engine call runs as a bubbletea command,
// so the screen never waits on the store, and the model is a plain value
// that tests drive with key messages.
package tui

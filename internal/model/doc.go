// Package model is cairn's port to language models and the work it asks
// of them: the Chat port every provider adapter (internal/openai,
// internal/anthropic, internal/clicmd) implements, the phase 1 extractor,
// the turn-fact extractor, the phase 2 agent loop over vault file tools,
// output validation and the price table used to estimate cost.
//
// It does no I/O of its own: providers and tools come in as interfaces,
// so the prompts, the validation and the loop are tested with the real
// adapters against scripted servers.
package model

// Package embedtest is a scripted OpenAI-compatible /v1/embeddings server
// on 127.0.0.1 for tests and offline evaluations. It speaks the real wire
// protocol (JSON in, float lists or base64 float32 out) and answers with
// deterministic vectors: a hashed bag of words, so texts that share words
// are close, plus scripted synonyms, so chosen words that share none are
// close too. It is a stand-in for a real model, which is not available
// offline; it knows nothing of meaning beyond what a test scripts.
package embedtest

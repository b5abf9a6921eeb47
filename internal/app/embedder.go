package app

import (
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/openaiembed"
)

// embedder is the semantic leg's endpoint, or nil when none is configured.
// The key is read from the environment variable the config names, never
// from the file.
func embedder(c config.Embeddings, getenv func(string) string) (engine.Embedder, error) {
	if !c.SemanticSearch() {
		return nil, nil
	}
	key := ""
	if c.KeyEnv != "" {
		key = getenv(c.KeyEnv)
	}
	cl, err := openaiembed.New(openaiembed.Options{
		BaseURL: c.BaseURL, Model: c.Model, Dimensions: c.Dimensions, Key: key,
		Timeout: time.Duration(c.Timeout), Retries: 1,
	})
	if err != nil {
		return nil, memory.Wrap(memory.CodeInvalid, "embeddings", err)
	}
	return cl, nil
}

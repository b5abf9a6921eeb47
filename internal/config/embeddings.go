package config

import (
	"net/url"
	"strings"
)

// SemanticSearch reports whether an embeddings endpoint is configured.
func (e Embeddings) SemanticSearch() bool { return strings.TrimSpace(e.BaseURL) != "" }

func (e Embeddings) validate(bad func(string, ...any)) {
	if e.Dimensions < 0 {
		bad("embeddings.dimensions must not be negative")
	}
	if e.RRFK < 0 {
		bad("embeddings.rrf_k must not be negative")
	}
	if e.MinSimilarity < -1 || e.MinSimilarity > 1 {
		bad("embeddings.min_similarity must be between -1 and 1, not %v", e.MinSimilarity)
	}
	if !e.SemanticSearch() {
		return
	}
	u, err := url.Parse(e.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("embeddings.base_url must be an http or https URL such as http://127.0.0.1:11434/v1, not %q", e.BaseURL)
	}
	if u != nil && u.User != nil {
		bad("embeddings.base_url must not carry credentials; put the key in the variable named by embeddings.key_env")
	}
	if strings.TrimSpace(e.Model) == "" {
		bad("embeddings.model must be set when embeddings.base_url is")
	}
	if e.Batch < 1 || e.MaxChars < 1 || e.PerRound < 1 {
		bad("embeddings.batch, embeddings.max_chars and embeddings.per_round must be at least 1")
	}
	if e.Timeout <= 0 || e.QueryTimeout <= 0 {
		bad("embeddings.timeout and embeddings.query_timeout must be positive")
	}
}

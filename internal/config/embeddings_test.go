package config

import (
	"strings"
	"testing"
)

func TestEmbeddingsAreOffByDefault(t *testing.T) {
	l, err := Parse(nil, "none", nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Embeddings.SemanticSearch() {
		t.Fatal("semantic search must be off until an endpoint is configured")
	}
}

func TestEmbeddingsConfig(t *testing.T) {
	cases := []struct {
		name string
		file string
		env  map[string]string
		bad  string // part of the error; empty: valid
	}{
		{"ollama", "[embeddings]\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"nomic-embed-text\"\n", nil, ""},
		{"from the environment", "", map[string]string{"CAIRN_EMBEDDINGS_BASE_URL": "https://api.openai.com/v1", "CAIRN_EMBEDDINGS_MODEL": "text-embedding-3-small"}, ""},
		{"no model", "[embeddings]\nbase_url = \"http://127.0.0.1:8080/v1\"\n", nil, "embeddings.model must be set"},
		{"not a URL", "[embeddings]\nbase_url = \"localhost:11434\"\nmodel = \"m\"\n", nil, "embeddings.base_url must be an http or https URL"},
		{"credentials in the URL", "[embeddings]\nbase_url = \"https://u:sk-secret@example.com/v1\"\nmodel = \"m\"\n", nil, "must not carry credentials"},
		{"no key in the file", "[embeddings]\napi_key = \"sk-x\"\n", nil, "unknown key embeddings.api_key"},
		{"negative dimensions", "[embeddings]\ndimensions = -1\n", nil, "embeddings.dimensions"},
		{"zero batch", "[embeddings]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\nbatch = 0\n", nil, "embeddings.batch"},
	}
	for _, c := range cases {
		var data []byte
		if c.file != "" {
			data = []byte(c.file)
		}
		l, err := Parse(data, "config.toml", env(c.env))
		if c.bad == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if !l.Embeddings.SemanticSearch() {
				t.Errorf("%s: semantic search not on", c.name)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.bad) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.bad)
		}
	}
}

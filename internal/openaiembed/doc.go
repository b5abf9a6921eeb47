// Package openaiembed turns text into vectors through an OpenAI-compatible
// /v1/embeddings endpoint (OpenAI itself, Ollama, llama.cpp server, vLLM,
// LM Studio), with the official openai-go SDK. The key comes from the
// environment, never from the config file.
package openaiembed

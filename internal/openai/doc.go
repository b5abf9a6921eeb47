// Package openai is cairn's model provider for any OpenAI-compatible
// chat-completions endpoint — OpenAI itself, and Ollama, vLLM, the
// llama.cpp server or LM Studio through a base URL — over the official
// SDK (github.com/openai/openai-go/v3). It implements model.Chat.
package openai

// Package anthropic is cairn's model provider for the Anthropic Messages
// API over the official SDK (github.com/anthropics/anthropic-sdk-go). It
// implements model.Chat.
package anthropic

package model

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Chat is one model provider: a request of messages (and tools) in, one
// assistant message out. Implementations are stateless between calls; the
// caller carries the conversation.
type Chat interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Role says who wrote a message.
type Role string

// Roles of a conversation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool" // results of the tools the assistant called
)

// Message is one entry of the conversation.
type Message struct {
	Role    Role
	Text    string
	Calls   []Call   // tools the assistant asked for (RoleAssistant)
	Results []Result // answers to those calls (RoleTool)
}

// Call is one tool call the model asked for.
type Call struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"arguments"`
}

// Result answers one Call.
type Result struct {
	CallID  string
	Name    string
	Text    string
	IsError bool
}

// Tool is a function the model may call; Params is its JSON Schema.
type Tool struct {
	Name        string
	Description string
	Params      map[string]any
}

// Schema asks for a structured answer: one JSON object matching it.
type Schema struct {
	Name   string
	Schema map[string]any
}

// Request is one call to a model.
type Request struct {
	System    string
	Messages  []Message
	Tools     []Tool
	Output    *Schema // nil: free text
	MaxTokens int     // 0: the provider's default
}

// Stop says why the model stopped.
type Stop string

// Reasons a model stops.
const (
	StopEnd     Stop = "end"
	StopTools   Stop = "tool_use"
	StopLength  Stop = "max_tokens"
	StopRefusal Stop = "refusal"
)

// Usage counts the tokens of one call. CostUSD is set when the provider
// reports its own cost (the claude CLI does); otherwise it is estimated
// from the price table.
type Usage struct {
	In, Out int
	CostUSD float64
}

// Response is the assistant's answer.
type Response struct {
	Text  string
	Calls []Call
	Stop  Stop
	Usage Usage
	Model string // as the provider named it; "" when it did not
}

// Errors a provider or the work over it returns; each is wrapped in a
// memory.Error, so the edges map them like any other.
var (
	// ErrRefused: the model declined to answer.
	ErrRefused = errors.New("the model refused")
	// ErrInvalidOutput: the answer did not match what was asked for.
	ErrInvalidOutput = errors.New("the model's answer is not valid")
	// ErrBudget: the daily model budget is spent; the work waits.
	ErrBudget = errors.New("the daily model budget is spent")
)

// Refused wraps ErrRefused with what the provider said.
func Refused(provider, why string) error {
	msg := provider + ": the model refused"
	if why != "" {
		msg += ": " + why
	}
	return &memory.Error{Code: memory.CodeUnavailable, Message: msg, Err: ErrRefused}
}

// Unavailable wraps a transport or API failure of a provider: it is
// retried later, like any dependency that is down.
func Unavailable(provider string, err error) error {
	msg := memory.ErrorMessage(err)
	if msg == "" {
		msg = err.Error()
	}
	return &memory.Error{Code: memory.CodeUnavailable, Message: provider + ": " + msg, Err: err}
}

// Invalid wraps ErrInvalidOutput with what was wrong.
func Invalid(what string) error {
	return &memory.Error{Code: memory.CodeUnavailable, Message: "model output: " + what, Err: ErrInvalidOutput}
}

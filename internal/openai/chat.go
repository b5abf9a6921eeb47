package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// Options configures a Client.
type Options struct {
	// BaseURL of the API, ending in /v1 ("" for OpenAI's own).
	BaseURL string
	// APIKey comes from the environment; a local server may need none.
	APIKey string
	// KeyEnv names the variable the key came from, for error messages.
	KeyEnv  string
	Model   string
	Timeout time.Duration // per call; 0: none beyond the context
	// MaxRetries on 429 and 5xx answers (the SDK's backoff); 0: none.
	MaxRetries int
	HTTPClient *http.Client
}

// Client is one model behind a chat-completions endpoint.
type Client struct {
	c      oai.Client
	o      Options
	hosted bool // OpenAI's own API, which wants max_completion_tokens
}

// name is the provider's name in errors and cost records.
const name = "openai"

// New builds a client. It sends nothing until the first call.
func New(o Options) *Client {
	key := o.APIKey
	if key == "" {
		// The SDK insists on a key; local servers ignore it.
		key = "none"
	}
	opts := []option.RequestOption{option.WithAPIKey(key), option.WithMaxRetries(o.MaxRetries)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.Timeout > 0 {
		opts = append(opts, option.WithRequestTimeout(o.Timeout))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	return &Client{c: oai.NewClient(opts...), o: o, hosted: o.BaseURL == "" || strings.Contains(o.BaseURL, "api.openai.com")}
}

// Complete sends one chat completion.
func (c *Client) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	p := oai.ChatCompletionNewParams{Model: c.o.Model, Messages: messages(req)}
	if req.MaxTokens > 0 {
		if c.hosted {
			p.MaxCompletionTokens = oai.Int(int64(req.MaxTokens))
		} else {
			p.MaxTokens = oai.Int(int64(req.MaxTokens))
		}
	}
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, oai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: oai.String(t.Description), Parameters: shared.FunctionParameters(t.Params),
		}))
	}
	if req.Output != nil {
		p.ResponseFormat = oai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: req.Output.Name, Schema: req.Output.Schema, Strict: oai.Bool(true)},
		}}
	}
	res, err := c.c.Chat.Completions.New(ctx, p)
	if err != nil {
		return model.Response{}, c.failure(ctx, err)
	}
	out := model.Response{Model: res.Model, Usage: model.Usage{In: int(res.Usage.PromptTokens), Out: int(res.Usage.CompletionTokens)}}
	if len(res.Choices) == 0 {
		return out, model.Unavailable(name, errors.New("the answer holds no choice"))
	}
	ch := res.Choices[0]
	out.Text = ch.Message.Content
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		out.Calls = append(out.Calls, model.Call{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
	}
	switch {
	case ch.Message.Refusal != "" || ch.FinishReason == "content_filter":
		out.Stop = model.StopRefusal
		if out.Text == "" {
			out.Text = ch.Message.Refusal
		}
	case len(out.Calls) > 0:
		out.Stop = model.StopTools
	case ch.FinishReason == "length":
		out.Stop = model.StopLength
	default:
		out.Stop = model.StopEnd
	}
	return out, nil
}

// messages maps the conversation onto chat-completions messages.
func messages(req model.Request) []oai.ChatCompletionMessageParamUnion {
	var out []oai.ChatCompletionMessageParamUnion
	if req.System != "" {
		out = append(out, oai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleUser:
			out = append(out, oai.UserMessage(m.Text))
		case model.RoleAssistant:
			a := oai.ChatCompletionAssistantMessageParam{}
			if m.Text != "" {
				a.Content.OfString = oai.String(m.Text)
			}
			for _, c := range m.Calls {
				args := string(c.Args)
				if args == "" {
					args = "{}"
				}
				a.ToolCalls = append(a.ToolCalls, oai.ChatCompletionMessageToolCallUnionParam{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{
					ID: c.ID, Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
				}})
			}
			out = append(out, oai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case model.RoleTool:
			for _, r := range m.Results {
				out = append(out, oai.ToolMessage(r.Text, r.CallID))
			}
		}
	}
	return out
}

// failure maps an SDK error onto cairn's codes: every one is retried
// later, with a message that says what to check.
func (c *Client) failure(ctx context.Context, err error) error {
	var apiErr *oai.Error
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			env := c.o.KeyEnv
			if env == "" {
				env = "the API key variable"
			}
			return model.Unavailable(name, fmt.Errorf("the endpoint refused the key (HTTP %d); check %s", apiErr.StatusCode, env))
		}
		msg := apiErr.Message
		if msg == "" {
			msg = http.StatusText(apiErr.StatusCode)
		}
		return model.Unavailable(name, fmt.Errorf("HTTP %d: %s", apiErr.StatusCode, msg))
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &memory.Error{Code: memory.CodeUnavailable, Message: name + ": the call timed out or was cancelled", Err: err}
	}
	return model.Unavailable(name, err)
}

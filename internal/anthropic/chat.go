package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// Options configures a Client.
type Options struct {
	BaseURL    string // "" for Anthropic's own API
	APIKey     string // from the environment
	KeyEnv     string // the variable it came from, for error messages
	Model      string
	Timeout    time.Duration // per call; 0: none beyond the context
	MaxRetries int           // on 429, 529 and 5xx (the SDK's backoff)
	HTTPClient *http.Client
}

// Client is one model behind the Messages API.
type Client struct {
	c sdk.Client
	o Options
}

const name = "anthropic"

// defaultMaxTokens is sent when a request names none: the API needs one.
const defaultMaxTokens = 4096

// New builds a client. It sends nothing until the first call.
func New(o Options) *Client {
	opts := []option.RequestOption{option.WithAPIKey(o.APIKey), option.WithMaxRetries(o.MaxRetries)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.Timeout > 0 {
		opts = append(opts, option.WithRequestTimeout(o.Timeout))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	return &Client{c: sdk.NewClient(opts...), o: o}
}

// Complete sends one message request.
func (c *Client) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	maxTok := req.MaxTokens
	if maxTok <= 0 {
		maxTok = defaultMaxTokens
	}
	p := sdk.MessageNewParams{Model: sdk.Model(c.o.Model), MaxTokens: int64(maxTok), Messages: messages(req)}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		schema := sdk.ToolInputSchemaParam{Properties: t.Params["properties"]}
		if r, ok := t.Params["required"].([]any); ok {
			for _, s := range r {
				if s, ok := s.(string); ok {
					schema.Required = append(schema.Required, s)
				}
			}
		}
		tool := sdk.ToolUnionParamOfTool(schema, t.Name)
		tool.OfTool.Description = sdk.String(t.Description)
		p.Tools = append(p.Tools, tool)
	}
	res, err := c.c.Messages.New(ctx, p)
	if err != nil {
		return model.Response{}, c.failure(ctx, err)
	}
	out := model.Response{Model: string(res.Model), Usage: model.Usage{
		In:  int(res.Usage.InputTokens + res.Usage.CacheCreationInputTokens + res.Usage.CacheReadInputTokens),
		Out: int(res.Usage.OutputTokens),
	}}
	var text []string
	for _, b := range res.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			out.Calls = append(out.Calls, model.Call{ID: b.ID, Name: b.Name, Args: json.RawMessage(b.Input)})
		}
	}
	out.Text = strings.Join(text, "")
	switch res.StopReason {
	case sdk.StopReasonRefusal:
		out.Stop = model.StopRefusal
	case sdk.StopReasonToolUse:
		out.Stop = model.StopTools
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		out.Stop = model.StopLength
	default:
		out.Stop = model.StopEnd
	}
	if len(out.Calls) > 0 && out.Stop != model.StopRefusal {
		out.Stop = model.StopTools
	}
	return out, nil
}

// messages maps the conversation onto the Messages API: tool results go
// back as a user message of tool_result blocks.
func messages(req model.Request) []sdk.MessageParam {
	var out []sdk.MessageParam
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleUser:
			out = append(out, sdk.NewUserMessage(sdk.NewTextBlock(m.Text)))
		case model.RoleAssistant:
			var blocks []sdk.ContentBlockParamUnion
			if m.Text != "" {
				blocks = append(blocks, sdk.NewTextBlock(m.Text))
			}
			for _, c := range m.Calls {
				args := c.Args
				if len(args) == 0 {
					args = json.RawMessage("{}")
				}
				blocks = append(blocks, sdk.NewToolUseBlock(c.ID, args, c.Name))
			}
			if len(blocks) > 0 {
				out = append(out, sdk.NewAssistantMessage(blocks...))
			}
		case model.RoleTool:
			var blocks []sdk.ContentBlockParamUnion
			for _, r := range m.Results {
				blocks = append(blocks, sdk.NewToolResultBlock(r.CallID, r.Text, r.IsError))
			}
			out = append(out, sdk.NewUserMessage(blocks...))
		}
	}
	return out
}

// failure maps an SDK error onto cairn's codes.
func (c *Client) failure(ctx context.Context, err error) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			env := c.o.KeyEnv
			if env == "" {
				env = "ANTHROPIC_API_KEY"
			}
			return model.Unavailable(name, fmt.Errorf("the API refused the key (HTTP %d); check %s", apiErr.StatusCode, env))
		}
		return model.Unavailable(name, fmt.Errorf("HTTP %d", apiErr.StatusCode))
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &memory.Error{Code: memory.CodeUnavailable, Message: name + ": the call timed out or was cancelled", Err: err}
	}
	return model.Unavailable(name, err)
}

package openaiembed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
)

// Options configures a Client.
type Options struct {
	// BaseURL is the API root the SDK appends "embeddings" to, usually
	// ending in /v1: http://127.0.0.1:11434/v1 for Ollama.
	BaseURL string
	Model   string
	// Dimensions, when positive, asks the model for vectors this long
	// (text-embedding-3 and later); 0 takes the model's own.
	Dimensions int
	// Key is the bearer token; empty sends none (a local server).
	Key string
	// Timeout bounds one request; 0: 30 seconds.
	Timeout time.Duration
	// Retries is how often a failed request is tried again (the SDK backs
	// off between tries); 0: none.
	Retries int
	// HTTPClient replaces the default client (tests, proxies).
	HTTPClient *http.Client
}

// Client embeds batches of text with one model.
type Client struct {
	svc   openai.EmbeddingService
	model string
	dims  int
}

// New builds a client. Nothing is sent until Embed.
func New(o Options) (*Client, error) {
	if strings.TrimSpace(o.BaseURL) == "" || strings.TrimSpace(o.Model) == "" {
		return nil, errors.New("embeddings client: a base URL and a model are both needed")
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: o.Timeout}
	}
	// The service is built without the SDK's client defaults, so no
	// OPENAI_* variable can redirect requests or add a key unasked.
	opts := []option.RequestOption{
		option.WithBaseURL(o.BaseURL),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(max(o.Retries, 0)),
		option.WithRequestTimeout(o.Timeout),
	}
	if o.Key != "" {
		opts = append(opts, option.WithAPIKey(o.Key))
	}
	return &Client{svc: openai.NewEmbeddingService(opts...), model: o.Model, dims: o.Dimensions}, nil
}

// Model is the model every vector comes from.
func (c *Client) Model() string { return c.model }

// Embed returns one vector per input, in input order. Every vector of a
// batch must have the same dimension, and each must be finite: a server
// that answers otherwise is wrong, and its answer is not stored.
func (c *Client) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	p := openai.EmbeddingNewParams{
		Model:          c.model,
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: inputs},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	if c.dims > 0 {
		p.Dimensions = param.NewOpt(int64(c.dims))
	}
	res, err := c.svc.New(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("embed %d texts with %s: %w", len(inputs), c.model, err)
	}
	return vectors(res.Data, len(inputs), c.model)
}

// vectors puts the answer's vectors in input order and checks them.
func vectors(data []openai.Embedding, n int, model string) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("embed with %s: %d vectors for %d texts", model, len(data), n)
	}
	out := make([][]float32, n)
	dim := -1
	for pos, d := range data {
		i := int(d.Index)
		// Servers that leave the index out (0 for all) answer in order.
		if i == 0 && pos > 0 && out[0] != nil {
			i = pos
		}
		if i < 0 || i >= n || out[i] != nil {
			return nil, fmt.Errorf("embed with %s: vector index %d out of place", model, d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embed with %s: empty vector for text %d", model, i)
		}
		if dim >= 0 && len(d.Embedding) != dim {
			return nil, fmt.Errorf("embed with %s: vectors of %d and %d dimensions in one answer", model, dim, len(d.Embedding))
		}
		dim = len(d.Embedding)
		v := make([]float32, dim)
		for j, f := range d.Embedding {
			if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxFloat32 {
				return nil, fmt.Errorf("embed with %s: text %d has a value that is not a finite float32", model, i)
			}
			v[j] = float32(f)
		}
		out[i] = v
	}
	return out, nil
}

package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Client talks to one gateway with one token.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
	// resolve places a directory on this machine; the gateway cannot see it.
	resolve func(dir string) (memory.Place, error)
	plan    Planner
	timeout time.Duration
	sent    sentLog
}

// dialTimeout bounds connecting to the gateway: a host that is down fails
// the call in seconds, whatever time the call itself may take.
const dialTimeout = 5 * time.Second

// Options configures a client.
type Options struct {
	URL, Token string
	// Resolve maps a local directory onto the place ladder (gitdir.Resolve).
	Resolve func(dir string) (memory.Place, error)
	// Timeout bounds each call (default 10 s); callers' contexts may
	// bound it further, as hooks do.
	Timeout time.Duration
	// Transport is the HTTP transport (tests, custom TLS roots); nil: the
	// default.
	Transport http.RoundTripper
	// Plan finds the transcripts an import names on this machine; nil
	// takes each path as a file of the named client.
	Plan Planner
	// StateDir keeps the record of what each transcript upload sent, so
	// the next one sends only what was appended; empty sends whole files.
	StateDir string
}

// New checks the URL and token and builds a client; it does not call the
// gateway.
func New(o Options) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(o.URL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, memory.Errorf(memory.CodeInvalid, "CAIRN_URL %q is not a gateway address: give http(s)://host:port", o.URL)
	}
	if !strings.HasPrefix(o.Token, gateway.TokenPrefix) {
		return nil, memory.Errorf(memory.CodeInvalid, "CAIRN_TOKEN is not a cairn token (they start with %s): ask the gateway's operator for one", gateway.TokenPrefix)
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Resolve == nil {
		o.Resolve = func(dir string) (memory.Place, error) { return memory.Place{Worktree: dir, Project: dir}, nil }
	}
	if o.Plan == nil {
		o.Plan = filePlan
	}
	if o.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
		o.Transport = t
	}
	return &Client{base: u, token: o.Token, http: &http.Client{Transport: o.Transport}, resolve: o.Resolve, plan: o.Plan, timeout: o.Timeout, sent: sentLog{dir: o.StateDir}}, nil
}

// Close releases nothing: a client holds no store.
func (c *Client) Close() error { c.http.CloseIdleConnections(); return nil }

// Place resolves a directory on this machine.
func (c *Client) Place(dir string) (memory.Place, error) { return c.resolve(dir) }

// placeOf resolves cwd locally when no place was given.
func (c *Client) placeOf(cwd string, p *memory.Place) (*memory.Place, error) {
	if p != nil || cwd == "" {
		return p, nil
	}
	pl, err := c.resolve(cwd)
	if err != nil {
		return nil, err
	}
	return &pl, nil
}

// do sends one call: body (if not nil) as JSON, the answer decoded into
// out. A gateway error comes back as a memory.Error with the gateway's
// code and message; a gateway that cannot be reached is unavailable.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	ctx, cancel := c.bound(ctx, path)
	defer cancel()
	resp, err := c.send(ctx, method, path, query, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return memory.Wrap(memory.CodeUnavailable, "read the gateway's answer to "+path, err)
	}
	return nil
}

// bound gives a call its time: Timeout, or four times as long for the
// calls the gateway itself gives longer (uploads, export, purge), as the
// gateway does. A caller's shorter deadline (a hook's) still wins.
func (c *Client) bound(ctx context.Context, path string) (context.Context, context.CancelFunc) {
	t := c.timeout
	if strings.HasPrefix(path, "/v1/sessions") || path == "/v1/export" || path == "/v1/purge" {
		t *= 4
	}
	return context.WithTimeout(ctx, t)
}

// send returns a successful response for the caller to read and close.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body any) (*http.Response, error) {
	u := *c.base
	u.Path += path
	u.RawQuery = query.Encode()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "encode "+path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &memory.Error{Code: memory.CodeUnavailable, Op: method + " " + path,
			Message: "the gateway at " + c.base.Host + " (CAIRN_URL) did not answer; is `cairn serve` running there?", Err: err}
	}
	if resp.StatusCode == http.StatusUnauthorized {
		resp.Body.Close()
		return nil, &memory.Error{Code: memory.CodeUnauthorized, Op: method + " " + path, Err: fmt.Errorf("gateway: %s", resp.Status),
			Message: "the gateway at " + c.base.Host + " refused CAIRN_TOKEN: it is unknown or revoked; ask the gateway's operator for a token (`cairn token create --account NAME`)"}
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		return nil, gatewayError(resp)
	}
	return resp, nil
}

// gatewayError turns an error answer back into cairn's error.
func gatewayError(resp *http.Response) error {
	var b gateway.ErrorBody
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(raw, &b) != nil || b.Error.Code == "" {
		return memory.Errorf(memory.CodeUnavailable, "the gateway answered %s", resp.Status)
	}
	code := b.Error.Code
	if code == memory.CodeInternal {
		// The gateway logged the detail; here it is a dependency failing.
		code = memory.CodeUnavailable
	}
	return &memory.Error{Code: code, Message: b.Error.Message, Err: fmt.Errorf("gateway: %s", resp.Status)}
}

// Status is what a health call says.
func (c *Client) Health(ctx context.Context) (gateway.Health, error) {
	var h gateway.Health
	err := c.do(ctx, http.MethodGet, "/v1/health", nil, nil, &h)
	return h, err
}

// IsUnavailable says whether err means the gateway could not be reached
// or could not answer, so a hook can say nothing and go on.
func IsUnavailable(err error) bool {
	return memory.IsCode(err, memory.CodeUnavailable) || errors.Is(err, context.DeadlineExceeded)
}

package remote

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// VaultRead reads one memory file of the version in force; the gateway
// counts the read as a use.
func (c *Client) VaultRead(ctx context.Context, path string) (string, error) {
	b, err := c.vaultRead(ctx, "", path)
	return string(b), err
}

// VaultList lists memory files of the version in force under dir.
func (c *Client) VaultList(ctx context.Context, dir string) ([]string, error) {
	return c.vaultList(ctx, "", dir)
}

// VaultGrep searches the memory files of the version in force.
func (c *Client) VaultGrep(ctx context.Context, pattern string, regex bool, limit int) ([]engine.VaultMatch, error) {
	return c.vaultGrep(ctx, "", pattern, regex, limit)
}

// Vault is the gateway's folder of a memory version, read-only: the
// gateway's consolidation writes it.
func (c *Client) Vault(_ context.Context, version string) (engine.VaultFiles, error) {
	return &vaultFiles{c: c, version: version}, nil
}

// VaultFileRead does nothing here: the gateway counted the use when it
// served the read.
func (c *Client) VaultFileRead(context.Context, string) error { return nil }

// VaultStatus reports the gateway's folder of a version: its changes since
// the last consolidation and when the next one runs.
func (c *Client) VaultStatus(ctx context.Context, version string) (engine.VaultStatus, error) {
	var st engine.VaultStatus
	err := c.do(ctx, http.MethodGet, "/v1/vault/status", url.Values{"version": {version}}, nil, &st)
	return st, err
}

func (c *Client) vaultRead(ctx context.Context, version, path string) ([]byte, error) {
	var a struct {
		Text string `json:"text"`
	}
	err := c.do(ctx, http.MethodGet, "/v1/vault/read", url.Values{"path": {path}, "version": {version}}, nil, &a)
	return []byte(a.Text), err
}

func (c *Client) vaultList(ctx context.Context, version, dir string) ([]string, error) {
	var out []string
	err := c.do(ctx, http.MethodGet, "/v1/vault/list", url.Values{"dir": {dir}, "version": {version}}, nil, &out)
	return out, err
}

func (c *Client) vaultGrep(ctx context.Context, version, pattern string, regex bool, limit int) ([]engine.VaultMatch, error) {
	var out []engine.VaultMatch
	q := url.Values{"pattern": {pattern}, "regex": {strconv.FormatBool(regex)}, "limit": {strconv.Itoa(limit)}, "version": {version}}
	err := c.do(ctx, http.MethodGet, "/v1/vault/grep", q, nil, &out)
	return out, err
}

// vaultFiles is a memory version's folder on the gateway. It reads; the
// writes a local folder takes are refused, since over the API memory
// files change only through the gateway's own consolidation.
type vaultFiles struct {
	c       *Client
	version string
}

var errVaultReadOnly = memory.Errorf(memory.CodeUnauthorized, "the gateway's memory files are read-only over the API: its consolidation writes them")

func (v *vaultFiles) Read(ctx context.Context, path string) ([]byte, error) {
	return v.c.vaultRead(ctx, v.version, path)
}

func (v *vaultFiles) List(ctx context.Context, dir string) ([]string, error) {
	return v.c.vaultList(ctx, v.version, dir)
}

func (v *vaultFiles) Grep(ctx context.Context, pattern string, regex bool, limit int) ([]engine.VaultMatch, error) {
	return v.c.vaultGrep(ctx, v.version, pattern, regex, limit)
}

func (v *vaultFiles) Diff(ctx context.Context) ([]distill.Change, error) {
	st, err := v.c.VaultStatus(ctx, v.version)
	return st.Changes, err
}

func (v *vaultFiles) Baselines(ctx context.Context) (int, error) {
	st, err := v.c.VaultStatus(ctx, v.version)
	return st.Baselines, err
}

func (v *vaultFiles) Summary(ctx context.Context) (string, error) {
	b, err := v.Read(ctx, "memory_summary.md")
	return string(b), err
}

func (v *vaultFiles) Write(context.Context, string, []byte) error { return errVaultReadOnly }
func (v *vaultFiles) Remove(context.Context, string) error        { return errVaultReadOnly }
func (v *vaultFiles) Baseline(context.Context, string) (string, error) {
	return "", errVaultReadOnly
}

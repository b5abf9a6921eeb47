package setup

import (
	"path/filepath"

	"github.com/cairn-memory/cairn/internal/memory"
)

// paths are the files of one scope of every client.
type paths struct {
	claudeSettings string // hooks
	claudeMCP      string // mcpServers: ~/.claude.json or <project>/.mcp.json
	claudeUserJSON string // ~/.claude.json, also for its per-project servers

	codexHooks      string // hooks.json
	codexConfig     string // config.toml holding [mcp_servers.cairn]
	codexUserConfig string // $CODEX_HOME/config.toml: trust and project trust live here

	opencodePlugin string
	opencodeConfig string
}

// pathsFor resolves the files from the environment the way each client
// does: CLAUDE_CONFIG_DIR moves both ~/.claude and ~/.claude.json,
// CODEX_HOME replaces ~/.codex, XDG_CONFIG_HOME replaces ~/.config.
func pathsFor(o Options) (paths, error) {
	home := o.Getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return paths{}, memory.Errorf(memory.CodeInvalid, "HOME is not set to an absolute directory; cairn needs it to find the clients' configuration")
	}
	claudeDir := filepath.Join(home, ".claude")
	claudeJSONDir := home
	if d := o.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		claudeDir, claudeJSONDir = d, d
	}
	codexHome := filepath.Join(home, ".codex")
	if d := o.Getenv("CODEX_HOME"); d != "" {
		codexHome = d
	}
	xdg := filepath.Join(home, ".config")
	if d := o.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		xdg = d
	}
	ocDir := filepath.Join(xdg, "opencode")
	p := paths{
		claudeSettings:  filepath.Join(claudeDir, "settings.json"),
		claudeUserJSON:  filepath.Join(claudeJSONDir, ".claude.json"),
		codexHooks:      filepath.Join(codexHome, "hooks.json"),
		codexConfig:     filepath.Join(codexHome, "config.toml"),
		codexUserConfig: filepath.Join(codexHome, "config.toml"),
		opencodePlugin:  filepath.Join(ocDir, "plugins", "cairn.js"),
		opencodeConfig:  pickExisting(filepath.Join(ocDir, "opencode.json"), filepath.Join(ocDir, "opencode.jsonc")),
	}
	p.claudeMCP = p.claudeUserJSON
	if o.scope() == ScopeProject {
		d := o.Dir
		p.claudeSettings = filepath.Join(d, ".claude", "settings.json")
		p.claudeMCP = filepath.Join(d, ".mcp.json")
		p.codexHooks = filepath.Join(d, ".codex", "hooks.json")
		p.codexConfig = filepath.Join(d, ".codex", "config.toml")
		p.opencodePlugin = filepath.Join(d, ".opencode", "plugins", "cairn.js")
		p.opencodeConfig = pickExisting(filepath.Join(d, "opencode.json"), filepath.Join(d, "opencode.jsonc"))
	}
	return p, nil
}

// pickExisting returns the first path that exists, or the first one.
func pickExisting(paths ...string) string {
	for _, p := range paths {
		if fileExists(p) {
			return p
		}
	}
	return paths[0]
}

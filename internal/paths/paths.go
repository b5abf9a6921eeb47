// Package paths says where cairn keeps its files. It imports nothing but
// the standard library, so the small hook client can resolve the same data
// dir as cairn without linking the configuration parser.
package paths

import (
	"path/filepath"
)

// Paths are where cairn keeps its files.
type Paths struct {
	DataDir    string `json:"data_dir"`
	ConfigFile string `json:"config_file"`
	DB         string `json:"database"`
	Vault      string `json:"vault"`
	LogDir     string `json:"log_dir"`
}

// Resolve applies, in order: an explicit home (--home), CAIRN_HOME,
// then the XDG base directories. A home holds both data and config.
func Resolve(home string, getenv func(string) string) Paths {
	if home == "" {
		home = getenv("CAIRN_HOME")
	}
	var data, cfg string
	if home != "" {
		home = abs(home)
		data, cfg = home, filepath.Join(home, "config.toml")
	} else {
		user := getenv("HOME")
		xdgData := getenv("XDG_DATA_HOME")
		if xdgData == "" {
			xdgData = filepath.Join(user, ".local", "share")
		}
		xdgConfig := getenv("XDG_CONFIG_HOME")
		if xdgConfig == "" {
			xdgConfig = filepath.Join(user, ".config")
		}
		data = filepath.Join(abs(xdgData), "cairn")
		cfg = filepath.Join(abs(xdgConfig), "cairn", "config.toml")
	}
	return Paths{
		DataDir:    data,
		ConfigFile: cfg,
		DB:         filepath.Join(data, "cairn.db"),
		Vault:      filepath.Join(data, "vault"),
		LogDir:     filepath.Join(data, "logs"),
	}
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

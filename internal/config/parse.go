package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Loaded is the effective configuration and how it came about.
type Loaded struct {
	Config
	Keys      []Key  `json:"keys"`
	File      string `json:"file"`       // the config file consulted
	FileFound bool   `json:"file_found"` // whether it existed
}

// Source returns where key's value came from.
func (l *Loaded) Source(key string) Source {
	for _, k := range l.Keys {
		if k.Name == key {
			return k.Source
		}
	}
	return ""
}

// Parse builds the configuration from a file's bytes (nil for no file) and
// an environment lookup. It is pure: Load does the reading. Unknown keys in
// the file are an error that names them.
func Parse(data []byte, file string, env func(string) (string, bool)) (*Loaded, error) {
	c := Default()
	l := &Loaded{File: file, FileFound: data != nil}
	var md toml.MetaData
	if data != nil {
		var err error
		md, err = toml.Decode(string(data), &c)
		if err != nil {
			return nil, memory.Errorf(memory.CodeInvalid, "config file %s: %s; fix the file or remove it", file, tomlMessage(err))
		}
		if und := md.Undecoded(); len(und) > 0 {
			names := make([]string, len(und))
			for i, k := range und {
				names[i] = k.String()
			}
			return nil, memory.Errorf(memory.CodeInvalid,
				"config file %s: unknown key %s; run `cairn config show` to list the known keys",
				file, strings.Join(names, ", "))
		}
	}
	for _, f := range fields(&c) {
		src := FromDefault
		if data != nil && md.IsDefined(strings.Split(f.name, ".")...) {
			src = FromFile
		}
		if env != nil {
			if s, ok := env(f.env); ok {
				if err := set(f.v, s); err != nil {
					return nil, memory.Errorf(memory.CodeInvalid, "environment %s: %v", f.env, err)
				}
				src = FromEnv
			}
		}
		l.Keys = append(l.Keys, Key{Name: f.name, Env: f.env, Value: format(f.v), Source: src, Doc: f.doc})
	}
	l.Config = c
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

func tomlMessage(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message)
	}
	return err.Error()
}

// Load reads the file at path (a missing file means defaults) and the
// process environment.
func Load(path string) (*Loaded, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		data = nil
	} else if err != nil {
		return nil, memory.Wrap(memory.CodeInvalid, "read config", err)
	} else if data == nil {
		data = []byte{}
	}
	return Parse(data, path, os.LookupEnv)
}

// Set returns a copy of c with one key changed, for `cairn config set`.
func (c Config) Set(key, value string) (Config, error) {
	for _, f := range fields(&c) {
		if f.name == key {
			if err := set(f.v, value); err != nil {
				return c, memory.Errorf(memory.CodeInvalid, "%s: %v", key, err)
			}
			return c, c.Validate()
		}
	}
	return c, memory.Errorf(memory.CodeInvalid, "unknown config key %q; run `cairn config show` to list the known keys", key)
}

// Get returns the formatted value of one key.
func (c Config) Get(key string) (string, bool) {
	for _, f := range fields(&c) {
		if f.name == key {
			return format(f.v), true
		}
	}
	return "", false
}

package config

import "github.com/cairn-memory/cairn/internal/paths"

// Paths are where cairn keeps its files (resolved by package paths, which
// the hook client shares).
type Paths = paths.Paths

// ResolvePaths applies, in order: an explicit home (--home), CAIRN_HOME,
// then the XDG base directories.
func ResolvePaths(home string, getenv func(string) string) Paths { return paths.Resolve(home, getenv) }

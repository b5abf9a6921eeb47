package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// ErrUnsafePath is wrapped by every refusal of a path that could reach
// outside the vault, into its repository, or through a symbolic link.
var ErrUnsafePath = errors.New("unsafe vault path")

const (
	maxPathLen = 1024 // bytes in a whole relative path
	maxNameLen = 255  // bytes in one component, the common filesystem limit
	tmpPrefix  = ".cairn-tmp-"
)

// refuse builds the error for a refused path. The path is quoted and cut
// short so that a hostile or huge path cannot flood a log or a model reply.
func refuse(p, reason string) error {
	shown := p
	if len(shown) > 80 {
		shown = shown[:80] + "..."
	}
	return &memory.Error{
		Code:    memory.CodeInvalid,
		Message: fmt.Sprintf("path %q %s", shown, reason),
		Err:     ErrUnsafePath,
	}
}

// cleanPath checks a caller- or model-supplied path and returns it in
// canonical slash form. With allowRoot, "" and "." name the root itself
// (returned as "."); otherwise a path must name something below the root.
// It looks only at the string; checkLinks looks at the disk.
func cleanPath(p string, allowRoot bool) (string, error) {
	switch {
	case len(p) > maxPathLen:
		return "", refuse(p, fmt.Sprintf("is longer than %d bytes", maxPathLen))
	case !utf8.ValidString(p):
		return "", refuse(p, "is not valid UTF-8")
	case strings.IndexByte(p, 0) >= 0:
		return "", refuse(p, "contains a NUL byte")
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", refuse(p, "contains a control character")
	case strings.IndexByte(p, '\\') >= 0:
		// On Windows a backslash separates; refusing it everywhere keeps
		// `..\x` from meaning one thing here and another there.
		return "", refuse(p, "contains a backslash; use / to separate")
	case strings.IndexByte(p, ':') >= 0:
		return "", refuse(p, "contains a colon (drive letters and streams are not allowed)")
	case strings.HasPrefix(p, "/"):
		return "", refuse(p, "is absolute; give a path relative to the vault")
	}
	var parts []string
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "" || c == ".":
			continue
		case c == "..":
			return "", refuse(p, "climbs out with ..")
		case len(c) > maxNameLen:
			return "", refuse(p, fmt.Sprintf("has a name longer than %d bytes", maxNameLen))
		case strings.HasSuffix(c, ".") || strings.HasSuffix(c, " "):
			// Windows drops a trailing dot or space, so ".git." is ".git".
			return "", refuse(p, "has a name ending in a dot or space")
		case strings.EqualFold(c, ".git") || strings.EqualFold(c, "git~1"):
			return "", refuse(p, "reaches into the vault's git repository")
		case ignoredName(c):
			return "", refuse(p, "uses a name the vault ignores")
		}
		parts = append(parts, c)
	}
	if len(parts) == 0 {
		if allowRoot {
			return ".", nil
		}
		return "", refuse(p, "names the vault root, not a file")
	}
	return strings.Join(parts, "/"), nil
}

// ignoredName reports names the snapshot skips: cairn's temporary files and
// desktop litter that would otherwise show up as memory in every diff.
func ignoredName(name string) bool {
	return strings.HasPrefix(name, tmpPrefix) || name == ".DS_Store" || name == "Thumbs.db"
}

// checkLinks walks rel one component at a time with Lstat and refuses any
// symbolic link on the way, including the last component. Components that
// do not exist yet end the walk (Write creates them). Every component but
// the last must be a directory.
func (v *Vault) checkLinks(rel string) error {
	if rel == "." {
		return nil
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		fi, err := v.dir.Lstat(prefix)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "vault check "+rel, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return refuse(rel, "passes through a symbolic link at "+prefix)
		}
		if i < len(parts)-1 && !fi.IsDir() {
			return memory.Errorf(memory.CodeInvalid, "path %q: %s is a file, not a directory", rel, prefix)
		}
		if i == len(parts)-1 && !fi.IsDir() && !fi.Mode().IsRegular() {
			return refuse(rel, "is not a regular file")
		}
	}
	return nil
}

// resolve is cleanPath followed by checkLinks: the one gate every
// path-taking method passes.
func (v *Vault) resolve(p string, allowRoot bool) (string, error) {
	rel, err := cleanPath(p, allowRoot)
	if err != nil {
		return "", err
	}
	if err := v.checkLinks(rel); err != nil {
		return "", err
	}
	return rel, nil
}

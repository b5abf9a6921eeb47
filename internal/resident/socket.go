package resident

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
)

// maxSocketPath is the longest socket path the kernel takes, with room to
// spare (108 bytes on Linux, 104 on macOS, both counting the NUL).
const maxSocketPath = 100

// SocketPath is where the resident server of a data dir listens: in the
// data dir's run/ folder, or, when that path is too long for a socket, in
// a per-user folder under the temporary dir named by a hash of the data
// dir.
func SocketPath(dataDir string) string {
	p := filepath.Join(dataDir, "run", "hook.sock")
	if len(p) <= maxSocketPath {
		return p
	}
	h := fnv.New64a()
	h.Write([]byte(dataDir))
	return filepath.Join(os.TempDir(), "cairn-"+strconv.Itoa(os.Getuid()), strconv.FormatUint(h.Sum64(), 16)+".sock")
}

package vault

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/cairn-memory/cairn/internal/memory"
)

// maxSummary bounds what Summary reads. The summary is meant to be a few
// kilobytes (V2 caps it at 10,000 bytes); a file far past that is an
// accident that must not reach every prompt.
const maxSummary = 1 << 20

// summaryCache is the last memory_summary.md Summary returned.
type summaryCache struct {
	seen bool        // a call has returned
	info fs.FileInfo // stat of the file read; nil when it was absent
	text string
}

// Summary returns memory_summary.md (empty while it does not exist). It
// costs one Lstat when nothing changed: the file is re-read only when its
// size, modification time or identity (inode; Write replaces the file, so
// even a same-size write within one clock tick is seen) differs from the
// last read, so repeated calls return byte-identical text. changed is true
// on the first call and whenever the text differs from the previous call's.
func (v *Vault) Summary(ctx context.Context) (text string, changed bool, err error) {
	const op = "vault summary"
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	v.sumMu.Lock()
	defer v.sumMu.Unlock()
	fi, err := v.dir.Lstat(SummaryFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		changed = !v.sum.seen || v.sum.text != ""
		v.sum = summaryCache{seen: true}
		return "", changed, nil
	case err != nil:
		return "", false, memory.Wrap(memory.CodeInternal, op, err)
	case !fi.Mode().IsRegular():
		return "", false, refuse(SummaryFile, "is not a regular file (a symbolic link is not followed)")
	}
	if old := v.sum.info; old != nil && old.Size() == fi.Size() && old.ModTime().Equal(fi.ModTime()) && os.SameFile(old, fi) {
		return v.sum.text, false, nil
	}
	if fi.Size() > maxSummary {
		return "", false, memory.Errorf(memory.CodeInvalid, "%s is %d bytes; the limit is %d, so shorten it", SummaryFile, fi.Size(), maxSummary)
	}
	f, err := v.dir.Open(SummaryFile)
	if err != nil {
		return "", false, errPath(op, SummaryFile, err)
	}
	defer f.Close()
	// The stat of the open file is the key: it describes exactly the bytes
	// read, even if the file was replaced since the Lstat above.
	st, err := f.Stat()
	if err != nil {
		return "", false, memory.Wrap(memory.CodeInternal, op, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSummary))
	if err != nil {
		return "", false, memory.Wrap(memory.CodeInternal, op, err)
	}
	text = string(data)
	changed = !v.sum.seen || text != v.sum.text
	v.sum = summaryCache{seen: true, info: st, text: text}
	return text, changed, nil
}

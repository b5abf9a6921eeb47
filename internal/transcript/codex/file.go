package codex

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/klauspost/compress/zstd"

	"github.com/cairn-memory/cairn/internal/transcript"
)

// ParseFile reads one rollout file, plain or zstd-compressed (recognized by
// its magic bytes, not its name). A compressed file that ends in a cut-off
// frame is read up to the cut and reported as Pending, like a half-written
// line; a corrupt one is read up to the damage and the rest is counted as
// skipped. For compressed files Stats.Consumed counts decompressed bytes.
func ParseFile(ctx context.Context, path string) (transcript.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return transcript.Result{}, fmt.Errorf("open codex rollout: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return transcript.Result{}, fmt.Errorf("stat codex rollout: %w", err)
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(len(zstdMagic))

	var r io.Reader = br
	var zr *zstdStream
	if IsZstd(head) {
		dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return transcript.Result{}, fmt.Errorf("open zstd codex rollout: %w", err)
		}
		defer dec.Close()
		zr = &zstdStream{r: dec}
		r = zr
	}
	res, err := Parse(ctx, r)
	if err != nil {
		return transcript.Result{}, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	if zr != nil {
		if zr.truncated {
			res.Stats.Pending = true
		}
		if zr.corrupt {
			res.Stats.Skip("corrupt zstd stream")
		}
	}
	if len(res.Sessions) == 1 && res.Sessions[0].ExternalID == "" {
		res.Sessions[0].ExternalID = idFromName(filepath.Base(path))
	}
	res.Files = []transcript.File{{Path: path, Size: st.Size(), ModTime: st.ModTime()}}
	return res, nil
}

// zstdStream ends a compressed stream at its first decoding problem instead
// of failing it: a cut-off frame is a file still being written, and corrupt
// data cannot get better by reading on.
type zstdStream struct {
	r         io.Reader
	truncated bool
	corrupt   bool
}

func (z *zstdStream) Read(p []byte) (int, error) {
	if z.truncated || z.corrupt {
		return 0, io.EOF
	}
	n, err := z.r.Read(p)
	switch {
	case err == nil, err == io.EOF:
		return n, err
	case errors.Is(err, io.ErrUnexpectedEOF):
		z.truncated = true
	default:
		z.corrupt = true
	}
	return n, io.EOF
}

// rolloutID finds the thread id at the end of a rollout file name.
var rolloutID = regexp.MustCompile(`([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl(\.zst)?$`)

// idFromName is the session id when a rollout has no session_meta.
func idFromName(name string) string {
	if m := rolloutID.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

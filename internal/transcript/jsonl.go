package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxLine bounds one JSONL record. Real transcripts hold lines of several
// megabytes (tool outputs, pasted files, images); anything past this is
// skipped and counted, never allowed to exhaust memory.
const MaxLine = 64 << 20

// LineReader yields the complete lines of a JSONL stream. Lines of any
// length up to MaxLine are returned whole. A last line with no newline is
// returned only if it is valid JSON; otherwise it is reported as pending so
// that the next run, after the writer finished it, reads it again.
type LineReader struct {
	r        *bufio.Reader
	consumed int64
	pending  bool
	tooLong  int
	buf      []byte
}

// NewLineReader reads lines from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 256<<10)}
}

// Next returns the next line without its newline, or io.EOF. The returned
// slice is valid until the next call. Over-long lines are skipped and
// counted in TooLong.
func (l *LineReader) Next() ([]byte, error) {
	for {
		l.buf = l.buf[:0]
		over := false
		n := 0
		for {
			chunk, err := l.r.ReadSlice('\n')
			n += len(chunk)
			if !over {
				if len(l.buf)+len(chunk) > MaxLine {
					over = true
					l.buf = l.buf[:0]
				} else {
					l.buf = append(l.buf, chunk...)
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err == io.EOF {
				if n == 0 {
					return nil, io.EOF
				}
				// A last line with no newline: take it only if it is whole.
				if over || !json.Valid(bytes.TrimSpace(l.buf)) {
					l.pending = true
					return nil, io.EOF
				}
				l.consumed += int64(n)
				return bytes.TrimRight(l.buf, "\r"), nil
			}
			if err != nil {
				return nil, err
			}
			break
		}
		l.consumed += int64(n)
		if over {
			l.tooLong++
			continue
		}
		return bytes.TrimRight(l.buf, "\r\n"), nil
	}
}

// Consumed is the byte offset just past the last complete line returned.
func (l *LineReader) Consumed() int64 { return l.consumed }

// Pending reports whether the stream ended in a half-written line.
func (l *LineReader) Pending() bool { return l.pending }

// TooLong counts the lines skipped for exceeding MaxLine.
func (l *LineReader) TooLong() int { return l.tooLong }

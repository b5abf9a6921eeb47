package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// sink writes one JSONL file and counts what went into it. The first
// write error sticks and is returned by close.
type sink struct {
	f   *os.File
	w   *bufio.Writer
	st  fileStats
	err error
}

func create(path string) (*sink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create corpus file: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create corpus file: %w", err)
	}
	return &sink{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// line writes b and a newline.
func (s *sink) line(b []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = err
		return
	}
	if err := s.w.WriteByte('\n'); err != nil {
		s.err = err
		return
	}
	s.st.bytes += int64(len(b)) + 1
	s.st.lines++
	if len(b) > longLine {
		s.st.longLines++
	}
}

func (s *sink) close() error {
	err := s.err
	if e := s.w.Flush(); err == nil {
		err = e
	}
	if e := s.f.Close(); err == nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("write corpus file %s: %w", s.f.Name(), err)
	}
	return nil
}

package transcript

import (
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, in string) ([]string, *LineReader) {
	t.Helper()
	lr := NewLineReader(strings.NewReader(in))
	var out []string
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return out, lr
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(line))
	}
}

func TestLineReader(t *testing.T) {
	long := `{"x":"` + strings.Repeat("a", 300<<10) + `"}`
	cases := []struct {
		name     string
		in       string
		lines    int
		consumed int
		pending  bool
	}{
		{"empty", "", 0, 0, false},
		{"two lines", "{}\n{}\n", 2, 6, false},
		{"crlf", "{}\r\n", 1, 4, false},
		{"whole last line without newline", "{}\n{\"a\":1}", 2, 10, false},
		{"half-written last line", "{}\n{\"a\":", 1, 3, true},
		{"line over the read buffer", long + "\n{}\n", 2, len(long) + 4, false},
		{"blank lines are lines", "\n\n", 2, 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines, lr := readAll(t, c.in)
			if len(lines) != c.lines || lr.Consumed() != int64(c.consumed) || lr.Pending() != c.pending {
				t.Fatalf("got %d lines, consumed %d, pending %v; want %d, %d, %v",
					len(lines), lr.Consumed(), lr.Pending(), c.lines, c.consumed, c.pending)
			}
		})
	}
	lines, _ := readAll(t, long+"\n")
	if lines[0] != long {
		t.Fatalf("long line was not returned whole: %d bytes", len(lines[0]))
	}
}

func TestLineReaderSkipsOverlongLines(t *testing.T) {
	huge := strings.Repeat("x", MaxLine+10)
	in := "{}\n" + huge + "\n{}\n"
	lines, lr := readAll(t, in)
	if len(lines) != 2 || lr.TooLong() != 1 || lr.Consumed() != int64(len(in)) {
		t.Fatalf("lines=%d tooLong=%d consumed=%d want 2,1,%d", len(lines), lr.TooLong(), lr.Consumed(), len(in))
	}
}

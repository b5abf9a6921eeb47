package cli

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the process's streams and what we know about the terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// IsTTY is true when stdout is a terminal: progress bars and colour only
	// then.
	IsTTY bool
	// Color is IsTTY minus NO_COLOR and TERM=dumb.
	Color bool
}

// System builds streams for a real process.
func System(in io.Reader, out, errOut io.Writer, getenv func(string) string) *IOStreams {
	s := &IOStreams{In: in, Out: out, ErrOut: errOut}
	if f, ok := out.(*os.File); ok {
		s.IsTTY = term.IsTerminal(int(f.Fd()))
	}
	s.Color = s.IsTTY && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	return s
}

// Test builds in-memory streams for tests.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// Bold wraps s in bold when colour is on.
func (s *IOStreams) Bold(t string) string { return s.sgr("1", t) }

// Green colours ok-ish text.
func (s *IOStreams) Green(t string) string { return s.sgr("32", t) }

// Red colours problems.
func (s *IOStreams) Red(t string) string { return s.sgr("31", t) }

// Dim greys secondary text.
func (s *IOStreams) Dim(t string) string { return s.sgr("2", t) }

func (s *IOStreams) sgr(code, t string) string {
	if !s.Color {
		return t
	}
	return "\x1b[" + code + "m" + t + "\x1b[0m"
}

package cli

import (
	"fmt"
	"strings"
)

// progress draws a one-line bar on stderr, only on a terminal.
type progress struct {
	io    *IOStreams
	on    bool
	drawn bool
}

func newProgress(io *IOStreams, want bool) *progress {
	return &progress{io: io, on: want && io.IsTTY}
}

func (p *progress) show(done, total int) {
	if !p.on || total <= 1 {
		return
	}
	const width = 30
	fill := width * done / total
	fmt.Fprintf(p.io.ErrOut, "\r[%s%s] %d/%d", strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total)
	p.drawn = true
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.io.ErrOut, "\r\x1b[K")
		p.drawn = false
	}
}

package resident

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// magic opens every request and answer; the digit is the protocol
// version, so a server and a client from different builds refuse each
// other instead of misreading.
const magic = "cairn-resident/1\n"

// MaxMessage bounds one request or answer. A hook's payload carries the
// last answer of a turn, which can be long; past this the caller runs the
// hook itself.
const MaxMessage = 32 << 20

// Kind is what a request asks.
type Kind string

const (
	// Hook runs `cairn hook ARGS…` with Stdin as its input.
	Hook Kind = "hook"
	// Status asks the server to describe itself.
	Status Kind = "status"
	// Stop asks the server to exit after answering.
	Stop Kind = "stop"
)

// Request is one call.
type Request struct {
	Kind Kind
	// Exe is the cairn binary the caller would have run itself: a server
	// built from another binary sends the caller back to run its own.
	Exe string
	// Args follow `cairn hook`: CLIENT EVENT [flags].
	Args []string
	// Env is the caller's environment (KEY=VALUE), the client's own.
	Env   []string
	Dir   string
	Stdin []byte
}

// Code says how a request ended.
type Code byte

const (
	// Done: Stdout is the hook's whole output.
	Done Code = iota
	// RunYourself: the server will not serve this caller (another binary,
	// another configuration, or it is shutting down); nothing was done, and
	// the caller runs the hook itself.
	RunYourself
	// Failed: the server tried and failed; Message says why. The hook
	// printed nothing.
	Failed
)

// Answer is the server's reply.
type Answer struct {
	Code    Code
	Stdout  []byte
	Message string
}

// WriteRequest encodes r.
func WriteRequest(w io.Writer, r Request) error {
	fields := [][]byte{[]byte(r.Kind), []byte(r.Exe), []byte(r.Dir), r.Stdin, list(r.Args), list(r.Env)}
	return writeFrame(w, fields)
}

// ReadRequest decodes one request, refusing anything malformed or larger
// than MaxMessage.
func ReadRequest(r io.Reader) (Request, error) {
	f, err := readFrame(r, 6)
	if err != nil {
		return Request{}, err
	}
	args, err := unlist(f[4])
	if err != nil {
		return Request{}, wrap("resident request args", err)
	}
	env, err := unlist(f[5])
	if err != nil {
		return Request{}, wrap("resident request env", err)
	}
	k := Kind(f[0])
	switch k {
	case Hook, Status, Stop:
	default:
		return Request{}, errors.New("resident request: unknown kind " + strconv.Quote(string(k)))
	}
	return Request{Kind: k, Exe: string(f[1]), Dir: string(f[2]), Stdin: f[3], Args: args, Env: env}, nil
}

// WriteAnswer encodes a.
func WriteAnswer(w io.Writer, a Answer) error {
	return writeFrame(w, [][]byte{{byte(a.Code)}, a.Stdout, []byte(a.Message)})
}

// ReadAnswer decodes one answer.
func ReadAnswer(r io.Reader) (Answer, error) {
	f, err := readFrame(r, 3)
	if err != nil {
		return Answer{}, err
	}
	if len(f[0]) != 1 || Code(f[0][0]) > Failed {
		return Answer{}, errors.New("resident answer: bad code")
	}
	return Answer{Code: Code(f[0][0]), Stdout: f[1], Message: string(f[2])}, nil
}

// A frame is the magic line, then each field as a uvarint length and its
// bytes; the field count is fixed by the message type.
func writeFrame(w io.Writer, fields [][]byte) error {
	total := len(magic)
	for _, f := range fields {
		total += maxVarintLen + len(f)
	}
	if total > MaxMessage {
		return errors.New("resident message of " + itoa(total) + " bytes is over the " + itoa(MaxMessage) + "-byte limit")
	}
	buf := make([]byte, 0, total)
	buf = append(buf, magic...)
	for _, f := range fields {
		buf = appendUvarint(buf, uint64(len(f)))
		buf = append(buf, f...)
	}
	_, err := w.Write(buf)
	return err
}

func readFrame(r io.Reader, n int) ([][]byte, error) {
	br := bufio.NewReader(r)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, wrap("resident message", err)
	}
	if string(head) != magic {
		return nil, errors.New("resident message: not cairn's protocol, or another version of it")
	}
	out := make([][]byte, n)
	left := MaxMessage - len(magic)
	for i := range out {
		size, err := readUvarint(br)
		if err != nil {
			return nil, wrap("resident message field "+itoa(i), err)
		}
		if size > uint64(left) {
			return nil, errors.New("resident message field " + itoa(i) + ": " + strconv.FormatUint(size, 10) + " bytes is over the limit")
		}
		out[i] = make([]byte, size)
		if _, err := io.ReadFull(br, out[i]); err != nil {
			return nil, wrap("resident message field "+itoa(i), err)
		}
		left -= int(size)
	}
	return out, nil
}

// list packs strings as uvarint-length-prefixed items.
func list(ss []string) []byte {
	var b []byte
	for _, s := range ss {
		b = appendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func unlist(b []byte) ([]string, error) {
	var out []string
	for len(b) > 0 {
		n, k := uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errors.New("truncated item")
		}
		out = append(out, string(b[k:k+int(n)]))
		b = b[k+int(n):]
	}
	return out, nil
}

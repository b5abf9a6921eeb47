package resident

import (
	"errors"
	"io"
	"strconv"
)

// The wire's lengths are unsigned LEB128 varints, the encoding of
// encoding/binary's Uvarint. They are coded here, as the errors below are
// built without fmt, because cairn-hook links this package and both
// encoding/binary and fmt pull in reflect, whose initialization is part
// of every hook's start.

const maxVarintLen = 10

var errVarintOverflow = errors.New("varint overflows a 64-bit integer")

func appendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

// readUvarint reads one varint: io.EOF when nothing was read,
// io.ErrUnexpectedEOF when the input ends inside it.
func readUvarint(r io.ByteReader) (uint64, error) {
	var x uint64
	for i, shift := 0, uint(0); i < maxVarintLen; i, shift = i+1, shift+7 {
		c, err := r.ReadByte()
		if err != nil {
			if i > 0 && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if c < 0x80 {
			if i == maxVarintLen-1 && c > 1 {
				return 0, errVarintOverflow
			}
			return x | uint64(c)<<shift, nil
		}
		x |= uint64(c&0x7f) << shift
	}
	return 0, errVarintOverflow
}

// uvarint decodes a varint at the start of b and how many bytes it took;
// 0 bytes when b ends inside it, negative when it overflows.
func uvarint(b []byte) (uint64, int) {
	var x uint64
	for i, shift := 0, uint(0); i < len(b); i, shift = i+1, shift+7 {
		if i == maxVarintLen {
			return 0, -(i + 1)
		}
		c := b[i]
		if c < 0x80 {
			if i == maxVarintLen-1 && c > 1 {
				return 0, -(i + 1)
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
	}
	return 0, 0
}

// wireError is a wire error with the cause it wraps (errors.Is sees
// through it, as through fmt's %w).
type wireError struct {
	msg string
	err error
}

func (e *wireError) Error() string { return e.msg + ": " + e.err.Error() }
func (e *wireError) Unwrap() error { return e.err }

func wrap(msg string, err error) error { return &wireError{msg, err} }

func itoa(n int) string { return strconv.Itoa(n) }

package resident

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"testing"
)

// The wire's own varints agree with encoding/binary's, which they stand
// in for.
func TestVarintsAreBinarys(t *testing.T) {
	for _, x := range []uint64{0, 1, 127, 128, 300, 1 << 32, math.MaxUint64 - 1, math.MaxUint64} {
		got := appendUvarint(nil, x)
		if want := binary.AppendUvarint(nil, x); !bytes.Equal(got, want) {
			t.Fatalf("%d: %x, want %x", x, got, want)
		}
		if v, n := uvarint(got); v != x || n != len(got) {
			t.Fatalf("uvarint(%x) = %d, %d", got, v, n)
		}
		if v, err := readUvarint(bytes.NewReader(got)); v != x || err != nil {
			t.Fatalf("readUvarint(%x) = %d, %v", got, v, err)
		}
	}
	if _, err := readUvarint(bytes.NewReader(nil)); err != io.EOF {
		t.Fatalf("empty: %v", err)
	}
	if _, err := readUvarint(bytes.NewReader([]byte{0x80})); err != io.ErrUnexpectedEOF {
		t.Fatalf("cut: %v", err)
	}
}

func FuzzVarint(f *testing.F) {
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02})
	f.Add([]byte{0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, n := uvarint(b)
		wv, wn := binary.Uvarint(b)
		if v != wv || n != wn {
			t.Fatalf("uvarint(%x) = %d, %d; binary gives %d, %d", b, v, n, wv, wn)
		}
		rv, err := readUvarint(bytes.NewReader(b))
		wrv, werr := binary.ReadUvarint(bytes.NewReader(b))
		if (err == nil && rv != wrv) || (err == nil) != (werr == nil) || errors.Is(werr, io.EOF) != errors.Is(err, io.EOF) || errors.Is(werr, io.ErrUnexpectedEOF) != errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("readUvarint(%x) = %d, %v; binary gives %d, %v", b, rv, err, wrv, werr)
		}
	})
}

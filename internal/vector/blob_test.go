package vector

import (
	"bytes"
	"math"
	"testing"
)

func TestBlobRoundTrip(t *testing.T) {
	v := []float32{0, 1, -2.5, 1e-30, 3.4e38, float32(math.Copysign(0, -1))}
	b := Encode(v)
	if len(b) != 4*len(v) {
		t.Fatalf("%d bytes for %d dimensions", len(b), len(v))
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range v {
		if math.Float32bits(got[i]) != math.Float32bits(v[i]) {
			t.Fatalf("dimension %d: %v, want %v", i, got[i], v[i])
		}
	}
	// 0.5 and -0.25, as the OpenAI base64 encoding spells them.
	if !bytes.Equal(Encode([]float32{0.5, -0.25}), []byte{0, 0, 0, 0x3f, 0, 0, 0x80, 0xbe}) {
		t.Fatal("not little-endian IEEE float32")
	}
}

func TestDecodeRefusesForeignBlobs(t *testing.T) {
	for name, b := range map[string][]byte{
		"ragged": {1, 2, 3},
		"nan":    Encode([]float32{1, float32(math.NaN())}),
		"inf":    Encode([]float32{float32(math.Inf(-1))}),
	} {
		if _, err := Decode(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{})
	f.Add(Encode([]float32{1, -1, 0.5}))
	f.Add([]byte{0, 0, 0xc0, 0x7f})
	f.Add([]byte{1, 2, 3, 4, 5})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Decode(b)
		if err != nil {
			return
		}
		if !bytes.Equal(Encode(v), b) {
			t.Fatal("a decoded blob does not encode back to itself")
		}
	})
}

package vector

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Encode packs a vector as little-endian float32s, 4 bytes a dimension.
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// Decode unpacks a blob written by Encode. A blob whose length is not a
// whole number of float32s, or that holds NaN or an infinity, is refused:
// it did not come from Encode.
func Decode(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("decode vector: %d bytes is not a whole number of float32s", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		f := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if !finite(f) {
			return nil, fmt.Errorf("decode vector: dimension %d is not a finite number", i)
		}
		v[i] = f
	}
	return v, nil
}

func finite(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}

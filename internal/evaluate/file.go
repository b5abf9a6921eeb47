package evaluate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Input formats accepted by LoadFile.
const (
	FormatLoCoMo = "locomo"
	FormatJSONL  = "jsonl"
)

// LoadFile reads a dataset file in the given format (FormatLoCoMo or
// FormatJSONL). A dataset that does not name itself is named after the
// file ("locomo10" for locomo10.json).
func LoadFile(format, path string) (Dataset, error) {
	var load func(io.Reader) (Dataset, error)
	switch format {
	case FormatLoCoMo:
		load = LoadLoCoMo
	case FormatJSONL:
		load = LoadJSONL
	default:
		return Dataset{}, fmt.Errorf("load %s: unknown format %q (want %s or %s)", path, format, FormatLoCoMo, FormatJSONL)
	}
	f, err := os.Open(path)
	if err != nil {
		return Dataset{}, fmt.Errorf("load dataset: %w", err)
	}
	defer f.Close()
	ds, err := load(f)
	if err != nil {
		return Dataset{}, fmt.Errorf("%s: %w", path, err)
	}
	if ds.Name == "" {
		base := filepath.Base(path)
		ds.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return ds, nil
}

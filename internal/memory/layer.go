package memory

import "strings"

// Layer is one of memory's four layers.
type Layer string

// The layers: raw transcript parts, durable statements (notes and facts),
// turn episodes, and the derived profile.
const (
	L0 Layer = "L0"
	L1 Layer = "L1"
	L2 Layer = "L2"
	L3 Layer = "L3"
)

// Layers lists every layer in fusion-weight order.
var Layers = []Layer{L1, L2, L0, L3}

// ParseLayer accepts "L1", "l1", "1", or a layer's noun.
func ParseLayer(s string) (Layer, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "l0", "0", "parts", "raw", "transcript":
		return L0, nil
	case "l1", "1", "statements", "notes", "facts":
		return L1, nil
	case "l2", "2", "episodes":
		return L2, nil
	case "l3", "3", "profile":
		return L3, nil
	}
	return "", Errorf(CodeInvalid, "unknown layer %q: use L0 (raw parts), L1 (notes and facts), L2 (episodes) or L3 (profile)", s)
}

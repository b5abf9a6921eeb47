// Package rank orders search candidates inside each layer and fuses the
// layers into one list, exactly as seed 000 gives it:
//
//	fused = layer_weight × (rank_score × 0.6 + lexical_score × 0.4) × confidence
//
// then a small pin boost. It is pure: candidates come in from the stores,
// scores go out.
package rank

// Package vector holds embedding vectors in memory and finds the nearest
// ones to a query by cosine similarity, by brute force over one
// contiguous float32 slab. It is pure: vectors come in from a store and
// hits go out. It also encodes vectors as the compact little-endian
// float32 blobs the stores keep.
package vector

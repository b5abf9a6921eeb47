package vector

// Doc is a row's text waiting for its vector.
type Doc struct {
	ID   int64
	Text string
}

// Stored is a vector as a store keeps it: Seq orders the writes, so an
// index that has read up to some Seq reads only what came after.
type Stored struct {
	Seq int64
	ID  int64
	Vec []float32
}

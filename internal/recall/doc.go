// Package recall holds the pure rules of what an agent is shown: which
// policy lets a session read and learn, how the memory block is laid out
// and labelled as untrusted context, how it fits its budget, how an
// answer's citations are read back, and when a request asks about earlier
// work. Rows come in already chosen and scored; the block goes out.
package recall

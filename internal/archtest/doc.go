// Package archtest holds tests that guard the architecture: the pure core
// does no I/O, and every package documents itself exactly once.
package archtest

// Package temporal holds the rules of the bi-temporal statement store
// (seed 002, beaten where it admits limits): how many values a slot holds,
// what a new value does to the old ones (supersede, restate, arrive late),
// which tier a writer may claim, where a statement applies, how predicate
// names are kept from drifting, and what the store held at any moment on
// either clock. It is pure: rows come in, decisions go out.
package temporal

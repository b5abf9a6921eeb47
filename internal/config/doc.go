// Package config holds every knob cairn has, with the seeds' values as
// defaults, and reads them from a TOML file and CAIRN_* environment
// variables. Parsing is pure; Load is the thin part that touches the disk.
// For each key it records where the effective value came from.
package config

package cli

import (
	"errors"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Exit codes, one per error code: scripts can tell "you asked wrong" from
// "not there" from "broken". This is the one table.
var exitCodes = map[memory.Code]int{
	memory.CodeInternal:     1,
	memory.CodeInvalid:      2,
	memory.CodeNotFound:     3,
	memory.CodeConflict:     4,
	memory.CodeUnauthorized: 5,
	memory.CodeUnavailable:  6,
}

// ErrSilent exits non-zero without printing: the command already said why.
var ErrSilent = errors.New("silent failure")

// ExitCode maps an error to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, ErrSilent) {
		return 1
	}
	if c, ok := exitCodes[memory.ErrorCode(err)]; ok {
		return c
	}
	return 1
}

// Classify gives cobra's own usage errors (unknown commands and flags,
// wrong argument counts), which carry no code, the invalid code, so they
// exit 2 and are not logged as internal failures.
func Classify(err error) error {
	if err == nil || memory.ErrorCode(err) != memory.CodeInternal {
		return err
	}
	var e *memory.Error
	if errors.As(err, &e) {
		return err
	}
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "arg(s)", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, s) {
			return &memory.Error{Code: memory.CodeInvalid, Message: msg + "; see `cairn help`", Err: err}
		}
	}
	return err
}

package memory

import (
	"errors"
	"fmt"
)

// Code classifies an error so that each edge (CLI exit code, HTTP status,
// MCP isError) can translate it in exactly one table.
type Code string

// Error codes. Keep the set small: edges map every code, and a new code is a
// change to every edge's table.
const (
	CodeInvalid      Code = "invalid"      // the caller sent something wrong; the message says what
	CodeNotFound     Code = "not_found"    // the named thing does not exist
	CodeConflict     Code = "conflict"     // the request clashes with stored state (schema too new, lease held)
	CodeUnauthorized Code = "unauthorized" // no identity, or one that may not do this
	CodeUnavailable  Code = "unavailable"  // a dependency is down or switched off; retry later
	CodeInternal     Code = "internal"     // a bug or an I/O failure; logged in full, shown briefly
)

// Error is cairn's single error type. Message is written for the user and
// says what to do next; Op and Err carry the detail for logs.
type Error struct {
	Code    Code
	Message string
	Op      string
	Err     error
}

func (e *Error) Error() string {
	switch {
	case e.Op != "" && e.Err != nil && e.Message != "":
		return e.Op + ": " + e.Message + ": " + e.Err.Error()
	case e.Op != "" && e.Err != nil:
		return e.Op + ": " + e.Err.Error()
	case e.Op != "" && e.Message != "":
		return e.Op + ": " + e.Message
	case e.Err != nil && e.Message != "":
		return e.Message + ": " + e.Err.Error()
	case e.Err != nil:
		return e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a user-facing message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap attaches an operation name and a code to an underlying error. An
// error that already carries a code keeps it.
func Wrap(code Code, op string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return &Error{Code: e.Code, Message: e.Message, Op: op, Err: err}
	}
	return &Error{Code: code, Op: op, Err: err}
}

// ErrorCode returns the code of the first *Error in err's chain, or
// CodeInternal for any other non-nil error.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the innermost user-facing message in err's chain, or
// "" when there is none (typically an internal error, whose detail belongs
// in a log; each edge decides what to show instead).
func ErrorMessage(err error) string {
	msg := ""
	for cur := err; cur != nil; cur = errors.Unwrap(cur) {
		if e, ok := cur.(*Error); ok && e.Message != "" {
			msg = e.Message
		}
	}
	return msg
}

// IsCode reports whether err carries code (a nil err carries none).
func IsCode(err error, code Code) bool { return err != nil && ErrorCode(err) == code }

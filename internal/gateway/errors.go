package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/cairn-memory/cairn/internal/memory"
)

// statusOf is the one table from error codes to HTTP statuses.
var statusOf = map[memory.Code]int{
	memory.CodeInvalid:      http.StatusBadRequest,
	memory.CodeNotFound:     http.StatusNotFound,
	memory.CodeConflict:     http.StatusConflict,
	memory.CodeUnauthorized: http.StatusForbidden,
	memory.CodeUnavailable:  http.StatusServiceUnavailable,
	memory.CodeInternal:     http.StatusInternalServerError,
}

// Statuses the table does not produce: they come from the edge itself
// (no token, body too large, too many requests, too slow), each with the
// code a client maps it back to.
var (
	errNoToken  = &httpError{http.StatusUnauthorized, memory.CodeUnauthorized, "a valid token is required: send Authorization: Bearer cairn_…"}
	errTooLarge = &httpError{http.StatusRequestEntityTooLarge, memory.CodeInvalid, "the request body is too large"}
	errTooMany  = &httpError{http.StatusTooManyRequests, memory.CodeUnavailable, "too many requests for this token: slow down and retry"}
	errTimeout  = &httpError{http.StatusServiceUnavailable, memory.CodeUnavailable, "the request took too long and was stopped; retry"}
	errRefused  = &httpError{http.StatusForbidden, memory.CodeUnauthorized, "nothing is deleted through the API: retract or forget instead (history is kept); an operator purges with `cairn purge`"}
)

type httpError struct {
	status  int
	code    memory.Code
	message string
}

func (e *httpError) Error() string { return e.message }

// ErrorBody is every error's JSON.
type ErrorBody struct {
	Error struct {
		Code    memory.Code `json:"code"`
		Message string      `json:"message"`
	} `json:"error"`
}

// writeError answers with err. Internal errors are logged in full and
// shown as a short message that names nothing inside.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var he *httpError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &he):
	case errors.As(err, &mbe):
		he = errTooLarge
	case errors.Is(err, context.DeadlineExceeded):
		he = errTimeout
	default:
		code := memory.ErrorCode(err)
		msg := memory.ErrorMessage(err)
		if code == memory.CodeInternal || msg == "" {
			log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
			code, msg = memory.CodeInternal, "internal error: the gateway logged it"
		}
		he = &httpError{statusOf[code], code, msg}
	}
	var b ErrorBody
	b.Error.Code, b.Error.Message = he.code, he.message
	if he.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="cairn"`)
	}
	writeJSON(w, he.status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

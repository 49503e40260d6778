package dashboard

import (
	"github.com/caddy-x402/caddy-x402/edge"

	"errors"
	"net/http"
	"strings"

	"go.uber.org/zap"
)

// Errors that callers of the admin API branch on.
var (
	// ErrNotFound: no such project or key.
	ErrNotFound = errors.New("not found")
	// ErrNoPaymaster: no paymaster runs, so there are no projects or keys
	// to manage.
	ErrNoPaymaster = errors.New("no paymaster runs in this Caddy: add an x402_paymaster handler to manage projects and keys")
	// ErrConflict: the change clashes with what exists, such as a project
	// name that is taken or limits of a project defined in the Caddyfile.
	ErrConflict = errors.New("conflict")
)

// errMediaType marks a state-changing call whose body is not declared
// JSON (see requireJSON).
var errMediaType = errors.New("unsupported media type")

// apiError is the body of every error answer: a code a program can branch
// on and a message for people.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// classify maps an error to its status and code. Anything it does not
// know is an internal error, whose details go to the log only.
func classify(err error) (int, string) {
	switch {
	case errors.Is(err, errBadRequest), errors.Is(err, errCursor):
		return http.StatusBadRequest, "bad_request"
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, ErrNoPaymaster):
		return http.StatusNotFound, "no_paymaster"
	case errors.Is(err, ErrConflict):
		return http.StatusConflict, "conflict"
	case errors.Is(err, errMediaType):
		return http.StatusUnsupportedMediaType, "unsupported_media_type"
	}
	return http.StatusInternalServerError, "internal_error"
}

// publicError is what may be shown of err: its text for the caller's own
// mistakes, a fixed sentence otherwise.
func publicError(err error) string {
	if status, _ := classify(err); status == http.StatusInternalServerError {
		return "internal error; the details are in the server's log"
	}
	msg := err.Error()
	for _, prefix := range []string{errBadRequest.Error() + ": ", ErrConflict.Error() + ": ", errMediaType.Error() + ": "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return msg
}

func errField(err error) zap.Field { return zap.Error(err) }

// writeError answers err as JSON, logging what is not the caller's fault.
func (d *Dashboard) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, code := classify(err)
	if status == http.StatusInternalServerError {
		d.log.Error("admin request failed", zap.String("method", r.Method), zap.String("path", r.URL.Path), errField(err))
	}
	edge.WriteJSON(w, status, apiError{Code: code, Message: publicError(err)})
}

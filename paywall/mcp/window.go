package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/caddy-x402/caddy-x402/paywall"
)

// Windows makes a settled call of a priced tool buy its MCP session a
// window on that tool ("pay once, then call it for an hour"): for
// Duration, and at most Requests calls in all (the paid one included),
// the session's later calls of the tool are forwarded without a payment.
// A call that carries a payment is a payment, window or not; its
// settlement opens or extends the window.
//
// The session is the one the MCP server gave the client: its
// Mcp-Session-Id (streamable HTTP) or the query of its message endpoint
// (HTTP+SSE), a secret the server chose, which MCP clients send with
// every message; x402's sign-in-with-x proof is a header MCP clients do
// not send. Only its SHA-256 is stored.
type Windows struct {
	// Store keeps the windows, durably and shared by every process that
	// serves the route (paywall.AccessWindows; the x402 Caddy app's store
	// provides it).
	Store paywall.AccessWindows
	// Duration is how long a window lasts; required.
	Duration time.Duration
	// Requests is the most calls a window serves, the paid one included;
	// 0 is no limit.
	Requests int64
	// Scope names a tool's windows in Store; default "mcp/<tool>".
	Scope func(tool string) string
}

func (w *Windows) validate() error {
	switch {
	case w.Store == nil:
		return errors.New("mcp windows: no store")
	case w.Duration <= 0:
		return errors.New("mcp windows: the duration must be positive")
	case w.Requests < 0:
		return errors.New("mcp windows: requests must not be negative")
	}
	return nil
}

func (w *Windows) scope(tool string) string {
	if w.Scope != nil {
		return w.Scope(tool)
	}
	return "mcp/" + tool
}

// holder is how a session is named in the store: the SHA-256 of its id.
func holder(session string) string {
	sum := sha256.Sum256([]byte(session))
	return "mcp-session:" + hex.EncodeToString(sum[:])
}

// use spends one call of session's window on tool; false without one (or
// when the store cannot say: the call then pays).
func (w *Windows) use(ctx context.Context, tool, session string) bool {
	if w == nil || session == "" {
		return false
	}
	_, ok, err := w.Store.Use(ctx, w.scope(tool), holder(session))
	return ok && err == nil
}

// open opens or extends session's window on tool, bought by the settled
// transaction tx. A failure leaves the session to pay for its next call.
func (w *Windows) open(ctx context.Context, tool, session, tx string) {
	if w == nil || session == "" {
		return
	}
	w.Store.Open(ctx, w.scope(tool), holder(session), w.Duration, w.Requests, tx)
}

// serveWindow forwards an unpaid call m that session's window covers,
// and reports whether it did.
func (h *Handler) serveWindow(r *http.Request, m *message, session string, x exchange, next Next) (bool, error) {
	if m.payment != nil || !h.cfg.Windows.use(r.Context(), m.tool, session) {
		return false, nil
	}
	body, err := m.withoutPayment()
	if err != nil {
		return true, x.deliver(errorMessage(m.id, codeInternal, "the call could not be re-encoded", nil))
	}
	fr := r.Clone(r.Context())
	setBody(fr, body)
	resp, err := x.forward(newRecorder(), fr, next)
	if resp == nil {
		return true, err // the upstream's own answer went through, or an error
	}
	return true, x.deliver(resp)
}

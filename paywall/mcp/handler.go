// Package mcp charges for the tools of an MCP server (Model Context
// Protocol) that knows nothing of payments, with x402's MCP transport: a
// priced tools/call pays in its _meta["x402/payment"] and gets its
// settlement in the result's _meta["x402/payment-response"]; every other
// message (initialize, tools/list, resources, prompts, pings, free tools,
// notifications, the server's stream) passes through untouched.
//
// It is a transport of the paywall, not a second paywall: each priced
// tool has a Gate, in practice a *paywall.Paywall whose resource is
// mcp://tool/<name>, which verifies, settles, guards the payment against
// reuse, records it and runs its hooks exactly as for an HTTP route. This
// package presents the call's payment to the gate as the payment of an
// HTTP request, forwards the call (without its payment) as that request's
// protected handler, and tells the gate the tool succeeded (a 2xx) or
// failed (a 502, which is not charged). It translates the gate's answers
// into the MCP transport's: a 402 becomes a tool result with isError set
// and the PaymentRequired in structuredContent and content[0].text; a 503
// (the settlement's outcome not known yet) a JSON-RPC error the client
// retries with the same payment.
//
// Money rules, as for HTTP: a priced call without a valid payment never
// reaches the upstream; a call is charged only when the tool succeeded
// (its response has no JSON-RPC error and its result's isError is not
// true); a response is delivered only once settled, and one payment pays
// one call.
//
// Two transports carry MCP over HTTP (see Transport): streamable HTTP
// (StreamableHTTP) and the HTTP+SSE transport of protocol 2024-11-05
// (LegacySSE).
package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Gate charges for one priced tool: it answers a request without a valid
// payment itself, and runs next behind its settlement otherwise (see
// paywall.Paywall.ServeNext, which implements it).
type Gate interface {
	ServeNext(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request) error) error
}

// Next is the handler behind the MCP paywall: the route to the MCP
// server, such as Caddy's reverse_proxy.
type Next func(w http.ResponseWriter, r *http.Request) error

// Transport is how MCP messages travel over HTTP: StreamableHTTP or
// LegacySSE.
type Transport interface {
	// serve handles one HTTP request of the transport.
	serve(h *Handler, w http.ResponseWriter, r *http.Request, next Next) error
}

// Default bounds.
const (
	// DefaultMaxBody is Config.MaxBody's default.
	DefaultMaxBody = 1 << 20
	// DefaultMaxResult is Config.MaxResult's default.
	DefaultMaxResult = 16 << 20
)

// Config configures a Handler.
type Config struct {
	// Tools are the gates of the priced tools, by exact name; every other
	// tool is free. A call whose name is not a priced tool's but equals
	// one once normalized and case folded (see foldName) is refused.
	Tools map[string]Gate
	// Transport is the MCP server's transport; default StreamableHTTP.
	Transport Transport
	// MaxBody bounds the body of a POST, in bytes; a larger one is
	// answered 413 with a JSON-RPC error. Default DefaultMaxBody.
	MaxBody int64
	// MaxResult bounds a priced call's response, held until its
	// settlement, in bytes; a larger one is not charged and is answered
	// with a JSON-RPC error. Default DefaultMaxResult.
	MaxResult int
	// Windows, when set, makes a paid call buy its session a window on
	// the tool (see Windows). Nil, the default: one payment, one call.
	Windows *Windows
}

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	if len(c.Tools) == 0 {
		errs = append(errs, errors.New("mcp: no priced tools"))
	}
	folded := map[string]string{}
	for name, g := range c.Tools {
		if name == "" {
			errs = append(errs, errors.New("mcp: a priced tool without a name"))
		}
		if g == nil {
			errs = append(errs, fmt.Errorf("mcp: tool %q has no gate", name))
		}
		f := foldName(name)
		if other, ok := folded[f]; ok {
			errs = append(errs, fmt.Errorf("mcp: tools %q and %q differ only in case or Unicode form; a client could not tell which it pays for", other, name))
		}
		folded[f] = name
	}
	if c.MaxBody < 0 || c.MaxResult < 0 {
		errs = append(errs, errors.New("mcp: negative bounds"))
	}
	if c.Windows != nil {
		errs = append(errs, c.Windows.validate())
	}
	return errors.Join(errs...)
}

// Handler is the MCP paywall of one MCP server. It is safe for
// concurrent use.
type Handler struct {
	cfg    Config
	folded map[string]string // priced tools by folded name
	priced pricedCalls       // the sessions' priced calls (resume.go)
}

// New returns a Handler.
func New(cfg Config) (*Handler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Transport == nil {
		cfg.Transport = StreamableHTTP{}
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxResult == 0 {
		cfg.MaxResult = DefaultMaxResult
	}
	h := &Handler{cfg: cfg, folded: map[string]string{}}
	for name := range cfg.Tools {
		h.folded[foldName(name)] = name
	}
	return h, nil
}

// ServeNext handles one request to the MCP server behind next.
func (h *Handler) ServeNext(w http.ResponseWriter, r *http.Request, next Next) error {
	// A payment travels in _meta; one in a header is not the upstream's
	// business either.
	r.Header.Del(x402.HeaderPaymentSignature)
	r.Header.Del(x402.HeaderXPayment)
	return h.cfg.Transport.serve(h, w, r, next)
}

// Handler returns next behind the MCP paywall.
func (h *Handler) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
			next.ServeHTTP(w, r)
			return nil
		})
	})
}

// readBody reads r's body within MaxBody; false when it answered.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, errorMessage(nil, codeInvalidRequest, fmt.Sprintf("the body exceeds %d bytes", h.cfg.MaxBody), nil))
			return nil, false
		}
		writeJSON(w, http.StatusBadRequest, errorMessage(nil, codeParseError, "the body could not be read", nil))
		return nil, false
	}
	return body, true
}

// judge sorts a body's messages: the gate of each priced call (nil for a
// free message), or the refusal of a call that spells a priced tool
// otherwise.
func (h *Handler) judge(msgs []*message) (gates []Gate, refusals []json.RawMessage, priced bool) {
	gates = make([]Gate, len(msgs))
	refusals = make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		if m.method != "tools/call" {
			continue
		}
		if g, ok := h.cfg.Tools[m.tool]; ok {
			if m.id == nil {
				// A notification has no answer to carry a challenge or a
				// settlement: it is not forwarded.
				refusals[i], priced = errorMessage(nil, codeInvalidRequest, fmt.Sprintf("a call of the priced tool %q needs an id", m.tool), nil), true
				continue
			}
			gates[i], priced = g, true
			continue
		}
		if name, ok := h.folded[foldName(m.tool)]; ok {
			refusals[i], priced = errorMessage(m.id, codeInvalidParams,
				fmt.Sprintf("tool %q differs from the priced tool %q only in case or Unicode form; call it by its exact name", m.tool, name), nil), true
		}
	}
	return gates, refusals, priced
}

// exchange is how a transport carries one priced call.
type exchange interface {
	// forward sends the call (without its payment, as r's body) to the
	// upstream through next, and returns the upstream's response to it;
	// nil when none came (the upstream's answer, if any, then went to
	// the client as it was).
	forward(w http.ResponseWriter, r *http.Request, next Next) (json.RawMessage, error)
	// deliver sends the call's answer to the client.
	deliver(msg json.RawMessage) error
}

// charge runs one priced call m through its gate: the challenge, the
// payment's refusal, or the call forwarded, judged and, if it succeeded,
// settled and delivered with its settlement.
func (h *Handler) charge(r *http.Request, m *message, session string, gate Gate, x exchange, next Next) error {
	if served, err := h.serveWindow(r, m, session, x, next); served {
		return err
	}
	stripped, err := m.withoutPayment()
	if err != nil {
		return x.deliver(errorMessage(m.id, codeInternal, "the call could not be re-encoded", nil))
	}
	gr, reason := h.gateRequest(r, m, stripped)
	accept := r.Header.Values("Accept")
	rec := newRecorder()
	delivered := false
	var deliverErr error
	err = gate.ServeNext(rec, gr, func(gw http.ResponseWriter, fr *http.Request) error {
		fr.Header.Del("Accept")
		for _, a := range accept {
			fr.Header.Add("Accept", a)
		}
		fr.URL = r.URL
		resp, err := x.forward(gw, fr, next)
		if err != nil && resp == nil {
			return err // nothing written: nothing settled
		}
		if resp == nil || !toolSucceeded(resp) {
			gw.WriteHeader(http.StatusBadGateway) // the tool failed: not charged
			if resp != nil {
				delivered, deliverErr = true, x.deliver(resp)
			} else {
				delivered = true // the upstream's own answer went through
			}
			return nil
		}
		gw.WriteHeader(http.StatusOK) // settles
		settled, ok := rec.paymentResponse()
		if rec.status != http.StatusOK || !ok {
			return nil // the gate answered the failure
		}
		h.cfg.Windows.open(fr.Context(), m.tool, session, settled.TransactionHash)
		out, err := withResultMeta(resp, MetaPaymentResponse, settled)
		if err != nil {
			out = resp // cannot happen: resp decoded as a result above
		}
		delivered, deliverErr = true, x.deliver(out)
		return nil
	})
	if delivered {
		return deliverErr
	}
	if err != nil {
		return err
	}
	return x.deliver(rec.answer(m.id, reason))
}

// gateRequest is the HTTP request the gate judges for call m: r with the
// call's payment as PAYMENT-SIGNATURE and the call without it as body.
// A payment for another tool is not presented: the gate then answers the
// challenge, whose error is reason.
func (h *Handler) gateRequest(r *http.Request, m *message, body []byte) (gr *http.Request, reason string) {
	gr = r.Clone(r.Context())
	// The gate sees the tool as the request's path, so that a price
	// service is asked for the tool's price (its query's path is
	// mcp://tool/<name>); the call goes upstream with r's own URL.
	u := *r.URL
	u.Path, u.RawPath = ResourceURL(m.tool), ""
	gr.URL = &u
	gr.Body = io.NopCloser(bytes.NewReader(body))
	gr.ContentLength = int64(len(body))
	gr.Header.Set("Content-Length", strconv.Itoa(len(body)))
	gr.Header.Set("Accept", "application/json") // never the browser page
	if m.payment == nil {
		return gr, ""
	}
	var header string
	if err := json.Unmarshal(m.payment, &header); err != nil {
		// The transport's form: the PaymentPayload object, handed to the
		// gate as the header would carry it.
		header = base64.StdEncoding.EncodeToString(m.payment)
	} // else a client that sent the header's own encoding
	if p, err := x402.DecodePaymentPayload(header); err == nil && p.Resource != nil && p.Resource.URL != "" && p.Resource.URL != ResourceURL(m.tool) {
		return gr, fmt.Sprintf("%s: the payment is for %s, not %s", x402.ReasonInvalidInnerPayload, p.Resource.URL, ResourceURL(m.tool))
	}
	gr.Header.Set(x402.HeaderPaymentSignature, header)
	return gr, ""
}

// ResourceURL is the x402 resource of a priced tool: mcp://tool/<name>.
func ResourceURL(tool string) string { return "mcp://tool/" + tool }

// writeJSON answers with one JSON body.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	w.Write(body)
}

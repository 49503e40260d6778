package paywall

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The payment-identifier extension (x402's extensions/payment-identifier):
// a client names its payment with an identifier of its choosing in the
// payment payload's extensions, and a paywall that declared the extension
// in its 402 honours it:
//
//   - the same identifier with the same payment (the same x402.PaymentID
//     identity, however re-serialized) gets the original settlement result
//     again, without paying again: after the paid response was served, a
//     200 whose PAYMENT-RESPONSE is the original receipt and whose JSON
//     body says so, never the paid content a second time (one payment pays
//     for one response); before it was served (in flight, or lost to a
//     crash), the payment goes through as any retry of it does;
//   - the same identifier with another payment gets 409 and a JSON body,
//     and nothing is verified, settled or served.
//
// Identifiers are scoped by payer, so no one can take or block another
// payer's identifier; a binding is made only for a payment the facilitator
// verified, and released if that payment is not settled.

// PaymentIdentifierExtension is the extension's key in extensions.
const PaymentIdentifierExtension = "payment-identifier"

// paymentIDPattern is the identifier's format: 16 to 128 characters of
// letters, digits, hyphens and underscores.
var paymentIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

// PaymentIDEntry is a payment identifier's binding, as a PaymentIdentifiers
// index keeps it.
type PaymentIDEntry struct {
	// Payment is the x402.PaymentID identity of the bound payment.
	Payment [32]byte
	// Served reports whether the bound payment's response was served.
	Served bool
	// Result is the settlement response served with it (JSON).
	Result json.RawMessage
}

// PaymentIdentifiers is the index of client payment identifiers that the
// payment-identifier extension rests on. It must be durable and shared by
// every process that serves the route (a fleet's store), so that a retry
// that reaches another replica is answered alike. Entries expire after a
// retention. The x402 Caddy app's store provides it (store.PaymentIDs).
type PaymentIdentifiers interface {
	// Lookup returns the live binding of (scope, id), or nil.
	Lookup(ctx context.Context, scope, id string) (*PaymentIDEntry, error)
	// Bind binds (scope, id) to payment unless it is bound already, and
	// returns the binding that holds afterwards.
	Bind(ctx context.Context, scope, id string, payment [32]byte) (PaymentIDEntry, error)
	// Serve records that payment was served with result.
	Serve(ctx context.Context, scope, id string, payment [32]byte, result json.RawMessage) error
	// Release frees (scope, id) if payment holds it and was not served.
	Release(ctx context.Context, scope, id string, payment [32]byte) error
}

// paymentIdentifierDeclaration is the extension's declaration in a 402:
// upstream's declarePaymentIdentifierExtension(false), byte for byte in
// meaning.
var paymentIdentifierDeclaration = json.RawMessage(`{"info":{"required":false},"schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"required":{"type":"boolean"},"id":{"type":"string","minLength":16,"maxLength":128,"pattern":"^[a-zA-Z0-9_-]+$"}},"required":["required"]}}`)

// withPaymentIdentifier adds the extension's declaration to a 402's
// extensions, keeping the others (a route's Bazaar declaration, say).
func withPaymentIdentifier(extensions json.RawMessage) json.RawMessage {
	ext := map[string]json.RawMessage{}
	if len(extensions) > 0 && !bytes.Equal(extensions, []byte("null")) {
		if err := json.Unmarshal(extensions, &ext); err != nil {
			return extensions
		}
	}
	ext[PaymentIdentifierExtension] = paymentIdentifierDeclaration
	b, err := json.Marshal(ext)
	if err != nil {
		return extensions
	}
	return b
}

// paymentIdentifier reads the identifier a payment carries: "" when it
// carries none, an error when it carries one that is malformed.
func paymentIdentifier(payment *x402.PaymentPayload) (string, error) {
	if len(payment.Extensions) == 0 {
		return "", nil
	}
	var ext map[string]json.RawMessage
	if err := json.Unmarshal(payment.Extensions, &ext); err != nil || ext == nil {
		return "", nil // extensions are open-ended; not this one's to refuse
	}
	raw, ok := ext[PaymentIdentifierExtension]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	var decl struct {
		Info *struct {
			ID json.RawMessage `json:"id"`
		} `json:"info"`
	}
	if err := json.Unmarshal(raw, &decl); err != nil || decl.Info == nil {
		return "", fmt.Errorf("%s: want an object with info", PaymentIdentifierExtension)
	}
	if decl.Info.ID == nil || bytes.Equal(decl.Info.ID, []byte("null")) {
		return "", nil
	}
	var id string
	if err := json.Unmarshal(decl.Info.ID, &id); err != nil || !paymentIDPattern.MatchString(id) {
		return "", fmt.Errorf("%s: info.id must be 16 to 128 letters, digits, hyphens or underscores", PaymentIdentifierExtension)
	}
	return id, nil
}

// claimedPayer is the payer a payment names (the exact authorization's
// from, the aa-native operation's sender) as lowercase hex, or "".
// Unverified: it only scopes a lookup; a binding is made under the payer
// the facilitator verified.
func claimedPayer(payment *x402.PaymentPayload) string {
	var addr string
	switch payment.Accepted.Scheme {
	case x402.SchemeExact:
		if ex, err := x402.ParseExactPayload(payment.Payload); err == nil {
			addr = ex.Authorization.From
		}
	case x402.SchemeAANative:
		var aa x402.AANativePayload
		if json.Unmarshal(payment.Payload, &aa) == nil {
			addr = aa.UserOp.Sender
		}
	}
	a, err := x402.ParseAddress(addr)
	if err != nil {
		return ""
	}
	return "0x" + hex.EncodeToString(a[:])
}

// paymentIDUse is one request's use of an identifier.
type paymentIDUse struct {
	scope, id string
	payment   [32]byte
	bound     bool
}

// checkPaymentIdentifier checks the identifier of a payment that carries
// one (classify read it) before the payment is verified. It refuses the payment when the
// identifier is bound to another payment (409), when its payment was
// served already (the original result), or when the index cannot be read
// (503). Otherwise it returns the use to bind once verified (nil if there
// is nothing to bind).
func (p *Paywall) checkPaymentIdentifier(q *request, key [32]byte, keyOK bool) (*paymentIDUse, *refusal) {
	scope := claimedPayer(q.payment)
	if scope == "" || !keyOK {
		return nil, nil // the facilitator refuses a payment without a payer or identity
	}
	e, err := p.cfg.PaymentIDs.Lookup(q.r.Context(), scope, q.id)
	if err != nil {
		return nil, unavailableNow("the payment identifier could not be checked right now; retry")
	}
	if a := paymentIDAnswer(e, key, q.id); a != nil {
		return nil, a
	}
	return &paymentIDUse{scope: scope, id: q.id, payment: key}, nil
}

// paymentIDAnswer is the answer to a payment under an identifier bound
// as e: 409 when e binds another payment, the original result when e's
// payment was served; nil otherwise.
func paymentIDAnswer(e *PaymentIDEntry, payment [32]byte, id string) *refusal {
	switch {
	case e == nil:
		return nil
	case e.Payment != payment:
		return &refusal{form: formConflict, status: http.StatusConflict, id: id}
	case e.Served:
		return &refusal{form: formReplay, status: http.StatusConflict, id: id, result: e.Result}
	}
	return nil
}

// bindPaymentIdentifier binds the identifier once the payment is
// verified, under the payer the facilitator verified. It refuses the
// payment when another payment took the identifier meanwhile (409), or
// its payment was served meanwhile, or the index cannot be written (503).
func (p *Paywall) bindPaymentIdentifier(ctx context.Context, u *paymentIDUse, payer string) *refusal {
	if u == nil {
		return nil
	}
	if a, err := x402.ParseAddress(payer); err != nil || "0x"+hex.EncodeToString(a[:]) != u.scope {
		return nil // not the payer it names: no binding in its name
	}
	e, err := p.cfg.PaymentIDs.Bind(ctx, u.scope, u.id, u.payment)
	if err != nil {
		return unavailableNow("the payment identifier could not be recorded right now; retry")
	}
	if a := paymentIDAnswer(&e, u.payment, u.id); a != nil {
		return a
	}
	u.bound = true
	return nil
}

// finishPaymentIdentifier records the result of a bound identifier's
// payment once its response was served, or frees the identifier when the
// payment was not settled.
func (p *Paywall) finishPaymentIdentifier(ctx context.Context, u *paymentIDUse, g *gate) {
	if u == nil || !u.bound {
		return
	}
	switch {
	case g.paid && g.res != nil:
		if b, err := json.Marshal(g.res); err == nil {
			p.cfg.PaymentIDs.Serve(ctx, u.scope, u.id, u.payment, b)
		}
	case g.res != nil && unknownOutcome(g.res.ErrorCode):
		// The payment may yet settle: its retry keeps the identifier.
	default:
		// Not settled (the handler failed, or the settlement did):
		// nothing was paid, so the identifier is free again.
		p.cfg.PaymentIDs.Release(ctx, u.scope, u.id, u.payment)
	}
}

// unknownOutcome reports whether a failed settlement's outcome is not known
// yet, so that the client retries the same payment (see settleRefusal).
func unknownOutcome(code x402.ErrorCode) bool {
	switch code {
	case x402.ErrorInFlight, x402.ErrorBundlerUnreachable, x402.ErrorReceiptTimeout, x402.ErrorInternal:
		return true
	}
	return false
}

// PaymentIDConflict is the error code of the 409 for an identifier bound
// to another payment.
const PaymentIDConflict = "payment_identifier_conflict"

func paymentIDConflict(w http.ResponseWriter, id string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusConflict)
	body, _ := json.Marshal(map[string]string{
		"error":             PaymentIDConflict,
		"message":           "this payment identifier was used by another payment of this payer; use a new identifier for a new payment",
		"paymentIdentifier": id,
	})
	w.Write(append(body, '\n'))
}

// PaymentIDReplayed is the error code of the 409 that answers a served
// payment presented again under its identifier.
const PaymentIDReplayed = "payment_already_served"

// paymentIDReplay answers a served payment presented again with its
// identifier: the original settlement result, and no content. It is a 409,
// not a 2xx: a client that reads a 2xx as the resource (a plain fetch, an
// agent) must not take this envelope for the content it paid for, and a
// 402 would ask it to pay again. The original PAYMENT-RESPONSE (success,
// same transaction) says the payment was made; the body says why there is
// no content.
func paymentIDReplay(w http.ResponseWriter, id string, result json.RawMessage) {
	var res x402.SettleResponse
	if json.Unmarshal(result, &res) == nil {
		setPaymentResponse(w, nil, &res) // only v2 payments carry an identifier
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusConflict)
	body, _ := json.Marshal(struct {
		Error             string          `json:"error"`
		Message           string          `json:"message"`
		PaymentIdentifier string          `json:"paymentIdentifier"`
		Replayed          bool            `json:"replayed"`
		Settlement        json.RawMessage `json:"settlement"`
	}{PaymentIDReplayed, "this payment was settled and its response served already: this is its original settlement result, not the content; one payment pays for one response, so pay again for another", id, true, result})
	w.Write(append(body, '\n'))
}

package paywall

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The walk of a request. ServeNext first decides what a request is
// (classify), once, from the request alone: a CORS preflight, an unpaid
// request, a refused one (no price, or a payment that cannot pay: two
// payment headers, one that does not decode, a v1 payment no offer takes,
// a payment that matches no offer), the use of an access window (a proof
// this route takes, and no payment), or a payment: v1 payments converted
// to the v2 payment they are, and their identifier read. Then admit
// decides, by kind, whether it is served: a payment after the checks of
// admitPayment (paid.go), a window's use once its proof is checked and a
// request of the window spent (window.go). A step that refuses returns a
// refusal, which ServeNext answers in one place (answer, challenge.go);
// the rest is served: a payment behind the settlement gate or the meter,
// a window's use as it is. Only a settlement that fails once the handler
// answered is refused later, by the gate or the meter, through the same
// answer.

// kind is what a request to the paywall is, as classify decides it.
type kind uint8

const (
	// kindUnpaid carries no payment, and no proof this route takes: it
	// gets the challenge.
	kindUnpaid kind = iota
	// kindRefused is refused before anything is verified: its price is
	// not known, or its payment cannot pay any offer.
	kindRefused
	// kindPreflight is a CORS preflight.
	kindPreflight
	// kindWindow carries no payment and a proof of an access window that
	// this route takes (Config.Access).
	kindWindow
	// kindPayment carries a payment that pays one of the offers of this
	// request, in x402 v2 or v1.
	kindPayment
)

// request is one request as classify decided it.
type request struct {
	kind kind
	// r is the request as it goes on: priced (its offers in its context),
	// without the access proofs on a route with Access, and marked (isV1)
	// when it paid with X-PAYMENT.
	r *http.Request
	// refusal answers a request of kindUnpaid or kindRefused.
	refusal *refusal

	// proof is a window's proof, ProofSignIn or ProofCookie, and
	// credential its value: the SIGN-IN-WITH-X header or the cookie's.
	proof, credential string

	// payment is a payment in v2's form, and offer the offer of this
	// request that it pays.
	payment *x402.PaymentPayload
	offer   *x402.PaymentRequirements
	// id is the payment's identifier when Config.PaymentIDs honours them
	// ("" for none), and idErr why it is malformed.
	id    string
	idErr error
}

// admission is what admit decided of a request: its refusal, or what it
// is served with and holds until it is done.
type admission struct {
	// ctx is the verification's and the settlement's: it outlives the
	// request (the settlement finishes if the client goes away) within
	// Config.Timeout, and names the request's settle (its idempotency key).
	ctx context.Context
	req *x402.VerifyRequest
	// payer is who the facilitator verified paid, or whose window serves
	// the request.
	payer string
	// pid is the payment's identifier, to record its result once served.
	pid *paymentIDUse
	// cutAt is when an upto response is cut, before its payment's Permit2
	// deadline; zero for none.
	cutAt time.Time
	// refusal answers a request that is not served.
	refusal *refusal
	// channel is a batch-settlement payment's hold of its channel; nil
	// for other payments.
	channel ChannelUse
	// held is what the request holds (the payment in use here and in the
	// fleet, the context), released in reverse order by release.
	held []func()
}

// release lets go of what the admission holds.
func (a *admission) release() {
	for i := len(a.held) - 1; i >= 0; i-- {
		a.held[i]()
	}
}

// ServeNext is Serve for a next handler that can fail, as Caddy's can. If
// next returns an error without having written a status, nothing is settled
// and the error is returned for the caller to answer (a handler that writes
// nothing and succeeds is an empty 200, which is settled).
func (p *Paywall) ServeNext(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request) error) error {
	exposeHeaders(w.Header())
	q := p.classify(r)
	switch q.kind {
	case kindPreflight:
		// It carries no payment: the paywall answers it, and it never
		// reaches next, which might serve the paid content to it.
		preflight(w, q.r)
		return nil
	case kindUnpaid:
		p.answer(w, q.r, q.refusal) // nothing to admit or hold
		return nil
	}
	a := p.admit(q)
	defer a.release()
	if a.refusal != nil {
		p.answer(w, q.r, a.refusal)
		return nil
	}
	if q.kind == kindWindow {
		return p.serveWindow(w, q, a.payer, next)
	}
	return p.servePaid(w, q.r, a, next)
}

// admit decides whether q is served: a payment once admitted
// (admitPayment), a window's use once its proof is checked and a request
// of the window spent (windowPayer); an unpaid or refused request never.
func (p *Paywall) admit(q *request) *admission {
	switch q.kind {
	case kindPayment:
		return p.admitPayment(q)
	case kindWindow:
		payer, a := p.windowPayer(q)
		return &admission{payer: payer, refusal: a}
	}
	return &admission{refusal: q.refusal}
}

// classify decides what r is. It reads only the request (and runs the
// Pricer): nothing is verified, spent or stored.
func (p *Paywall) classify(r *http.Request) *request {
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		return &request{kind: kindPreflight, r: r}
	}
	// The price of this request, fixed before the challenge or the match.
	r, a := p.price(r)
	if a != nil {
		return &request{kind: kindRefused, r: r, refusal: a}
	}
	if p.cfg.Access != nil {
		var q *request
		if r, q = p.accessProof(r); q != nil {
			return q
		}
	}
	return p.classifyPayment(r)
}

// classifyPayment classifies r by its payment: none, one that is refused,
// or one that pays an offer.
func (p *Paywall) classifyPayment(r *http.Request) *request {
	v2, v1 := r.Header.Get(x402.HeaderPaymentSignature), r.Header.Get(x402.HeaderXPayment)
	refused := func(a *refusal) *request { return &request{kind: kindRefused, r: r, refusal: a} }
	var payment *x402.PaymentPayload
	switch {
	case v2 == "" && v1 == "":
		return &request{kind: kindUnpaid, r: r, refusal: unpaidRefusal}
	case v2 != "" && v1 != "":
		return refused(challenged(http.StatusBadRequest, fmt.Sprintf("%s: send one payment, in %s (x402 v2) or in %s (x402 v1), not both", x402.ReasonMalformedRequest, x402.HeaderPaymentSignature, x402.HeaderXPayment)))
	case v1 != "":
		r = r.WithContext(context.WithValue(r.Context(), v1Payment{}, true))
		var a *refusal
		if payment, a = p.paymentV1(r, v1); a != nil {
			return refused(a)
		}
	default:
		var err error
		if payment, err = x402.DecodePaymentPayload(v2); err != nil {
			return refused(undecodable(x402.HeaderPaymentSignature, err))
		}
	}
	offer, xerr := p.match(r, &payment.Accepted)
	if xerr != nil {
		return refused(challenged(http.StatusPaymentRequired, xerr.Error()))
	}
	q := &request{kind: kindPayment, r: r, payment: payment, offer: offer}
	if p.cfg.PaymentIDs != nil {
		q.id, q.idErr = paymentIdentifier(payment)
	}
	return q
}

// unpaidRefusal answers every unpaid request: the challenge, with no
// error. It is shared, so never modified.
var unpaidRefusal = challenged(http.StatusPaymentRequired, "")

// exposeValue is Access-Control-Expose-Headers' value on every answer of
// the paywall: its headers, readable by a browser's cross-origin script.
const exposeValue = x402.HeaderPaymentRequired + ", " + x402.HeaderPaymentResponse + ", " + x402.HeaderXPaymentResponse

// exposeHeaders adds Access-Control-Expose-Headers to h. The value's slice
// is the response's own: a handler after the paywall may rewrite a
// header's values in place (Caddy's header replacements do), so no slice
// is shared between responses.
func exposeHeaders(h http.Header) {
	h["Access-Control-Expose-Headers"] = append(h["Access-Control-Expose-Headers"], exposeValue)
}

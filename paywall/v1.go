package paywall

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// x402 v1 clients (upstream's x402-fetch 1.x and x402-axios 0.x) pay the
// same routes as v2 clients. They read the 402's JSON body, which carries
// the v1 form of every offer they can pay (exact, on a network v1 names)
// beside the v2 challenge in PAYMENT-REQUIRED; they pay in X-PAYMENT and
// read X-PAYMENT-RESPONSE. A v1 payment names no offer: the paywall finds
// the one it pays (scheme, network, payTo and value of its authorization),
// and from there it is the v2 payment it converts to, held to the same
// offer, the same guard, the same facilitator checks and the same replay
// key; the same authorization sent once as v1 and once as v2 buys one
// response.

// v1Payment marks a request that paid with X-PAYMENT.
type v1Payment struct{}

// isV1 reports whether r paid with X-PAYMENT; false for a nil r.
func isV1(r *http.Request) bool {
	if r == nil {
		return false
	}
	v, _ := r.Context().Value(v1Payment{}).(bool)
	return v
}

// paymentV1 decodes the X-PAYMENT header of r and returns the v2 payment
// it is, having accepted the offer of r it pays, or its refusal: 400 or
// 431 when it does not decode, 402 (400 for a malformed payload) when no
// offer takes it.
func (p *Paywall) paymentV1(r *http.Request, header string) (*x402.PaymentPayload, *refusal) {
	payment, err := x402.DecodePaymentPayloadV1(header)
	if err != nil {
		return nil, undecodable(x402.HeaderXPayment, err)
	}
	converted, xerr := p.acceptV1(r, payment)
	if xerr != nil {
		status := http.StatusPaymentRequired
		if xerr.Reason == x402.ReasonMalformedRequest {
			status = http.StatusBadRequest
		}
		return nil, challenged(status, xerr.Error())
	}
	return converted, nil
}

// acceptV1 finds the offer of r that a v1 payment pays and returns the
// payment as v2's, having accepted that offer. An offer is the one paid
// when its scheme and network are the payment's and its payTo and amount
// are the authorization's to and value; the field that matches no offer
// names the refusal. Where several assets share all four, the first offer
// is taken, the only one of them the v1 challenge lists (challengeBody):
// the authorization's signature covers its token, so a payment for
// another one fails verification rather than paying the wrong price.
func (p *Paywall) acceptV1(r *http.Request, v1 *x402.PaymentPayloadV1) (*x402.PaymentPayload, *x402.Error) {
	accepts := p.pricedOf(r).accepts
	if !slices.ContainsFunc(accepts, payableV1) {
		return nil, x402.Invalid(x402.ReasonNetworkMismatch, "%s", v2Only(accepts))
	}
	network, ok := x402.NetworkFromV1(v1.Network)
	if !ok {
		return nil, x402.Invalid(x402.ReasonNetworkMismatch, "network %q is not an x402 v1 EVM network; this route takes %s", v1.Network, strings.Join(v1Names(accepts), ", "))
	}
	if v1.Scheme != x402.SchemeExact {
		return nil, x402.Invalid(x402.ReasonSchemeMismatch, "scheme %q: x402 v1 payments here are exact (EIP-3009) only", v1.Scheme)
	}
	ex, err := x402.ParseExactPayload(v1.Payload)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "the exact payload does not decode: %v", err)
	}
	auth := ex.Authorization
	offer, xerr := narrow(accepts, "the x402 v1 payment's", []offerCheck{
		{x402.ReasonSchemeMismatch, "scheme", func(o *x402.PaymentRequirements) bool { return o.Scheme == v1.Scheme }},
		{x402.ReasonNetworkMismatch, "network", func(o *x402.PaymentRequirements) bool { return o.Network == network }},
		{x402.ReasonInvalidInnerPayload, "authorization.to (payTo)", func(o *x402.PaymentRequirements) bool { return strings.EqualFold(o.PayTo, auth.To) }},
		{x402.ReasonAmountMismatch, "authorization.value (amount)", func(o *x402.PaymentRequirements) bool { return sameAmount(o.Amount, auth.Value) }},
	})
	if xerr != nil {
		return nil, xerr
	}
	payment, err := v1.V2(*offer)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonNetworkMismatch, "%v", err)
	}
	return payment, nil
}

// payableV1 reports whether a v1 client can pay the offer o.
func payableV1(o x402.PaymentRequirements) bool {
	_, ok := o.V1(nil)
	return ok
}

// v1Names lists the v1 names of the networks of the offers v1 clients can
// pay, once each.
func v1Names(accepts []x402.PaymentRequirements) []string {
	var names []string
	for _, o := range accepts {
		if name, ok := x402.NetworkV1Name(o.Network); ok && o.Scheme == x402.SchemeExact && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// v2Only is the 402 body's error for v1 clients on a route none of whose
// offers they can pay: the server speaks x402 v2 there, and the networks.
func v2Only(accepts []x402.PaymentRequirements) string {
	var networks []string
	for _, o := range accepts {
		if !slices.Contains(networks, o.Network) {
			networks = append(networks, o.Network)
		}
	}
	return fmt.Sprintf("this route speaks x402 v2 only: its offers (on %s) have no x402 v1 network name, so an x402 v1 client (X-PAYMENT) cannot pay them; "+
		"pay with an x402 v2 client, which reads the %s header and pays in %s", strings.Join(networks, ", "), x402.HeaderPaymentRequired, x402.HeaderPaymentSignature)
}

// challengeBody is the JSON body of a 402: the v1 challenge when v1
// clients can pay one of its offers (v2 clients read PAYMENT-REQUIRED),
// otherwise the v2 challenge, whose error then tells a v1 client that the
// route speaks v2 only unless it says why a payment was refused.
func challengeBody(r *http.Request, pr *x402.PaymentRequired) any {
	var accepts []x402.PaymentRequirementsV1
	for i := range pr.Accepts {
		o, ok := pr.Accepts[i].V1(pr.Resource)
		// A v1 payment names no token: among offers that share network,
		// payee and amount, it pays the first (see acceptV1), so only the
		// first is offered to v1 clients.
		if ok && !slices.ContainsFunc(accepts, func(a x402.PaymentRequirementsV1) bool {
			return a.Network == o.Network && strings.EqualFold(a.PayTo, o.PayTo) && sameAmount(a.MaxAmountRequired, o.MaxAmountRequired)
		}) {
			accepts = append(accepts, o)
		}
	}
	if len(accepts) > 0 {
		return &x402.PaymentRequiredV1{X402Version: x402.VersionV1, Error: pr.Error, Accepts: accepts}
	}
	v2 := v2Only(pr.Accepts)
	if pr.Error == "" || (isV1(r) && !strings.HasSuffix(pr.Error, v2)) {
		body := *pr
		body.Error = v2
		if pr.Error != "" {
			body.Error = pr.Error + "; " + v2
		}
		return &body
	}
	return pr
}

// setPaymentResponse adds the settle answer to w: in PAYMENT-RESPONSE, and
// for a v1 payment also in X-PAYMENT-RESPONSE, as v1 clients read it.
func setPaymentResponse(w http.ResponseWriter, r *http.Request, res *x402.SettleResponse) {
	if value, err := x402.EncodeHeader(res); err == nil {
		w.Header().Set(x402.HeaderPaymentResponse, value)
	}
	if isV1(r) {
		if value, err := x402.EncodeHeader(res.V1()); err == nil {
			w.Header().Set(x402.HeaderXPaymentResponse, value)
		}
	}
}

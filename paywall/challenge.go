package paywall

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// resource describes the requested resource. Its URL comes from the
// configured origin or the request's own Host and connection, never from
// client X-Forwarded-* headers.
func (p *Paywall) resource(r *http.Request) *x402.Resource {
	return &x402.Resource{
		URL:         p.resourceURL(r),
		Description: p.pricedOf(r).description,
		MimeType:    p.cfg.MimeType,
	}
}

// resourceURL is the URL of the requested resource (see resource).
func (p *Paywall) resourceURL(r *http.Request) string {
	if p.cfg.Resource != "" {
		return p.cfg.Resource
	}
	origin := p.cfg.Origin
	if origin == "" {
		scheme := "http://"
		if r.TLS != nil {
			scheme = "https://"
		}
		if host := r.Host; host != "" && host[len(host)-1] != '/' {
			return scheme + host + r.URL.RequestURI() // in one allocation
		}
		origin = scheme + r.Host
	}
	return strings.TrimRight(origin, "/") + r.URL.RequestURI()
}

// Challenge returns the 402 challenge for r, with error set to msg.
func (p *Paywall) Challenge(r *http.Request, msg string) *x402.PaymentRequired {
	pr := &x402.PaymentRequired{
		X402Version: x402.Version,
		Error:       msg,
		Resource:    p.resource(r),
		Accepts:     p.pricedOf(r).accepts,
		Extensions:  p.extensionsFor(r),
	}
	return pr
}

// answer writes a refusal to r: the one place where the paywall answers a
// request it does not serve.
func (p *Paywall) answer(w http.ResponseWriter, r *http.Request, a *refusal) {
	if a.settle != nil {
		setPaymentResponse(w, r, a.settle)
	}
	if a.retryAfter > 0 {
		w.Header().Set("Retry-After", retryAfterValue(a.retryAfter))
	}
	switch {
	case a.corrective != nil:
		p.correctiveChallenge(w, r, a)
		return
	}
	switch a.form {
	case formUnavailable:
		unavailable(w, a.msg)
	case formError:
		answerJSON(w, a.status, a.msg)
	case formConflict:
		paymentIDConflict(w, a.id)
	case formReplay:
		paymentIDReplay(w, a.id, a.result)
	default:
		p.challenge(w, r, a.status, a.msg)
	}
}

// challenge writes a challenge with the given status: 402 normally, 400 or
// 431 for a payment header that does not decode. A browser gets an HTML
// page; everything else gets the JSON. Both carry PAYMENT-REQUIRED.
func (p *Paywall) challenge(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if p.challengeBytes != nil && !wantsHTML(r) {
		p.challengeBytes.write(p, w, r, status, msg)
		return
	}
	pr := p.Challenge(r, msg)
	h := w.Header()
	if value, err := x402.EncodeHeader(pr); err == nil {
		h.Set(x402.HeaderPaymentRequired, value)
	}
	h.Set("Cache-Control", "no-store")
	if wantsHTML(r) {
		p.writePage(w, r, status, pr) // page.go
		return
	}
	body, _ := json.Marshal(challengeBody(r, pr))
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// wantsHTML reports whether r is a browser navigation: it prefers text/html.
func wantsHTML(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "text/html") && r.Header.Get(x402.HeaderPaymentSignature) == "" && r.Header.Get(x402.HeaderXPayment) == ""
}

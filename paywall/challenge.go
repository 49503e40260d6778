package paywall

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// resource describes the requested resource. Its URL comes from the
// configured origin or the request's own Host and connection, never from
// client X-Forwarded-* headers.
func (p *Paywall) resource(r *http.Request) *x402.Resource {
	origin := p.cfg.Origin
	if origin == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	url := strings.TrimRight(origin, "/") + r.URL.RequestURI()
	if p.cfg.Resource != "" {
		url = p.cfg.Resource
	}
	return &x402.Resource{
		URL:         url,
		Description: p.pricedOf(r).description,
		MimeType:    p.cfg.MimeType,
	}
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

// refusal is an answer the paywall gives instead of serving a request.
// The steps of a request's walk (walk.go) decide it and return it; answer
// writes it, so that a 402 is built in one place.
type refusal struct {
	form form
	// status is a challenge's (402, or 400 and 431 for a payment that does
	// not decode) or an error's.
	status int
	// msg is the challenge's error, or the error of the JSON body.
	msg string
	// settle is a failed settlement's answer, sent in PAYMENT-RESPONSE.
	settle *x402.SettleResponse
	// id and result are the payment identifier of a conflict or a replay,
	// and the replayed payment's original settlement.
	id     string
	result json.RawMessage
}

// form is how a refusal is written.
type form uint8

const (
	// formChallenge is the challenge: PAYMENT-REQUIRED, with the JSON
	// body or, for a browser's navigation, the paywall page.
	formChallenge form = iota
	// formUnavailable is 503 with Retry-After: the outcome is not known
	// yet, so the client retries (the same payment) rather than paying
	// again.
	formUnavailable
	// formError is JSON {"error": msg} with the status.
	formError
	// formConflict is the 409 of a payment identifier bound to another
	// payment.
	formConflict
	// formReplay is the 409 of a served payment presented again under
	// its identifier: its original settlement, and no content.
	formReplay
)

// challenged is the challenge with status and msg as its error.
func challenged(status int, msg string) *refusal {
	return &refusal{form: formChallenge, status: status, msg: msg}
}

// unavailableNow is a 503 saying why (see formUnavailable).
func unavailableNow(msg string) *refusal {
	return &refusal{form: formUnavailable, status: http.StatusServiceUnavailable, msg: msg}
}

// undecodable refuses a payment header that does not decode: 431 when it
// is over the size limit, otherwise 400, with the challenge.
func undecodable(header string, err error) *refusal {
	var tooLarge *x402.HeaderTooLargeError
	if errors.As(err, &tooLarge) {
		return challenged(http.StatusRequestHeaderFieldsTooLarge, fmt.Sprintf("%s: %s is %d bytes, over the %d-byte limit", x402.ReasonMalformedRequest, header, tooLarge.Size, x402.MaxHeaderSize))
	}
	return challenged(http.StatusBadRequest, fmt.Sprintf("%s: %s does not decode: %v", x402.ReasonMalformedRequest, header, err))
}

// aborted is the answer to a request that a Before hook refused with err
// (see Abort): a 402 Abort is the challenge, another status from 400 to
// 599 its JSON error, and anything else 403 "refused", so that a hook's
// internal error text never reaches the client.
func aborted(err error) *refusal {
	status, msg := http.StatusForbidden, "refused"
	if a, ok := errors.AsType[*Abort](err); ok && a.Status >= 400 && a.Status <= 599 {
		status, msg = a.Status, a.Message
	}
	if status == http.StatusPaymentRequired {
		return challenged(status, msg)
	}
	return &refusal{form: formError, status: status, msg: msg}
}

// settleRefusal answers a failed settlement: 503 when its outcome is not
// known yet (in_flight, bundler_unreachable, receipt_timeout, internal),
// so the client retries rather than paying again; otherwise 402 with the
// failure in PAYMENT-RESPONSE. A BeforeSettle hook's refusal (stop) is
// answered as Abort says.
func settleRefusal(res *x402.SettleResponse, stop error) *refusal {
	if stop != nil {
		return aborted(stop)
	}
	if unknownOutcome(res.ErrorCode) {
		a := unavailableNow("the payment could not be settled yet (" + string(res.ErrorCode) + "); retry with the same payment")
		a.settle = res
		return a
	}
	msg := string(res.ErrorCode)
	if res.Message != "" {
		msg = res.Message
	}
	a := challenged(http.StatusPaymentRequired, msg)
	a.settle = res
	return a
}

// answer writes a refusal to r: the one place where the paywall answers a
// request it does not serve.
func (p *Paywall) answer(w http.ResponseWriter, r *http.Request, a *refusal) {
	if a.settle != nil {
		setPaymentResponse(w, r, a.settle)
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

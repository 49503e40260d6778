package paywall

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/caddy-x402/caddy-x402/x402"
)

// refusal is an answer the paywall gives instead of serving a request.
// The steps of a request's walk (walk.go) decide it and return it, as a
// value; answer (challenge.go) writes it, so that a 402 is built in one
// place.
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
	// corrective is the batch-settlement offer of a corrective 402, with
	// the channel's state in its extra (see channel.go); nil otherwise.
	corrective *x402.PaymentRequirements
	// retryAfter, when positive, is the challenge's Retry-After, seconds.
	retryAfter int
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

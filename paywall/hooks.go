package paywall

import (
	"encoding/json"
	"math/big"
	"net/http"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Hooks are called as a paid request goes through the paywall; any may be
// nil. They let a Go user (and the Caddy module, whose metrics, settlement
// log and {http.x402.*} placeholders are built on them) observe payments,
// and let the Before hooks refuse one.
//
// The order for one paid request is BeforeVerify, AfterVerify, then, once
// the protected handler answers with success (or before it runs, with
// SettleBefore), BeforeSettle and either AfterSettle or OnSettleFailure. A
// request without a payment, or whose payment does not decode or matches
// none of the offers, calls no hook.
//
// Hooks run on the request's goroutine, synchronously: a slow hook delays
// the answer. They must treat the Event and what it points to as read-only.
type Hooks struct {
	// BeforeVerify is called before the facilitator verifies the payment.
	// A non-nil error refuses the request before anything is verified or
	// settled: see Abort for the answer.
	BeforeVerify func(r *http.Request, e *Event) error
	// AfterVerify is called after verification, whatever its outcome, with
	// Verify (nil when the facilitator did not answer), VerifyErr and Took
	// set. A valid payment goes on to the protected handler.
	AfterVerify func(r *http.Request, e *Event)
	// BeforeSettle is called before the facilitator settles a verified
	// payment. A non-nil error refuses the request and nothing is settled;
	// the protected handler's answer, if it already ran, is dropped, so
	// nothing is served unpaid. See Abort for the answer.
	BeforeSettle func(r *http.Request, e *Event) error
	// AfterSettle is called after a successful settlement, with Settle and
	// Took set, before the paid answer is written.
	AfterSettle func(r *http.Request, e *Event)
	// OnSettleFailure is called after a settlement that failed or whose
	// outcome is not known yet (Settle.ErrorCode says which), with Settle
	// and Took set, before the refusal is written.
	OnSettleFailure func(r *http.Request, e *Event)
	// AfterBroadcast is called, on a route serving on broadcast (see
	// Broadcast), for a payment served on broadcast once its settlement is
	// final, with Settle set to the outcome and Broadcast set. An outcome
	// that is not Success was served unpaid: the settlement failed, or was
	// still not known when the paywall gave up on it. It runs in the
	// background, after the request was answered: r is read-only, and its
	// context may be done.
	AfterBroadcast func(r *http.Request, e *Event)
}

// Event is what the hooks see of one paid request.
type Event struct {
	// Offer is the offer the payment accepted, with the amount priced for
	// this request.
	Offer *x402.PaymentRequirements
	// Payment is the decoded PAYMENT-SIGNATURE, or an X-PAYMENT (x402 v1)
	// as the v2 payment it converts to, with the offer it paid as
	// accepted.
	Payment *x402.PaymentPayload
	// Verify is the facilitator's verification, once it answered.
	Verify *x402.VerifyResponse
	// VerifyErr is why verification could not run (the payment's fate is
	// not known: the client gets 503 and retries).
	VerifyErr error
	// Settle is the settlement's outcome, in AfterSettle and
	// OnSettleFailure.
	Settle *x402.SettleResponse
	// Took is how long the verification (in AfterVerify) or settlement (in
	// AfterSettle and OnSettleFailure) took.
	Took time.Duration
	// Broadcast marks a payment served on broadcast: in AfterSettle,
	// Settle is then the provisional answer (the transaction is accepted,
	// not mined), and AfterBroadcast follows with the outcome.
	Broadcast bool
	// Overage is, for an upto response metered by an upstream's usage
	// header, the units it reported above what the payer's maximum buys:
	// served, and not charged (the merchant bears them). Nil otherwise.
	Overage *big.Int
}

// Abort is an error a Before hook returns to refuse a request with its own
// status and message. Status 402 answers with the route's challenge (error
// set to Message); any other status in 400-599 answers a JSON
// {"error": Message}. A hook error that is not an Abort, or an Abort with a
// status outside 400-599, answers 403 {"error":"refused"}, so a hook's
// internal error text never reaches the client.
type Abort struct {
	Status  int
	Message string
}

// Error returns the message.
func (a *Abort) Error() string { return a.Message }

// answerJSON writes {"error": msg} with status.
func answerJSON(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

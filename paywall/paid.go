package paywall

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"time"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The walk of a payment (kindPayment): admitPayment checks it, step by
// step, until one step refuses it or it is verified and held; then
// servePaid serves it behind the settlement gate (gate.go), or the meter
// of an upto offer (upto.go). A batch-settlement payment leaves this walk
// after step 1 for its channel's (channel.go).

// admitPayment takes a payment through the checks that come before
// serving it, in order, stopping at the first that refuses it:
//
//  1. it is not in use by another request of this process;
//  2. its identifier, if any, is well formed (classify read it; a
//     payment in use is answered as in use first, as it always was), and
//     not bound to another payment or to a payment already served
//     (payid.go);
//  3. the facilitator verifies it, between the verify hooks;
//  4. it is not in use in the fleet, for the payments that need a lease;
//  5. its identifier is bound to it, under the payer verified;
//  6. an upto payment's deadline leaves time to serve and settle.
func (p *Paywall) admitPayment(q *request) (a *admission) {
	a = new(admission)
	key, keyOK, ok := p.claimHere(q.payment)
	if !ok {
		a.refusal = p.inUse(q)
		return a
	}
	a.held = append(a.held, func() { p.cfg.Guard.release(key) })
	if q.offer.Scheme == x402.SchemeBatchSettlement {
		return p.admitChannel(q, a)
	}
	if q.idErr != nil {
		a.refusal = challenged(http.StatusBadRequest, string(x402.ReasonMalformedRequest)+": "+q.idErr.Error())
		return a
	}
	if q.id != "" {
		if a.pid, a.refusal = p.checkPaymentIdentifier(q, key, keyOK); a.refusal != nil {
			return a
		}
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(q.r.Context()), p.cfg.Timeout)
	a.held = append(a.held, cancel)
	a.ctx = x402.WithIdempotencyKey(ctx, newIdempotencyKey())
	// The resource this paywall describes in its 402 for this request goes
	// with the payment, for the facilitator's record of the sale: the
	// payer's own paymentPayload.resource is whatever the payer wrote.
	a.req = &x402.VerifyRequest{X402Version: x402.Version, PaymentPayload: *q.payment, PaymentRequirements: *q.offer, Resource: p.resource(q.r)}
	vres, refused := p.verify(a.ctx, q.r, a.req)
	if refused != nil {
		a.refusal = refused
		return a
	}
	a.payer = vres.Payer
	release, refused := p.claimShared(q, a.req, key)
	if refused != nil {
		a.refusal = refused
		return a
	}
	a.held = append(a.held, release)
	if a.pid != nil {
		if a.refusal = p.bindPaymentIdentifier(a.ctx, a.pid, a.payer); a.refusal != nil {
			return a
		}
	}
	// The upstream never sees the payment: it has no use for it, and an
	// unsettled authorization stays spendable until it expires, so it must
	// not reach the upstream's logs.
	q.r.Header.Del(x402.HeaderPaymentSignature)
	q.r.Header.Del(x402.HeaderXPayment)
	a.cutAt, a.refusal = p.uptoDeadline(q.r, a.req)
	return a
}

// claimHere marks payment in use in this process, against its concurrent
// reuse (inUse refuses a payment already marked): one payment pays for
// one response, keyed by the payment's identity so that a re-serialized
// copy is the same payment (the facilitator refuses it afterwards: a
// settled payment's receipt goes only to the settle that owns it, named
// by the request's idempotency key). It reports the key, whether it is
// the payment's identity (keyOK), and whether the payment was claimed.
// The caller releases the key.
func (p *Paywall) claimHere(payment *x402.PaymentPayload) (key [32]byte, keyOK, ok bool) {
	key, err := x402.PaymentID(payment)
	keyOK = err == nil
	if !keyOK {
		key = sha256.Sum256(payment.Payload) // the facilitator refuses it
	}
	return key, keyOK, p.cfg.Guard.claim(key)
}

// inUse refuses a payment another request is using: a retry under its
// identifier gets the result once that request is done; any other reuse
// is a replay.
func (p *Paywall) inUse(q *request) *refusal {
	if q.id != "" {
		return unavailableNow("this payment is being used by another request; retry with the same payment and identifier for its result")
	}
	return challenged(http.StatusPaymentRequired, string(x402.ReasonReplay)+": this payment is being used by another request")
}

// verify asks the facilitator to verify req, between the BeforeVerify and
// AfterVerify hooks. It refuses a payment that a hook refused, that the
// facilitator could not verify (503) or that is invalid (the challenge,
// with the reason).
func (p *Paywall) verify(ctx context.Context, r *http.Request, req *x402.VerifyRequest) (*x402.VerifyResponse, *refusal) {
	offer, payment := &req.PaymentRequirements, &req.PaymentPayload
	ev := &Event{Offer: offer, Payment: payment}
	if h := p.cfg.Hooks.BeforeVerify; h != nil {
		if err := h(r, ev); err != nil {
			return nil, aborted(err)
		}
	}
	vres, err := p.verifyRaw(ctx, r, req, ev)
	if err != nil {
		return nil, unavailableNow("the payment could not be verified right now; retry")
	}
	if !vres.IsValid {
		msg := string(vres.InvalidReason)
		if vres.InvalidMessage != "" {
			msg += ": " + vres.InvalidMessage
		}
		return nil, challenged(http.StatusPaymentRequired, msg)
	}
	return vres, nil
}

// verifyRaw asks the facilitator to verify req, in its span, and runs the
// AfterVerify hook with the answer; ev is the hooks' event, nil for a new
// one (the BeforeVerify hook, which refuses, is the caller's).
func (p *Paywall) verifyRaw(ctx context.Context, r *http.Request, req *x402.VerifyRequest, ev *Event) (*x402.VerifyResponse, error) {
	if ev == nil {
		ev = &Event{Offer: &req.PaymentRequirements, Payment: &req.PaymentPayload}
	}
	began := time.Now()
	vctx, span := startSpan(ctx, spanVerify, &req.PaymentRequirements)
	vres, err := p.cfg.Facilitator.Verify(vctx, req)
	edge.EndVerify(span, vres, err)
	if h := p.cfg.Hooks.AfterVerify; h != nil {
		ev.Verify, ev.VerifyErr, ev.Took = vres, err, time.Since(began)
		h(r, ev)
	}
	return vres, err
}

// claimShared takes the fleet's lease of a verified payment that needs
// one (an upto payment, or every payment with Config.ClaimShared): only
// now, so that nothing durable is written for a payment whose signature
// did not verify. It returns the lease's release, or refuses the payment
// (the store is down: 503; another replica uses the payment).
func (p *Paywall) claimShared(q *request, req *x402.VerifyRequest, key [32]byte) (func(), *refusal) {
	shared := p.cfg.Guard.Shared
	if shared == nil || req.PaymentRequirements.Scheme != x402.SchemeUpto && !p.cfg.ClaimShared {
		return func() {}, nil
	}
	ok, err := shared.Claim(q.r.Context(), key, time.Now().Add(sharedLease))
	if err != nil {
		// The store is down: its implementation logs why.
		return nil, unavailableNow("the payment could not be marked in use; retry")
	}
	if !ok {
		return nil, p.inUse(q)
	}
	return func() { shared.Release(context.WithoutCancel(q.r.Context()), key) }, nil
}

// uptoDeadline is when the response to r, metered for an upto payment, is
// cut: Usage.DeadlineMargin before the payment's Permit2 deadline, which
// its settlement must be mined before. It refuses a payment whose deadline
// is too near to serve anything and settle it. Other payments, and
// upgrades (settled before they start, for the maximum), are not cut.
func (p *Paywall) uptoDeadline(r *http.Request, req *x402.VerifyRequest) (time.Time, *refusal) {
	if req.PaymentRequirements.Scheme != x402.SchemeUpto || isUpgrade(r) {
		return time.Time{}, nil
	}
	deadline, ok := x402.Permit2Deadline(&req.PaymentPayload)
	if !ok {
		return time.Time{}, nil
	}
	margin := p.cfg.Usage.DeadlineMargin
	if margin <= 0 {
		margin = defaultDeadlineMargin
	}
	cutAt := deadline.Add(-margin)
	if !time.Now().Before(cutAt) {
		// Nothing served now could be settled in time.
		return cutAt, challenged(http.StatusPaymentRequired, fmt.Sprintf("%s: the payment's deadline is less than %s away, too near to serve a response and settle it; sign a later one", x402.ReasonInvalidInnerPayload, margin))
	}
	return cutAt, nil
}

// servePaid serves an admitted payment: next's answer, settled before
// anything reaches the client (or metered, for upto).
func (p *Paywall) servePaid(w http.ResponseWriter, r *http.Request, a *admission, next func(http.ResponseWriter, *http.Request) error) error {
	ctx, req := a.ctx, a.req
	if a.channel != nil {
		return p.serveChannel(w, r, a, next)
	}
	if req.PaymentRequirements.Scheme == x402.SchemeUpto && !isUpgrade(r) {
		// An upgraded connection is not metered: like any upgrade, it
		// settles before it starts, for the maximum (below).
		return p.serveMetered(ctx, w, r, req, a.cutAt, next)
	}
	g := &gate{paywall: p, ctx: ctx, w: w, r: r, req: req, broadcast: p.newOnBroadcast(r, a.payer)}
	if a.pid != nil {
		// Runs after g.served (deferred below), so a result is recorded
		// once its response was.
		defer p.finishPaymentIdentifier(ctx, a.pid, g)
	}
	// An upgrade (WebSocket, or HTTP/2's extended CONNECT) hands the
	// connection to next for as long as it likes: settle before it starts,
	// or a payer could move its tokens away mid-session and pay nothing.
	if p.cfg.SettleBefore || isUpgrade(r) {
		// A connection next hijacked cannot be flushed (net/http panics).
		g.upgrade = isUpgrade(r)
		if !g.pay(false) {
			return nil
		}
		defer g.served()
		return next(w, r)
	}
	defer g.served()
	if err := next(g, r); err != nil {
		// Whatever was written was decided (and settled or not) by its
		// status; if nothing was written, nothing was served or settled.
		return err
	}
	if !g.decided {
		// The handler wrote nothing: an empty 200, which is served, so paid.
		g.WriteHeader(http.StatusOK)
	}
	return nil
}

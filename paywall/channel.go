package paywall

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The walk of a batch-settlement payment (payment channels). The payer
// deposits into x402's escrow once and signs a cumulative voucher per
// request; the server keeps each channel's state (what it has charged, the
// last voucher) and claims the vouchers later, many channels in one
// transaction. The paywall takes such a payment through Config.Channels
// (package channels implements it over the store): Begin verifies it and
// holds its channel for the request, so that the requests of a channel
// are served one at a time across a fleet; the response is decided as any
// paid one (a deposit is settled on chain first, a voucher is charged off
// chain, with PAYMENT-RESPONSE saying so); and the charge is committed
// only once the response was served, or the hold let go when it was not.
// A refund is a payment operation: it never reaches the protected
// handler.

// Channels is the server side of batch-settlement channels
// (scheme_batch_settlement_evm.md, "Server: State & Forwarding"), which
// package channels implements.
type Channels interface {
	// Begin verifies a batch-settlement payment of req (through verify,
	// the facilitator's /verify between the paywall's hooks, unless the
	// channel's mirrored state lets a plain voucher verify locally) and
	// holds its channel for this request. A payment that cannot pay is a
	// *ChannelRefusal; any other error means the state or the facilitator
	// could not be reached (503). The paywall commits a served request's
	// charge after its handler returned (commitLater): Begin of a
	// channel waits until this process's earlier request of it was
	// committed or aborted.
	Begin(ctx context.Context, req *x402.VerifyRequest, verify func(context.Context) (*x402.VerifyResponse, error)) (ChannelUse, error)
}

// ChannelUse is one request's hold of its channel, from Begin until Commit
// or Abort.
type ChannelUse interface {
	// Payer is the channel's payer.
	Payer() string
	// ChannelID is the channel's id, 0x and 64 hex digits.
	ChannelID() string
	// Refund reports whether the payment is a cooperative refund, which
	// Settle completes and sends, and no handler serves.
	Refund() bool
	// Settle pays for the response once its status is a success, charged
	// charge (at most the offer's price; a refund's is ignored): a
	// deposit is settled through settle (the facilitator) first, a
	// voucher is charged off chain, a refund is completed (refund nonce,
	// claims, the receiver authorizer's signatures) and settled. The
	// answer is the request's PAYMENT-RESPONSE: a voucher's has no
	// transaction and its charge in extra.chargedAmount, and every one
	// has the channel's state after the request in extra.channelState.
	Settle(ctx context.Context, charge *big.Int, settle func(context.Context, *x402.VerifyRequest) *x402.SettleResponse) *x402.SettleResponse
	// Fund readies the channel to serve before anything of the response
	// is written, on a route whose charge is known only at its end
	// (metered per byte or per second): the hold is kept and a deposit
	// settled (through settle), so that Settle, later, only charges. It
	// returns nil when the request may be served, or the failed answer.
	Fund(ctx context.Context, settle func(context.Context, *x402.VerifyRequest) *x402.SettleResponse) *x402.SettleResponse
	// Commit charges the channel what Settle said, once the response was
	// served (or the refund settled), and lets it go.
	Commit(ctx context.Context) error
	// Abort lets the channel go without a charge: the response was not
	// served, and the payer may pay again with the same voucher.
	Abort(ctx context.Context)
}

// ChannelRefusal is a batch-settlement payment that Channels refused.
type ChannelRefusal struct {
	// Status is the answer's: 402, or 400 for a payload that does not
	// decode.
	Status int
	// Reason is the refusal's code (invalid_batch_settlement_evm_… or a
	// spec reason), and Message says why.
	Reason, Message string
	// State and Voucher make the answer the corrective 402 of a
	// cumulative-amount mismatch: the server's channel state and the last
	// voucher it served (nil before the first), in the batch-settlement
	// offer's extra, so that the client can check the voucher and adopt
	// the server's total. Its error is then the Reason alone, which
	// upstream's clients recover on.
	State   *x402.ChannelState
	Voucher *x402.VoucherState
	// RetryAfter, when positive, is the seconds after which the payment
	// may be retried as it is (the channel was busy).
	RetryAfter int
}

// Error is the reason and the message.
func (e *ChannelRefusal) Error() string {
	if e.Message == "" {
		return e.Reason
	}
	return e.Reason + ": " + e.Message
}

// admitChannel admits a batch-settlement payment: Channels verifies it and
// holds its channel (see channel.go's walk). Payment identifiers do not
// apply: a voucher is bound to its channel's total, which makes a replay a
// mismatch.
func (p *Paywall) admitChannel(q *request, a *admission) *admission {
	if p.cfg.Channels == nil {
		a.refusal = challenged(http.StatusPaymentRequired, string(x402.ReasonSchemeMismatch)+": this server keeps no batch-settlement channels")
		return a
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(q.r.Context()), p.cfg.Timeout)
	a.held = append(a.held, cancel)
	a.ctx = x402.WithIdempotencyKey(ctx, newIdempotencyKey())
	a.req = &x402.VerifyRequest{X402Version: x402.Version, PaymentPayload: *q.payment, PaymentRequirements: *q.offer, Resource: p.resource(q.r)}
	ev := &Event{Offer: &a.req.PaymentRequirements, Payment: &a.req.PaymentPayload}
	if h := p.cfg.Hooks.BeforeVerify; h != nil {
		if err := h(q.r, ev); err != nil {
			a.refusal = aborted(err)
			return a
		}
	}
	verify := func(ctx context.Context) (*x402.VerifyResponse, error) { return p.verifyRaw(ctx, q.r, a.req, ev) }
	bctx := a.ctx
	if p.cfg.Usage != nil {
		bctx = context.WithValue(bctx, meteredKey{}, true)
	}
	use, err := p.cfg.Channels.Begin(bctx, a.req, verify)
	if err != nil {
		a.refusal = channelRefusal(q.offer, err)
		return a
	}
	a.channel, a.payer = use, use.Payer()
	q.r.Header.Del(x402.HeaderPaymentSignature)
	q.r.Header.Del(x402.HeaderXPayment)
	return a
}

// meteredKey marks the context of a Channels.Begin whose request is
// metered (MeteredCharge).
type meteredKey struct{}

// MeteredCharge reports whether ctx, a Channels.Begin's, is of a request
// charged what its response used, at most the price (a route with
// Config.Usage): its charge is known only when it is committed.
func MeteredCharge(ctx context.Context) bool {
	v, _ := ctx.Value(meteredKey{}).(bool)
	return v
}

// channelRefusal is the answer to a payment Channels refused with err.
func channelRefusal(offer *x402.PaymentRequirements, err error) *refusal {
	cr, ok := err.(*ChannelRefusal)
	if !ok {
		return unavailableNow("the payment's channel could not be read right now; retry")
	}
	status := cr.Status
	if status == 0 {
		status = http.StatusPaymentRequired
	}
	msg := cr.Error()
	if cr.State != nil {
		// Upstream's clients recover from exactly the code.
		msg = cr.Reason
	}
	a := challenged(status, msg)
	if cr.State != nil {
		o := *offer
		extra := x402.Extra{}
		if o.Extra != nil {
			extra = *o.Extra
		}
		extra.ChannelState, extra.VoucherState = cr.State, cr.Voucher
		o.Extra = &extra
		a.corrective = &o
	}
	a.retryAfter = cr.RetryAfter
	return a
}

// correctiveChallenge writes the corrective 402 of a: the challenge whose
// batch-settlement offer carries the channel's state.
func (p *Paywall) correctiveChallenge(w http.ResponseWriter, r *http.Request, a *refusal) {
	pr := p.Challenge(r, a.msg)
	accepts := make([]x402.PaymentRequirements, len(pr.Accepts))
	copy(accepts, pr.Accepts)
	for i := range accepts {
		o := &accepts[i]
		if o.Scheme == a.corrective.Scheme && o.Network == a.corrective.Network && o.Asset == a.corrective.Asset && o.PayTo == a.corrective.PayTo {
			*o = *a.corrective
		}
	}
	pr.Accepts = accepts
	h := w.Header()
	if value, err := x402.EncodeHeader(pr); err == nil {
		h.Set(x402.HeaderPaymentRequired, value)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "application/json")
	body, _ := json.Marshal(pr)
	w.WriteHeader(a.status)
	w.Write(append(body, '\n'))
}

// serveChannel serves a batch-settlement payment that Begin admitted: a
// refund is settled and answered here; a deposit or a voucher is served
// behind the gate, which charges it when the handler decides a success,
// and is committed once the response was served.
func (p *Paywall) serveChannel(w http.ResponseWriter, r *http.Request, a *admission, next func(http.ResponseWriter, *http.Request) error) error {
	u, ctx := a.channel, a.ctx
	settle := p.channelSettler(r)
	if u.Refund() {
		res := u.Settle(ctx, nil, settle)
		if !res.Success {
			u.Abort(ctx)
			p.answer(w, r, settleRefusal(res, nil))
			return nil
		}
		if err := u.Commit(ctx); err != nil && p.cfg.Logger != nil {
			p.cfg.Logger.Warn("a settled refund's channel record was not updated; the next payment of the channel resynchronizes it", "channel", u.ChannelID(), "error", err)
		}
		setPaymentResponse(w, r, res)
		answerValue(w, http.StatusOK, map[string]string{"message": "refund settled", "channelId": u.ChannelID(), "amount": res.Amount, "transaction": res.TransactionHash})
		return nil
	}
	if us := p.cfg.Usage; us != nil && us.Per != UsageHeader && !isUpgrade(r) {
		return p.serveChannelMetered(w, r, a, next)
	}
	if us := p.cfg.Usage; us != nil && us.Per == UsageHeader {
		// What the price buys, for the upstream to stay within.
		if budget := us.budget(a.req.PaymentRequirements.Asset, channelPrice(a.req)); budget != nil {
			r.Header.Set(BudgetHeader, budget.String())
		}
	}
	g := &gate{paywall: p, ctx: ctx, w: w, r: r, req: a.req, channel: u, settleWith: settle}
	served := false
	defer func() {
		if !served {
			u.Abort(ctx)
		}
	}()
	if isUpgrade(r) {
		// The connection goes to next for as long as it likes: charged
		// before it starts, as every upgrade is settled.
		g.upgrade = true
		if !g.pay(false) {
			return nil
		}
		err := next(w, r)
		p.voucherSettled(r, g.charged)
		served = p.commitChannel(ctx, u)
		return err
	}
	err := next(g, r)
	if err != nil && !g.decided {
		return err // nothing was written: nothing is charged
	}
	if !g.decided {
		g.WriteHeader(http.StatusOK) // an empty 200 is served, so paid
	}
	if g.paid {
		// Out of the process's buffers before the charge is committed: a
		// process that dies in between leaves a hold that the payer's next
		// voucher, built on this response's charge, commits.
		http.NewResponseController(g.w).Flush()
		fault(faultChannelAfterFlush)
		p.voucherSettled(r, g.charged)
		served = true
		p.commitLater(ctx, u)
	}
	return err
}

// channelSettler is what a channel's payment settles through: the
// facilitator's /settle between the paywall's hooks.
func (p *Paywall) channelSettler(r *http.Request) func(context.Context, *x402.VerifyRequest) *x402.SettleResponse {
	return func(ctx context.Context, req *x402.VerifyRequest) *x402.SettleResponse {
		res, _, stop := p.settle(ctx, r, req, nil)
		if stop != nil {
			return &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network, ErrorCode: x402.ErrorVerifyFailed, Message: stop.Error()}
		}
		return res
	}
}

// settleChannel charges u what the response cost through Settle. A
// voucher, charged off chain, comes with the event the AfterSettle hook is
// to hear of it as of any payment settled, once the response is out
// (voucherSettled); a deposit went through the facilitator's settle, and
// its hooks.
func (p *Paywall) settleChannel(ctx context.Context, req *x402.VerifyRequest, u ChannelUse, charge *big.Int, settle func(context.Context, *x402.VerifyRequest) *x402.SettleResponse) (*x402.SettleResponse, *Event) {
	began := time.Now()
	res := u.Settle(ctx, charge, settle)
	if !res.Success || res.TransactionHash != "" || p.cfg.Hooks.AfterSettle == nil {
		return res, nil
	}
	return res, &Event{Offer: &req.PaymentRequirements, Payment: &req.PaymentPayload, Settle: res, Took: time.Since(began)}
}

// voucherSettled runs the AfterSettle hook of a voucher's charge, ev (see
// settleChannel), after its response was flushed: the hook's log line and
// metrics are not between the upstream's answer and the client.
func (p *Paywall) voucherSettled(r *http.Request, ev *Event) {
	if h := p.cfg.Hooks.AfterSettle; h != nil && ev != nil {
		h(r, ev)
	}
}

// commitLater commits u's charge once the handler returned, so that the
// connection serves its next request meanwhile: Channels orders it before
// the channel's next request in this process, and a process that dies
// first leaves the hold the payer's next voucher builds on (see Begin).
func (p *Paywall) commitLater(ctx context.Context, u ChannelUse) {
	go p.commitChannel(context.WithoutCancel(ctx), u)
}

// serveChannelMetered serves a deposit or a voucher on a route metered per
// byte or per second (Config.Usage), as an upto response is (see Usage):
// the channel is funded first (its hold kept, a deposit settled), the
// response streams through a meter that ends it once it used what the
// price buys (or is held, when short), and then the channel is charged
// what it used, at most the price, and committed. A held response carries
// PAYMENT-RESPONSE as a header; a streamed one as a trailer, which a
// client that reads none (upstream's fetch client) does without: its next
// voucher, built on the price, meets the corrective 402, from which it
// recovers. A response with an error status, or none, is not charged: the
// hold is let go and the voucher pays again.
func (p *Paywall) serveChannelMetered(w http.ResponseWriter, r *http.Request, a *admission, next func(http.ResponseWriter, *http.Request) error) (err error) {
	u, ctx, req := a.channel, a.ctx, a.req
	settle := p.channelSettler(r)
	if res := u.Fund(ctx, settle); res != nil {
		u.Abort(ctx)
		p.answer(w, r, settleRefusal(res, nil))
		return nil
	}
	price := channelPrice(req)
	m, r, stop := p.newMeter(w, r, req.PaymentRequirements.Asset, price)
	defer stop()
	returned := false // next returned, and did not panic
	defer func() {
		if !m.decided && returned && err == nil {
			m.WriteHeader(http.StatusOK) // an empty 200 is served, so paid
		}
		if !m.decided || m.status >= 400 || m.switched {
			u.Abort(ctx)
			return
		}
		res, charged := p.settleChannel(ctx, req, u, m.owed(req.PaymentRequirements.Asset, price, time.Now()), settle)
		if !res.Success {
			u.Abort(ctx)
			if m.held {
				m.w.Header().Del("Content-Length")
				p.answer(m.w, r, settleRefusal(res, nil))
			}
			return
		}
		m.release(r, res)
		http.NewResponseController(m.w).Flush()
		fault(faultChannelAfterFlush)
		p.voucherSettled(r, charged)
		p.commitLater(ctx, u)
	}()
	err = m.run(next, r)
	returned = true
	return err
}

// faultChannelAfterFlush is the fault-injection point between a
// voucher-paid response's flush and its charge's commit.
const faultChannelAfterFlush = "channel-after-flush"

// channelPrice is the offer's price, the most a request is charged.
func channelPrice(req *x402.VerifyRequest) *big.Int {
	price, err := x402.ParseAmount(req.PaymentRequirements.Amount)
	if err != nil {
		return new(big.Int)
	}
	return price
}

// channelCharge is what the response whose headers are h costs: the
// offer's price, or on a route metered by a usage header (Config.Usage)
// the units the handler reported at the unit's price, at most the price
// (none reported: nothing). The usage header is removed: it is the
// server's to read, never the client's to see.
func (p *Paywall) channelCharge(h http.Header, req *x402.VerifyRequest) *big.Int {
	price := channelPrice(req)
	us := p.cfg.Usage
	if us == nil || us.Per != UsageHeader {
		return price
	}
	v := strings.TrimSpace(h.Get(us.Header))
	h.Del(us.Header)
	unit := us.Prices[strings.ToLower(req.PaymentRequirements.Asset)]
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || unit == nil {
		return new(big.Int)
	}
	charge := new(big.Int).Mul(new(big.Int).SetUint64(n), unit)
	if charge.Cmp(price) > 0 {
		return price // what the payer's voucher covers, no more
	}
	return charge
}

// commitChannel commits u's charge, reporting whether it was committed.
func (p *Paywall) commitChannel(ctx context.Context, u ChannelUse) bool {
	if err := u.Commit(ctx); err != nil {
		if p.cfg.Logger != nil {
			p.cfg.Logger.Error("a served request's charge was not committed; its voucher stays with the channel's expired hold, and the payer's next voucher commits it", "channel", u.ChannelID(), "error", err)
		}
		return false
	}
	return true
}

// answerValue writes v as JSON with status.
func answerValue(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// retryAfterValue is Retry-After's value for seconds.
func retryAfterValue(seconds int) string { return strconv.Itoa(seconds) }

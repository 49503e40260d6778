package paywall

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Broadcast makes a paywall serve a paid request as soon as its
// settlement is broadcast (its transaction accepted by the node) instead
// of once it is mined (Config.Broadcast): the response no longer waits a
// block. The settlement goes on in the background, with a context of its
// own (it finishes if the client goes away), and its final outcome is
// recorded as it would have been.
//
// A payment is served on broadcast only within bounds, reserved before
// serving and released once the settlement is final: at most MaxPerPayer
// payments of one payer unsettled at once, and the amount in flight per
// asset within the route's MaxInFlight and the shared Exposure's. Beyond
// any bound, and for a payer in the penalty box, the request waits for
// inclusion, as without Broadcast; it is not refused. A settlement that
// fails after its response was served (its payer moved its funds, or used
// the authorization elsewhere, first) is served unpaid: the payer goes to
// the penalty box and Hooks.AfterBroadcast is told. So a payer, or a
// crowd of them, gets at most the bounds for free.
//
// PAYMENT-RESPONSE then carries success true and the transaction, as
// accepted by the node and not mined yet. A facilitator that does not
// announce broadcasts (facilitator.Client, a remote one) leaves every
// request waiting for inclusion. Requests that upgrade the connection
// always wait.
type Broadcast struct {
	// Exposure is the ledger shared with the site's other routes: the
	// count per payer, the penalty box and the site's bound. Nil gives the
	// route a ledger of its own.
	Exposure *Exposure
	// MaxPerPayer is how many payments of one payer may be served on
	// broadcast and not settled yet at once, over the routes sharing
	// Exposure; default 1.
	MaxPerPayer int
	// MaxInFlight bounds, for each asset (by AssetKey), the amount of this
	// route's payments served on broadcast and not settled yet, in the
	// asset's atomic units. A payment in an asset bounded neither here nor
	// by Exposure waits for inclusion.
	MaxInFlight map[string]*big.Int
	// Route names the route alike on every replica of a fleet, for its
	// bound in Exposure.Shared; empty leaves the route's bound to this
	// process.
	Route string
}

// followFor bounds how long a settlement served on broadcast whose outcome
// is not known (the receipt timed out, the chain is unreachable) is
// retried before it is given up as served unpaid.
const followFor = 10 * time.Minute

func (b *Broadcast) validate() error {
	var errs []error
	if b.MaxPerPayer < 0 {
		errs = append(errs, errors.New("broadcast: max per payer must not be negative"))
	}
	if len(b.MaxInFlight) == 0 && (b.Exposure == nil || len(b.Exposure.MaxInFlight) == 0) {
		errs = append(errs, errors.New("broadcast: serving on broadcast needs a bound on the amount in flight, the route's or the site's"))
	}
	for k, v := range b.MaxInFlight {
		if v == nil || v.Sign() < 0 {
			errs = append(errs, fmt.Errorf("broadcast: the bound of %s must not be negative", k))
		}
	}
	return errors.Join(errs...)
}

// onBroadcast is one paid request's settlement on a route that serves on
// broadcast.
type onBroadcast struct {
	p     *Paywall
	r     *http.Request
	payer string
	res   *reservation // held from before serving until the outcome is final
	// written is closed once the response was written (gate.served), if
	// it was served on broadcast.
	written chan struct{}
}

// newOnBroadcast is the broadcast state of a request of payer, or nil when
// the route does not serve on broadcast or r upgrades the connection.
func (p *Paywall) newOnBroadcast(r *http.Request, payer string) *onBroadcast {
	if p.cfg.Broadcast == nil || isUpgrade(r) {
		return nil
	}
	return &onBroadcast{p: p, r: r, payer: payer}
}

// settleVia settles req: through b, when b is set and the payment within
// its bounds, answering as soon as the settlement is broadcast; otherwise
// as usual, once it is final.
func (p *Paywall) settleVia(ctx context.Context, req *x402.VerifyRequest, b *onBroadcast) *x402.SettleResponse {
	if b != nil {
		o := &req.PaymentRequirements
		if amount, err := x402.ParseAmount(o.Amount); err == nil {
			b.res = p.exposure.reserve(&p.budget, p.perPayer, b.payer, AssetKey(o.Network, o.Asset), amount)
		}
	}
	if b == nil || b.res == nil {
		res, _ := p.cfg.Facilitator.Settle(ctx, req)
		return res
	}
	announced := make(chan *x402.SettleResponse, 1)
	final := make(chan *x402.SettleResponse, 1)
	// The settlement must finish whatever becomes of the request.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.p.cfg.Timeout)
	sctx = x402.WithBroadcast(sctx, func(res *x402.SettleResponse) {
		select {
		case announced <- res:
		default:
		}
	})
	go func() {
		defer cancel()
		final <- b.p.settleOnce(sctx, req)
	}()
	select {
	case res := <-final:
		// Final before it was announced: the request gets the outcome, as
		// it would have waiting.
		b.res.release(false)
		b.res = nil
		return res
	case pending := <-announced:
		b.written = make(chan struct{})
		go b.follow(context.WithoutCancel(ctx), req, final)
		return pending
	}
}

// settleOnce runs one settle; a panic in it is an outcome not known.
func (p *Paywall) settleOnce(ctx context.Context, req *x402.VerifyRequest) (res *x402.SettleResponse) {
	defer func() {
		if v := recover(); v != nil || res == nil {
			res = &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network, ErrorCode: x402.ErrorInternal, Message: "the facilitator did not answer"}
		}
	}()
	res, _ = p.cfg.Facilitator.Settle(ctx, req)
	return res
}

// servedOn reports whether the request is answered on its settlement's
// broadcast (and its outcome followed in the background).
func (b *onBroadcast) servedOn() bool { return b != nil && b.written != nil }

// servedOnBroadcast hands the rest of a response served on broadcast to
// b.follow once it was written; it reports whether it did (then the
// record that it was served is b.follow's to make).
func (b *onBroadcast) servedOnBroadcast() bool {
	if !b.servedOn() {
		return false
	}
	close(b.written)
	return true
}

// follow waits for the final outcome of a settlement served on broadcast
// (retrying, under the same idempotency key, one whose outcome is not
// known), then for the response to be written, and records it: paid (the
// facilitator is told it was served), or served unpaid (the payer goes to
// the penalty box). The reservation is released either way, and
// Hooks.AfterBroadcast told.
func (b *onBroadcast) follow(ctx context.Context, req *x402.VerifyRequest, final <-chan *x402.SettleResponse) {
	res := <-final
	for deadline, pause := time.Now().Add(followFor), time.Second; unknownOutcome(res.ErrorCode) && time.Now().Before(deadline); pause = min(2*pause, 30*time.Second) {
		time.Sleep(pause)
		sctx, cancel := context.WithTimeout(ctx, b.p.cfg.Timeout)
		res = b.p.settleOnce(sctx, req)
		cancel()
	}
	<-b.written
	if res.Success {
		if f, ok := b.p.cfg.Facilitator.(Responder); ok {
			f.Served(ctx, req)
		}
		b.res.release(false)
	} else {
		// Only a definite failure is the payer's doing; an outcome still
		// not known is reported served unpaid but boxes nobody.
		b.res.release(!unknownOutcome(res.ErrorCode))
	}
	if h := b.p.cfg.Hooks.AfterBroadcast; h != nil {
		h(b.r, &Event{Offer: &req.PaymentRequirements, Payment: &req.PaymentPayload, Settle: res, Broadcast: true})
	}
}

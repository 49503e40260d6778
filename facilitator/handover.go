package facilitator

import (
	"time"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The bound on a response lost to a crash. The paywall writes a paid
// response and then records it (Served); a process that dies between the
// two leaves the payment's receipt to its payer's retry, since the
// response may never have left. But it may have: so that retry is served
// once, on any replica, and only within the payment's validity window,
// then replay (store.CanConsume, store.Consumed). The window is fixed at
// the claim, in the record's ServeBy.

// maxServeWindow caps a payment's validity window for handovers, whatever
// maxTimeoutSeconds the requirements name: a /settle caller without a key
// chooses the requirements' timeout, and a window of hours would only
// widen what a crash can give away.
const maxServeWindow = time.Hour

// serveBy is the end of the validity window of p, a payment of req claimed
// at now: now plus the requirements' maxTimeoutSeconds (the paywall's
// default when unset, at most maxServeWindow), and for exact no later than
// the authorization's validBefore, after which the payer could not have
// been asked to pay with it.
func serveBy(req *x402.SettleRequest, p *payment, now time.Time) time.Time {
	window := store.DefaultServeWindow
	if s := req.PaymentRequirements.MaxTimeoutSeconds; s > 0 {
		window = min(time.Duration(s)*time.Second, maxServeWindow)
	}
	end := now.Add(window)
	if vb := p.pay.ValidBefore; !vb.IsZero() && vb.Before(end) {
		end = vb
	}
	return end.UTC()
}

// mayHandOver reports whether rec's receipt may still go to a new consumer
// now, should its consumer have died with its response unwritten
// (store.CanHandOver): false means its payment buys nothing more, and a
// retry is replay even while that consumer's process looks alive.
func (s *Service) mayHandOver(rec *store.Record) bool {
	return store.CanHandOver(rec, s.cfg.Now())
}

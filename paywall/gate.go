package paywall

import (
	"context"
	"math/big"
	"net/http"
	"time"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// gate is the ResponseWriter the protected handler writes to. It settles
// the payment when the handler writes its status: a 2xx or 3xx is settled
// before anything reaches the client, and passes only if settlement
// succeeds; an error status passes through unpaid. The body then streams
// through unbuffered.
type gate struct {
	paywall *Paywall
	ctx     context.Context
	w       http.ResponseWriter
	r       *http.Request
	req     *x402.VerifyRequest

	decided bool                 // the status has been decided
	dropped bool                 // settlement failed: the handler's output is discarded
	paid    bool                 // settlement succeeded
	upgrade bool                 // an upgrade: next may hijack the connection, which is then not flushed
	res     *x402.SettleResponse // the settlement's result, once settled or refused
	// broadcast is the request's settlement on a route serving on
	// broadcast; nil otherwise.
	broadcast *onBroadcast
	// channel is a batch-settlement payment's hold, which pays through
	// its Settle with settleWith (the facilitator, between the hooks);
	// nil for other payments.
	channel    ChannelUse
	settleWith func(context.Context, *x402.VerifyRequest) *x402.SettleResponse
	// charged is a voucher's charge, for the AfterSettle hook once the
	// response was flushed; nil otherwise.
	charged *Event
}

// faultAfterFlush is the fault-injection point between a paid response's
// flush and its record (Served).
const faultAfterFlush = "after-flush"

// served tells a Responder facilitator that the paid response was written.
func (g *gate) served() {
	if !g.paid {
		return
	}
	if f, ok := g.paywall.cfg.Facilitator.(Responder); ok {
		// Out of the process's buffers first: once Served is recorded, a
		// retry of the payment is refused, so the response must be able
		// to reach the payer even if the process dies now.
		if !g.upgrade {
			http.NewResponseController(g.w).Flush()
		}
		// A process that dies here (a test build stops at this point; see
		// fault.go) may have answered without recording it: the
		// facilitator bounds what that can give away, one more response
		// within the payment's validity window (facilitator/handover.go).
		fault(faultAfterFlush)
		if g.broadcast.servedOnBroadcast() {
			return // recorded once the settlement is final
		}
		// A failure (the store is down) only leaves the payment as if its
		// process had died before answering; the facilitator logs it.
		f.Served(g.ctx, g.req)
	}
}

func (g *gate) Header() http.Header { return g.w.Header() }

func (g *gate) WriteHeader(status int) {
	if g.decided {
		return
	}
	if status >= 100 && status < 200 && status != http.StatusSwitchingProtocols {
		g.w.WriteHeader(status) // informational; the real status follows
		return
	}
	// 101 is final: the handler takes the connection next, so it is
	// settled first, as any success is.
	g.decided = true
	if status >= 400 {
		g.w.WriteHeader(status) // the handler failed: nothing is charged
		return
	}
	if !g.pay(true) {
		return
	}
	if status == http.StatusSwitchingProtocols {
		// The handler may take the connection now: it is not flushed
		// after (net/http panics flushing a hijacked connection).
		g.upgrade = true
	}
	g.w.WriteHeader(status)
}

// pay settles the payment: paid, PAYMENT-RESPONSE is set and the access
// window opened; otherwise the client is answered why, instead of the
// handler's answer, whose headers are dropped first when it set them
// (drop), and what the handler writes next is discarded.
func (g *gate) pay(drop bool) bool {
	var res *x402.SettleResponse
	var ok bool
	var stop error
	if g.channel != nil {
		res, g.charged = g.paywall.settleChannel(g.ctx, g.req, g.channel, g.paywall.channelCharge(g.w.Header(), g.req), g.settleWith)
		ok = res.Success
	} else {
		res, ok, stop = g.paywall.settle(g.ctx, g.r, g.req, g.broadcast)
	}
	g.res = res
	if !ok {
		if drop {
			// The handler's answer is dropped, headers included.
			for k := range g.w.Header() {
				if k != "Access-Control-Expose-Headers" {
					g.w.Header().Del(k)
				}
			}
		}
		g.paywall.answer(g.w, g.r, settleRefusal(res, stop))
		g.dropped = true
		return false
	}
	g.paid = true
	setPaymentResponse(g.w, g.r, res)
	if g.paywall.cfg.Access != nil {
		g.paywall.openWindow(g.ctx, g.w, g.r, res)
	}
	return true
}

func (g *gate) Write(b []byte) (int, error) {
	if !g.decided {
		g.WriteHeader(http.StatusOK)
	}
	if g.dropped {
		return len(b), nil // settlement failed: the client got 402 instead
	}
	return g.w.Write(b)
}

// Flush sends buffered data; the status is decided (and the payment
// settled) first if it was not yet.
func (g *gate) Flush() {
	if !g.decided {
		g.WriteHeader(http.StatusOK)
	}
	if g.dropped {
		return
	}
	http.NewResponseController(g.w).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (g *gate) Unwrap() http.ResponseWriter { return g.w }

// settle runs the settlement and reports the outcome (with b, possibly
// the provisional one of its broadcast), or the error of a BeforeSettle
// hook that refused it (then nothing was settled).
func (p *Paywall) settle(ctx context.Context, r *http.Request, req *x402.VerifyRequest, b *onBroadcast) (*x402.SettleResponse, bool, error) {
	ev := &Event{Offer: &req.PaymentRequirements, Payment: &req.PaymentPayload}
	ev.Overage, _ = r.Context().Value(overageKey{}).(*big.Int)
	if h := p.cfg.Hooks.BeforeSettle; h != nil {
		if err := h(r, ev); err != nil {
			return nil, false, err
		}
	}
	began := time.Now()
	sctx, span := startSpan(ctx, spanSettle, &req.PaymentRequirements)
	res := p.settleVia(sctx, req, b)
	ev.Broadcast = b.servedOn()
	if res == nil {
		res = &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network, ErrorCode: x402.ErrorBundlerUnreachable, Message: "the facilitator did not answer"}
	}
	edge.EndSettle(span, res)
	ev.Settle, ev.Took = res, time.Since(began)
	if h := p.cfg.Hooks.AfterSettle; h != nil && res.Success {
		h(r, ev)
	}
	if h := p.cfg.Hooks.OnSettleFailure; h != nil && !res.Success {
		h(r, ev)
	}
	return res, res.Success, nil
}

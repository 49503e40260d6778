package facilitator

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

const tracerName = "github.com/caddy-x402/caddy-x402/facilitator"

// The spans of the service; see the package documentation.
const (
	spanVerify  = "x402.facilitator.verify"
	spanSettle  = "x402.facilitator.settle"
	spanClaim   = "x402.facilitator.claim"
	spanSubmit  = "x402.facilitator.submit"
	spanReceipt = "x402.facilitator.receipt"
	spanSponsor = "x402.facilitator.sponsor"
	// The steps of an exact settlement's submit, and the store writes of
	// every settlement, so that a trace shows where a settle's time goes.
	spanEstimate = "x402.facilitator.estimate"
	spanSign     = "x402.facilitator.sign"
	spanSend     = "x402.facilitator.send"
	spanStore    = "x402.facilitator.store"
)

// attrState is the state a store write moves a settlement to. The
// attributes every service shares are edge's.
var attrState = attribute.Key("x402.state")

// startSpan starts a span of the service named name, as a child of the
// request's (see edge.StartSpan).
func startSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	return edge.StartSpan(ctx, tracerName, name)
}

// endStep ends the span of a step of a settlement: done, or failed with
// res's error code. A nil res is a step that succeeded and handed the
// settlement on.
func endStep(span trace.Span, res *x402.SettleResponse) {
	defer span.End()
	if !span.IsRecording() || res == nil {
		return
	}
	edge.SettleAttrs(span, res)
	if !res.Success {
		edge.Fail(span, string(res.ErrorCode))
	}
}

// endCall ends the span of a step that calls the chain or the store: failed
// with reason if err is not nil.
func endCall(span trace.Span, err error, reason string) {
	if err != nil && span.IsRecording() {
		edge.Fail(span, reason)
	}
	span.End()
}

// startStore starts the span of a store write that moves a settlement to
// state.
func startStore(ctx context.Context, state string) trace.Span {
	_, span := startSpan(ctx, spanStore)
	if span.IsRecording() {
		span.SetAttributes(attrState.String(state))
	}
	return span
}

// endSponsor ends a /sponsor span (edge.EndSponsor): sponsored, or
// refused with its JSON-RPC code.
func endSponsor(span trace.Span, err error) {
	code := 0
	if err != nil {
		code = int(x402.RPCInternalError)
		var se *SponsorError
		if errors.As(err, &se) {
			code = se.Code
		}
	}
	edge.EndSponsor(span, code)
}

package facilitator

import (
	"context"
	"errors"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

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

var (
	attrScheme  = attribute.Key("x402.scheme")
	attrNetwork = attribute.Key("x402.network")
	attrAsset   = attribute.Key("x402.asset")
	attrAmount  = attribute.Key("x402.amount")
	attrPayTo   = attribute.Key("x402.pay_to")
	attrPayer   = attribute.Key("x402.payer")
	attrResult  = attribute.Key("x402.result")
	attrReason  = attribute.Key("x402.reason")
	// attrInvalidReason is the invalid reason of a settle that failed
	// verification (x402.reason verify_failed).
	attrInvalidReason = attribute.Key("x402.invalid_reason")
	attrTx            = attribute.Key("x402.transaction")
	attrUserOpHash    = attribute.Key("x402.user_op_hash")
	attrSender        = attribute.Key("x402.sender")
	// attrState is the state a store write moves a settlement to.
	attrState = attribute.Key("x402.state")
)

// startSpan starts a span named name as a child of the span in ctx, with
// that span's tracer provider (Caddy's tracing directive's), so that it
// joins the request's trace; the global provider is not used. Without a
// span in ctx it returns ctx and a span that does nothing.
func startSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, parent
	}
	return parent.TracerProvider().Tracer(tracerName).Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal))
}

// setOffer records what a payment pays for.
func setOffer(span trace.Span, r *x402.PaymentRequirements) {
	if span.IsRecording() {
		span.SetAttributes(attrScheme.String(r.Scheme), attrNetwork.String(r.Network),
			attrAsset.String(r.Asset), attrAmount.String(r.Amount), attrPayTo.String(r.PayTo))
	}
}

// endVerify records a verification's outcome and ends its span.
func endVerify(span trace.Span, res *x402.VerifyResponse, err error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if res != nil && res.Payer != "" {
		span.SetAttributes(attrPayer.String(res.Payer))
	}
	switch {
	case err != nil || res == nil:
		span.SetAttributes(attrResult.String("unavailable"))
		fail(span, "unavailable")
	case res.IsValid:
		span.SetAttributes(attrResult.String("valid"))
	default:
		span.SetAttributes(attrResult.String("invalid"))
		fail(span, string(res.InvalidReason))
	}
}

// endSettle records a settlement's outcome and ends its span: settled, or
// failed with its error code.
func endSettle(span trace.Span, res *x402.SettleResponse) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	settleAttrs(span, res)
	if res.Success {
		span.SetAttributes(attrResult.String("settled"))
		return
	}
	span.SetAttributes(attrResult.String("failed"))
	fail(span, string(res.ErrorCode))
}

// settleAttrs records the payer and the transaction of a settle response.
func settleAttrs(span trace.Span, res *x402.SettleResponse) {
	if res.Payer != "" {
		span.SetAttributes(attrPayer.String(res.Payer))
	}
	if res.TransactionHash != "" {
		span.SetAttributes(attrTx.String(res.TransactionHash))
	}
	if res.UserOpHash != "" {
		span.SetAttributes(attrUserOpHash.String(res.UserOpHash))
	}
	if res.InvalidReason != "" {
		span.SetAttributes(attrInvalidReason.String(string(res.InvalidReason)))
	}
}

// endStep ends the span of a step of a settlement: done, or failed with
// res's error code. A nil res is a step that succeeded and handed the
// settlement on.
func endStep(span trace.Span, res *x402.SettleResponse) {
	defer span.End()
	if !span.IsRecording() || res == nil {
		return
	}
	settleAttrs(span, res)
	if !res.Success {
		fail(span, string(res.ErrorCode))
	}
}

// endCall ends the span of a step that calls the chain or the store: failed
// with reason if err is not nil.
func endCall(span trace.Span, err error, reason string) {
	if err != nil && span.IsRecording() {
		fail(span, reason)
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

// endSponsor records a sponsorship's outcome and ends its span: refused
// with its JSON-RPC code, or sponsored.
func endSponsor(span trace.Span, err error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if err == nil {
		span.SetAttributes(attrResult.String("sponsored"))
		return
	}
	code := int(x402.RPCInternalError)
	var se *SponsorError
	if errors.As(err, &se) {
		code = se.Code
	}
	span.SetAttributes(attrResult.String("refused"))
	fail(span, strconv.Itoa(code))
}

// fail marks span as failed for reason, a code: its status, its
// x402.reason and an exception event carry the code alone, never a
// node's text.
func fail(span trace.Span, reason string) {
	if reason == "" {
		reason = "unknown"
	}
	span.SetAttributes(attrReason.String(reason))
	span.RecordError(reasonError(reason))
	span.SetStatus(codes.Error, reason)
}

// reasonError is a reason code recorded as a span's exception.
type reasonError string

func (e reasonError) Error() string { return string(e) }

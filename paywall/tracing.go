package paywall

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/x402"
)

const tracerName = "github.com/caddy-x402/caddy-x402/paywall"

const (
	spanVerify = "x402.verify"
	spanSettle = "x402.settle"
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
)

// startSpan starts a span named name for a payment of offer, as a child of
// the span in ctx and with that span's tracer provider. Without a span in
// ctx it returns ctx and a span that does nothing.
func startSpan(ctx context.Context, name string, offer *x402.PaymentRequirements) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, parent
	}
	ctx, span := parent.TracerProvider().Tracer(tracerName).Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal))
	if span.IsRecording() {
		span.SetAttributes(
			attrScheme.String(offer.Scheme), attrNetwork.String(offer.Network),
			attrAsset.String(offer.Asset), attrAmount.String(offer.Amount), attrPayTo.String(offer.PayTo),
		)
	}
	return ctx, span
}

// endVerify records a verification's outcome on its span and ends it.
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
		fail(span, "facilitator_unavailable")
	case res.IsValid:
		span.SetAttributes(attrResult.String("valid"))
	default:
		span.SetAttributes(attrResult.String("invalid"))
		fail(span, string(res.InvalidReason))
	}
}

// endSettle records a settlement's outcome on its span and ends it.
func endSettle(span trace.Span, res *x402.SettleResponse) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
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
	if res.Success {
		span.SetAttributes(attrResult.String("settled"))
		return
	}
	span.SetAttributes(attrResult.String("failed"))
	fail(span, string(res.ErrorCode))
}

// fail marks span as failed for reason, a code of the spec: its status,
// its x402.reason and an exception event carry the code alone.
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

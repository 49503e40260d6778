package edge

import (
	"context"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The attributes of x402 spans. A payment's offer and outcome carry the
// same keys whichever service records them.
var (
	AttrScheme  = attribute.Key("x402.scheme")
	AttrNetwork = attribute.Key("x402.network")
	AttrAsset   = attribute.Key("x402.asset")
	AttrAmount  = attribute.Key("x402.amount")
	AttrPayTo   = attribute.Key("x402.pay_to")
	AttrPayer   = attribute.Key("x402.payer")
	// AttrResult is what became of the span's work: valid, invalid,
	// unavailable, settled, failed, sponsored, refused.
	AttrResult = attribute.Key("x402.result")
	// AttrReason is the code of a failure, never a node's text.
	AttrReason = attribute.Key("x402.reason")
	// AttrInvalidReason is the invalid reason of a settle that failed
	// verification (x402.reason verify_failed).
	AttrInvalidReason = attribute.Key("x402.invalid_reason")
	AttrTx            = attribute.Key("x402.transaction")
	AttrUserOpHash    = attribute.Key("x402.user_op_hash")
	AttrSender        = attribute.Key("x402.sender")
)

// ReasonUnavailable is the reason of a verification that got no answer: the
// facilitator or its chain could not be reached.
const ReasonUnavailable = "unavailable"

// StartSpan starts a span named name as a child of the span in ctx, with
// that span's tracer provider (Caddy's tracing directive's), so that it
// joins the request's trace; the global provider is never used. tracer
// names the instrumenting package. Without a span in ctx it returns ctx and
// a span that does nothing, so an untraced request costs nothing.
func StartSpan(ctx context.Context, tracer, name string) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, parent
	}
	return parent.TracerProvider().Tracer(tracer).Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal))
}

// SetOffer records what a payment pays for.
func SetOffer(span trace.Span, r *x402.PaymentRequirements) {
	if span.IsRecording() {
		span.SetAttributes(AttrScheme.String(r.Scheme), AttrNetwork.String(r.Network),
			AttrAsset.String(r.Asset), AttrAmount.String(r.Amount), AttrPayTo.String(r.PayTo))
	}
}

// EndVerify records a verification's outcome and ends its span: valid,
// invalid with its reason, or unavailable when there was no answer.
func EndVerify(span trace.Span, res *x402.VerifyResponse, err error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if res != nil && res.Payer != "" {
		span.SetAttributes(AttrPayer.String(res.Payer))
	}
	switch {
	case err != nil || res == nil:
		span.SetAttributes(AttrResult.String("unavailable"))
		Fail(span, ReasonUnavailable)
	case res.IsValid:
		span.SetAttributes(AttrResult.String("valid"))
	default:
		span.SetAttributes(AttrResult.String("invalid"))
		Fail(span, string(res.InvalidReason))
	}
}

// EndSettle records a settlement's outcome and ends its span: settled, or
// failed with its error code.
func EndSettle(span trace.Span, res *x402.SettleResponse) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	SettleAttrs(span, res)
	if res.Success {
		span.SetAttributes(AttrResult.String("settled"))
		return
	}
	span.SetAttributes(AttrResult.String("failed"))
	Fail(span, string(res.ErrorCode))
}

// SettleAttrs records the payer, the transaction, the operation and the
// invalid reason of a settle response, those it has.
func SettleAttrs(span trace.Span, res *x402.SettleResponse) {
	if res.Payer != "" {
		span.SetAttributes(AttrPayer.String(res.Payer))
	}
	if res.TransactionHash != "" {
		span.SetAttributes(AttrTx.String(res.TransactionHash))
	}
	if res.UserOpHash != "" {
		span.SetAttributes(AttrUserOpHash.String(res.UserOpHash))
	}
	if res.InvalidReason != "" {
		span.SetAttributes(AttrInvalidReason.String(string(res.InvalidReason)))
	}
}

// EndSponsor records a sponsorship's outcome and ends its span: sponsored
// when code is 0, else refused with its JSON-RPC code alone (a message may
// quote the chain). The paymaster's and the facilitator's /sponsor both
// end their spans here.
func EndSponsor(span trace.Span, code int) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if code == 0 {
		span.SetAttributes(AttrResult.String("sponsored"))
		return
	}
	span.SetAttributes(AttrResult.String("refused"))
	Fail(span, strconv.Itoa(code))
}

// Fail marks span as failed for reason, a code: its status, its
// x402.reason and an exception event carry the code alone, never a node's
// or a store's text, which may quote what a client sent.
func Fail(span trace.Span, reason string) {
	if reason == "" {
		reason = "unknown"
	}
	span.SetAttributes(AttrReason.String(reason))
	span.RecordError(reasonError(reason))
	span.SetStatus(codes.Error, reason)
}

// reasonError is a reason code recorded as a span's exception.
type reasonError string

func (e reasonError) Error() string { return string(e) }

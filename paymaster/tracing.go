package paymaster

import (
	"context"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/caddy-x402/caddy-x402/paymaster"

// spanSponsor is the span of one pm_sponsor_userop call; see the package
// documentation.
const spanSponsor = "x402.paymaster.sponsor"

var (
	attrProject    = attribute.Key("x402.paymaster.project")
	attrSender     = attribute.Key("x402.sender")
	attrUserOpHash = attribute.Key("x402.user_op_hash")
	attrResult     = attribute.Key("x402.result")
	attrReason     = attribute.Key("x402.reason")
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

// endSponsor records a sponsorship's outcome and ends its span: sponsored,
// or refused with its JSON-RPC code alone (the message may quote the
// chain).
func endSponsor(span trace.Span, rerr *Error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if rerr == nil {
		span.SetAttributes(attrResult.String("sponsored"))
		return
	}
	reason := strconv.Itoa(int(rerr.Code))
	span.SetAttributes(attrResult.String("refused"), attrReason.String(reason))
	span.RecordError(reasonError(reason))
	span.SetStatus(codes.Error, reason)
}

// reasonError is a reason code recorded as a span's exception.
type reasonError string

func (e reasonError) Error() string { return string(e) }

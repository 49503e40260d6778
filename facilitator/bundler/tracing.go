package bundler

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/caddy-x402/caddy-x402/facilitator/bundler"

// spanBundle is the span of one bundle: its simulation, estimate, signing,
// recording and broadcast.
const spanBundle = "x402.bundle"

var (
	attrOperations = attribute.Key("x402.bundle.operations")
	attrDropped    = attribute.Key("x402.bundle.dropped")
	attrIndex      = attribute.Key("x402.bundle.index")
	attrGasLimit   = attribute.Key("x402.bundle.gas_limit")
	attrTx         = attribute.Key("x402.transaction")
	attrResult     = attribute.Key("x402.result")
	attrReason     = attribute.Key("x402.reason")
)

// startBundle starts the span of a bundle of batch. A bundle serves many
// requests, so it is parented to the first operation's span (the span in
// the context its Submit was called with) and linked to the others'; it
// takes that span's tracer provider, never the global one. Without a span
// on any operation it returns ctx and a span that does nothing.
func startBundle(ctx context.Context, batch []*entry) (context.Context, trace.Span) {
	var (
		parent trace.Span
		links  []trace.Link
	)
	for _, e := range batch {
		switch {
		case !e.span.SpanContext().IsValid():
		case parent == nil:
			parent = e.span
		default:
			links = append(links, trace.Link{SpanContext: e.span.SpanContext()})
		}
	}
	if parent == nil {
		return ctx, trace.SpanFromContext(ctx)
	}
	ctx, span := parent.TracerProvider().Tracer(tracerName).Start(trace.ContextWithSpan(ctx, parent), spanBundle,
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithLinks(links...))
	if span.IsRecording() {
		span.SetAttributes(attrOperations.Int(len(batch)))
	}
	return ctx, span
}

// fail marks a bundle's span as failed for reason, a fixed code; the
// node's text is not recorded.
func fail(span trace.Span, reason string) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(attrResult.String("failed"), attrReason.String(reason))
	span.RecordError(reasonError(reason))
	span.SetStatus(codes.Error, reason)
}

// reasonError is a reason code recorded as a span's exception.
type reasonError string

func (e reasonError) Error() string { return string(e) }

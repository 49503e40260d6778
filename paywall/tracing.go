package paywall

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

const tracerName = "github.com/caddy-x402/caddy-x402/paywall"

const (
	spanVerify = "x402.verify"
	spanSettle = "x402.settle"
)

// startSpan starts a span named name for a payment of offer, as a child of
// the request's span (see edge.StartSpan), with the offer recorded. The
// outcome is recorded by edge.EndVerify and edge.EndSettle.
func startSpan(ctx context.Context, name string, offer *x402.PaymentRequirements) (context.Context, trace.Span) {
	ctx, span := edge.StartSpan(ctx, tracerName, name)
	edge.SetOffer(span, offer)
	return ctx, span
}

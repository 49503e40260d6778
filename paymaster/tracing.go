package paymaster

import (
	"context"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/edge"
)

const tracerName = "github.com/caddy-x402/caddy-x402/paymaster"

// spanSponsor is the span of one pm_sponsor_userop call; see the package
// documentation.
const spanSponsor = "x402.paymaster.sponsor"

// attrProject is the project a sponsorship is charged to. The attributes
// every service shares are edge's.
var attrProject = attribute.Key("x402.paymaster.project")

// startSpan starts a span of the paymaster named name, as a child of the
// request's (see edge.StartSpan).
func startSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	return edge.StartSpan(ctx, tracerName, name)
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
		span.SetAttributes(edge.AttrResult.String("sponsored"))
		return
	}
	span.SetAttributes(edge.AttrResult.String("refused"))
	edge.Fail(span, strconv.Itoa(int(rerr.Code)))
}

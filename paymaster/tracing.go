package paymaster

import (
	"context"

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

// endSponsor ends a sponsorship's span (edge.EndSponsor): sponsored, or
// refused with its JSON-RPC code.
func endSponsor(span trace.Span, rerr *Error) {
	code := 0
	if rerr != nil {
		code = int(rerr.Code)
	}
	edge.EndSponsor(span, code)
}

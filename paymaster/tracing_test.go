package paymaster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// A sponsorship asked for by the Go client from within a trace is traced
// under the paymaster's server span, in the same trace, with its outcome
// and nothing of the key or the signature.
func TestSponsorSpan(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	// The paymaster behind a server span, as Caddy's tracing directive
	// puts it: the caller's trace is taken from traceparent.
	var (
		mu      sync.Mutex
		servers []trace.SpanContext // each request's server span
		callers []trace.SpanContext // the span each request named as its parent
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := tracer.Start(ctx, "paymaster", trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		mu.Lock()
		servers = append(servers, span.SpanContext())
		callers = append(callers, trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), propagation.HeaderCarrier(r.Header))))
		mu.Unlock()
		e.svc.ServeHTTP(w, r.WithContext(ctx))
	}))
	defer srv.Close()
	c := &Client{URL: srv.URL, APIKey: e.sponsor}
	a := e.newAccount()
	op := unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1))

	ctx, root := tracer.Start(context.Background(), "facilitator")
	out, err := c.SponsorOnce(ctx, op, e.chain.Contracts.EntryPoint, x402.SponsorContext{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SponsorOnce(ctx, op, common.Address{1}, x402.SponsorContext{}); err == nil {
		t.Fatal("sponsored for another EntryPoint")
	}
	root.End()

	var spans []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == spanSponsor {
			spans = append(spans, s)
		}
	}
	if len(spans) != 2 || len(servers) != 2 {
		t.Fatalf("%d sponsor spans, %d requests", len(spans), len(servers))
	}
	decoded, _ := contracts.UserOperationHex(out).Decode(false)
	hash := contracts.UserOpHash(decoded, e.chain.Contracts.EntryPoint, e.chain.ChainID)
	for i, tc := range []struct {
		attrs  map[attribute.Key]string
		reason string
	}{
		{map[attribute.Key]string{"x402.paymaster.project": "demo", "x402.sender": a.sender.Hex(), "x402.result": "sponsored", "x402.user_op_hash": hash.Hex()}, ""},
		{map[attribute.Key]string{"x402.paymaster.project": "demo", "x402.sender": a.sender.Hex(), "x402.result": "refused", "x402.reason": "-32602"}, "-32602"},
	} {
		s := spans[i]
		if callers[i].SpanID() != root.SpanContext().SpanID() || s.SpanContext().TraceID() != root.SpanContext().TraceID() || s.Parent().SpanID() != servers[i].SpanID() {
			t.Errorf("span %d: not under its server span in the caller's trace", i)
		}
		got := map[attribute.Key]string{}
		for _, kv := range s.Attributes() {
			got[kv.Key] = kv.Value.Emit()
			if v := strings.ToLower(kv.Value.Emit()); strings.Contains(v, strings.ToLower(e.sponsor)) || strings.Contains(v, hexutil.Encode(decoded.PaymasterAndData[20+64:])[2:]) {
				t.Errorf("span %d: %s holds a secret", i, kv.Key)
			}
		}
		for k, v := range tc.attrs {
			if got[k] != v {
				t.Errorf("span %d: %s = %q, want %q", i, k, got[k], v)
			}
		}
		code := codes.Unset
		if tc.reason != "" {
			code = codes.Error
		}
		if s.Status().Code != code || s.Status().Description != tc.reason {
			t.Errorf("span %d: status %v %q", i, s.Status().Code, s.Status().Description)
		}
	}
}

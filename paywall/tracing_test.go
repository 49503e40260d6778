package paywall_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// scripted is a facilitator that answers as told.
type scripted struct {
	verify    *x402.VerifyResponse
	verifyErr error
	settle    *x402.SettleResponse
}

func (f *scripted) Verify(context.Context, *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return f.verify, f.verifyErr
}

func (f *scripted) Settle(context.Context, *x402.SettleRequest) (*x402.SettleResponse, error) {
	return f.settle, nil
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value.Emit()
	}
	return m
}

func TestSpans(t *testing.T) {
	t.Parallel()
	const (
		payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
		tx    = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"
	)
	valid := &x402.VerifyResponse{IsValid: true, Payer: payer}
	settled := &x402.SettleResponse{X402Version: x402.Version, Success: true, Payer: payer, TransactionHash: tx, Network: benchOffer.Network}
	type span struct {
		result, reason, tx string
	}
	for _, tc := range []struct {
		name           string
		fac            *scripted
		status         int
		verify, settle *span // nil: no such span
	}{
		{"settled", &scripted{verify: valid, settle: settled}, 200,
			&span{result: "valid"}, &span{result: "settled", tx: tx}},
		{"invalid", &scripted{verify: &x402.VerifyResponse{InvalidReason: x402.ReasonInvalidInnerPayload, InvalidMessage: "balance 0 of " + payer, Payer: payer}}, 402,
			&span{result: "invalid", reason: "invalid_inner_payload"}, nil},
		{"facilitator down", &scripted{verifyErr: errors.New("dial tcp 10.0.0.1:4021: connection refused")}, 503,
			&span{result: "unavailable", reason: "unavailable"}, nil},
		{"settlement reverted", &scripted{verify: valid, settle: &x402.SettleResponse{X402Version: x402.Version, ErrorCode: x402.ErrorUserOpFailed,
			Message: "the UserOperation reverted: node says boom", Payer: payer, TransactionHash: tx}}, 402,
			&span{result: "valid"}, &span{result: "failed", reason: "user_op_failed", tx: tx}},
		{"settlement unknown", &scripted{verify: valid, settle: &x402.SettleResponse{X402Version: x402.Version, ErrorCode: x402.ErrorReceiptTimeout}}, 503,
			&span{result: "valid"}, &span{result: "failed", reason: "receipt_timeout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			pw, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{benchOffer}, Facilitator: tc.fac})
			if err != nil {
				t.Fatal(err)
			}
			h := pw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "paid content") }))
			header := signedPayment(t, benchOffer)
			ctx, server := tp.Tracer("test").Start(context.Background(), "server", trace.WithSpanKind(trace.SpanKindServer))
			req := httptest.NewRequest(http.MethodGet, "/report", nil).WithContext(ctx)
			req.Header.Set(x402.HeaderPaymentSignature, header)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			server.End()
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}

			byName := map[string]sdktrace.ReadOnlySpan{}
			for _, s := range rec.Ended() {
				byName[s.Name()] = s
				if s.SpanContext().TraceID() != server.SpanContext().TraceID() {
					t.Errorf("%s is in trace %s, not the request's", s.Name(), s.SpanContext().TraceID())
				}
				for k, v := range attrs(s) {
					if strings.Contains(v, header) || strings.Contains(v, "node says") || strings.Contains(v, "10.0.0.1") || strings.Contains(v, "balance 0") {
						t.Errorf("%s: %s = %q holds the header or a message", s.Name(), k, v)
					}
				}
				for _, ev := range s.Events() {
					for _, kv := range ev.Attributes {
						if v := kv.Value.Emit(); strings.Contains(v, "node says") || strings.Contains(v, "10.0.0.1") || strings.Contains(v, "balance 0") {
							t.Errorf("%s: event %s: %s = %q holds a message", s.Name(), ev.Name, kv.Key, v)
						}
					}
				}
			}
			for name, want := range map[string]*span{"x402.verify": tc.verify, "x402.settle": tc.settle} {
				s, ok := byName[name]
				switch {
				case want == nil && ok:
					t.Errorf("unexpected span %s", name)
					continue
				case want == nil:
					continue
				case !ok:
					t.Errorf("no span %s", name)
					continue
				}
				if s.Parent().SpanID() != server.SpanContext().SpanID() {
					t.Errorf("%s: parent %s, want the server span", name, s.Parent().SpanID())
				}
				a := attrs(s)
				for k, v := range map[attribute.Key]string{
					"x402.scheme": benchOffer.Scheme, "x402.network": benchOffer.Network, "x402.asset": benchOffer.Asset,
					"x402.amount": benchOffer.Amount, "x402.pay_to": benchOffer.PayTo,
					"x402.result": want.result, "x402.reason": want.reason, "x402.transaction": want.tx,
				} {
					if a[k] != v {
						t.Errorf("%s: %s = %q, want %q", name, k, a[k], v)
					}
				}
				wantStatus := codes.Unset
				if want.reason != "" {
					wantStatus = codes.Error
				}
				if s.Status().Code != wantStatus || s.Status().Description != want.reason {
					t.Errorf("%s: status %v %q, want %v %q", name, s.Status().Code, s.Status().Description, wantStatus, want.reason)
				}
			}
		})
	}
}

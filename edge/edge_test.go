package edge_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		status     int
		v          any
		wantStatus int
		wantBody   string
	}{
		{"value", http.StatusCreated, map[string]int{"n": 1}, http.StatusCreated, `{"n":1}` + "\n"},
		{"error body", http.StatusBadRequest, x402.VerifyResponse{InvalidReason: x402.ReasonMalformedRequest}, http.StatusBadRequest,
			`{"isValid":false,"invalidReason":"malformed_request"}` + "\n"},
		{"unencodable", http.StatusOK, math.NaN(), http.StatusInternalServerError,
			`{"error":"internal_error","message":"encoding the response failed"}` + "\n"},
		{"unencodable type", http.StatusOK, make(chan int), http.StatusInternalServerError,
			`{"error":"internal_error","message":"encoding the response failed"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			edge.WriteJSON(rec, tc.status, tc.v)
			if rec.Code != tc.wantStatus {
				t.Errorf("status %d, want %d", rec.Code, tc.wantStatus)
			}
			if got := rec.Body.String(); got != tc.wantBody {
				t.Errorf("body %q, want %q", got, tc.wantBody)
			}
			if !json.Valid(rec.Body.Bytes()) {
				t.Errorf("body is not JSON: %q", rec.Body.String())
			}
			if ct, cc := rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"); ct != "application/json" || cc != "no-store" {
				t.Errorf("Content-Type %q, Cache-Control %q", ct, cc)
			}
		})
	}
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value.Emit()
	}
	return m
}

// TestSpans records each end of a span under a real SDK provider and reads
// back its attributes and status.
func TestSpans(t *testing.T) {
	t.Parallel()
	const (
		payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
		tx    = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"
	)
	offer := &x402.PaymentRequirements{Scheme: "exact", Network: "eip155:31337", Amount: "10000",
		Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"}
	for _, tc := range []struct {
		name       string
		run        func(ctx context.Context)
		result     string
		reason     string
		extra      map[attribute.Key]string
		wantFailed bool
	}{
		{name: "verify valid", result: "valid", run: func(ctx context.Context) {
			_, span := edge.StartSpan(ctx, "test", "verify")
			edge.SetOffer(span, offer)
			edge.EndVerify(span, &x402.VerifyResponse{IsValid: true, Payer: payer}, nil)
		}, extra: map[attribute.Key]string{edge.AttrPayer: payer, edge.AttrScheme: "exact", edge.AttrAmount: "10000"}},
		{name: "verify invalid", result: "invalid", reason: "signature_invalid", wantFailed: true, run: func(ctx context.Context) {
			_, span := edge.StartSpan(ctx, "test", "verify")
			edge.EndVerify(span, &x402.VerifyResponse{InvalidReason: x402.ReasonSignatureInvalid}, nil)
		}},
		{name: "verify unavailable", result: "unavailable", reason: edge.ReasonUnavailable, wantFailed: true, run: func(ctx context.Context) {
			_, span := edge.StartSpan(ctx, "test", "verify")
			edge.EndVerify(span, nil, errors.New("dial tcp: connection refused"))
		}},
		{name: "settled", result: "settled", run: func(ctx context.Context) {
			_, span := edge.StartSpan(ctx, "test", "settle")
			edge.EndSettle(span, &x402.SettleResponse{Success: true, Payer: payer, TransactionHash: tx})
		}, extra: map[attribute.Key]string{edge.AttrTx: tx, edge.AttrPayer: payer}},
		{name: "settle failed", result: "failed", reason: "verify_failed", wantFailed: true, run: func(ctx context.Context) {
			_, span := edge.StartSpan(ctx, "test", "settle")
			edge.EndSettle(span, &x402.SettleResponse{ErrorCode: x402.ErrorVerifyFailed, InvalidReason: x402.ReasonReplay})
		}, extra: map[attribute.Key]string{edge.AttrInvalidReason: "replay"}},
		{name: "fail without a code", reason: "unknown", wantFailed: true, run: func(ctx context.Context) {
			_, span := edge.StartSpan(ctx, "test", "step")
			edge.Fail(span, "")
			span.End()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			ctx, parent := tp.Tracer("parent").Start(context.Background(), "request")
			tc.run(ctx)
			parent.End()
			spans := rec.Ended()
			if len(spans) != 2 {
				t.Fatalf("%d spans ended, want the step's and the parent's", len(spans))
			}
			s := spans[0]
			if s.Parent().SpanID() != parent.SpanContext().SpanID() {
				t.Errorf("the span is not a child of the request's")
			}
			got := attrs(s)
			if tc.result != "" && got[edge.AttrResult] != tc.result {
				t.Errorf("x402.result %q, want %q", got[edge.AttrResult], tc.result)
			}
			if got[edge.AttrReason] != tc.reason {
				t.Errorf("x402.reason %q, want %q", got[edge.AttrReason], tc.reason)
			}
			for k, v := range tc.extra {
				if got[k] != v {
					t.Errorf("%s %q, want %q", k, got[k], v)
				}
			}
			if failed := s.Status().Code == codes.Error; failed != tc.wantFailed {
				t.Errorf("status %v, want failed %v", s.Status(), tc.wantFailed)
			}
			if tc.wantFailed && (len(s.Events()) != 1 || s.Status().Description != tc.reason) {
				t.Errorf("a failed span carries one exception and its code as status, got %d events, %q", len(s.Events()), s.Status().Description)
			}
		})
	}
}

// TestUntracedIsFree: without a span in the context nothing is recorded
// and the context comes back as it was.
func TestUntracedIsFree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	got, span := edge.StartSpan(ctx, "test", "verify")
	if got != ctx || span.IsRecording() {
		t.Fatalf("an untraced request got a recording span")
	}
	edge.EndVerify(span, nil, errors.New("down"))
}

// WriteJSON keeps a Cache-Control its caller set (a public answer that
// may be cached), answers no-store otherwise, and never lets an answer it
// could not encode be cached.
func TestWriteJSONCacheControl(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, set string
		v         any
		want      string
	}{
		{"default", "", map[string]int{"n": 1}, "no-store"},
		{"the caller's", "public, max-age=60", map[string]int{"n": 1}, "public, max-age=60"},
		{"not encoded", "public, max-age=60", math.Inf(1), "no-store"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			if tc.set != "" {
				w.Header().Set("Cache-Control", tc.set)
			}
			edge.WriteJSON(w, http.StatusOK, tc.v)
			if got := w.Header().Get("Cache-Control"); got != tc.want {
				t.Fatalf("Cache-Control = %q, want %q", got, tc.want)
			}
		})
	}
}

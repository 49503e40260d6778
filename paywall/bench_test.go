package paywall_test

import (
	"context"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// accepting is a facilitator that finds every payment valid and settles it
// at once, so that a benchmark measures the paywall alone.
type accepting struct{}

func (accepting) Verify(_ context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return &x402.VerifyResponse{IsValid: true, Payer: "0x0000000000000000000000000000000000000001"}, nil
}

func (accepting) Settle(_ context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	return &x402.SettleResponse{X402Version: x402.Version, Success: true, Scheme: req.PaymentRequirements.Scheme,
		Network: req.PaymentRequirements.Network, Payer: "0x0000000000000000000000000000000000000001",
		TransactionHash: "0x" + strings.Repeat("ab", 32)}, nil
}

// benchOffer is an exact offer on the devnet's token, for tests that need
// no chain.
var benchOffer = x402.PaymentRequirements{
	Scheme: x402.SchemeExact, Network: "eip155:31337", Amount: "10000",
	Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", PayTo: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
	MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "Devnet USD", Version: "1"},
}

// signedPayment is the PAYMENT-SIGNATURE of an exact payment of offer by a
// fresh key.
func signedPayment(tb testing.TB, offer x402.PaymentRequirements) string {
	tb.Helper()
	key, _ := crypto.GenerateKey()
	pr := &x402.PaymentRequired{X402Version: x402.Version, Resource: &x402.Resource{URL: "http://example.com/report"}, Accepts: []x402.PaymentRequirements{offer}}
	p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(price)}).Pay(pr, &offer)
	if err != nil {
		tb.Fatal(err)
	}
	header, err := x402.EncodeHeader(p)
	if err != nil {
		tb.Fatal(err)
	}
	return header
}

// benchPaywall is a paywall with one exact offer in front of accepting, and
// a signed payment for it.
func benchPaywall(b *testing.B) (http.Handler, string) {
	b.Helper()
	pw, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{benchOffer}, Facilitator: accepting{}})
	if err != nil {
		b.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "paid content") })
	return pw.Handler(next), signedPayment(b, benchOffer)
}

// BenchmarkPaidRequest measures the paywall's work on a paid request, with
// a facilitator that costs nothing: decoding and matching the payment, the
// guard, the gate and the PAYMENT-RESPONSE header. With no tracing
// configured, its spans are no-ops and should not show.
func BenchmarkPaidRequest(b *testing.B) {
	h, header := benchPaywall(b)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, "/report", nil)
		req.Header.Set(x402.HeaderPaymentSignature, header)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkPaidRequestTraced is BenchmarkPaidRequest within a sampled
// trace, as under Caddy's tracing directive: the cost of recording the
// x402.verify and x402.settle spans (exporting them is the batcher's, off
// the request's path, and not measured).
func BenchmarkPaidRequestTraced(b *testing.B) {
	h, header := benchPaywall(b)
	tracer := sdktrace.NewTracerProvider().Tracer("bench")
	b.ReportAllocs()
	for b.Loop() {
		ctx, span := tracer.Start(context.Background(), "server")
		req := httptest.NewRequest(http.MethodGet, "/report", nil).WithContext(ctx)
		req.Header.Set(x402.HeaderPaymentSignature, header)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		span.End()
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkChallenge measures the paywall's 402 to an unpaid JSON client:
// the PAYMENT-REQUIRED header and the body (v2, with v1's fields), with
// three offers.
func BenchmarkChallenge(b *testing.B) {
	usdc := benchOffer
	usdc.Asset, usdc.Extra = "0x036CbD53842c5426634e7929541eC2318f3dCF7e", &x402.Extra{Name: "USDC", Version: "2"}
	permit := benchOffer
	permit.Extra = &x402.Extra{Name: "Devnet USD", Version: "1", AssetTransferMethod: x402.AssetTransferPermit2}
	pw, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{benchOffer, usdc, permit}, Facilitator: accepting{},
		Description: "a weather report", MimeType: "application/json"})
	if err != nil {
		b.Fatal(err)
	}
	h := pw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { b.Fatal("served unpaid") }))
	r := httptest.NewRequest(http.MethodGet, "http://shop.example/report?city=paris", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusPaymentRequired {
			b.Fatalf("status %d", w.Code)
		}
	}
}

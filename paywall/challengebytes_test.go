package paywall

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// cutOffers are offers of the three shapes a 402 carries: a v1 client can
// pay the first, not the second (no v1 name) nor the third's network twice.
var cutOffers = []x402.PaymentRequirements{
	{Scheme: x402.SchemeExact, Network: "eip155:84532", Amount: "10000", Asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
		PayTo: "0x90F79bf6EB2c4f870365E785982E1f101E93b906", MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "USDC", Version: "2"}},
	{Scheme: x402.SchemeExact, Network: "eip155:31337", Amount: "10000", Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
		PayTo: "0x90F79bf6EB2c4f870365E785982E1f101E93b906", MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "Devnet USD", Version: "1"}},
}

// cutPaywalls are paywalls whose 402 is fixed: with offers v1 clients can
// pay and without, with a description that JSON escapes, a fixed
// resource, and the payment-identifier extension.
func cutPaywalls(t testing.TB) map[string]*Paywall {
	t.Helper()
	out := map[string]*Paywall{}
	for name, cfg := range map[string]Config{
		"v1 and v2":      {Accepts: cutOffers, Description: `weather <"&"> ☂`, MimeType: "application/json"},
		"v2 only":        {Accepts: cutOffers[1:]},
		"fixed resource": {Accepts: cutOffers, Resource: "mcp://tool/weather?x=<1>"},
		"payment ids":    {Accepts: cutOffers[:1], PaymentIDs: noIDs{}},
	} {
		cfg.Facilitator = noFacilitator{}
		p, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p.challengeBytes == nil {
			t.Fatalf("%s: the 402 is not cut", name)
		}
		out[name] = p
	}
	return out
}

// render answers r's challenge with the cut bytes and by rendering it in
// full, for comparison.
func render(p *Paywall, r *http.Request, status int, msg string) (cut, full *httptest.ResponseRecorder) {
	cut, full = httptest.NewRecorder(), httptest.NewRecorder()
	p.challenge(cut, r, status, msg)
	saved := p.challengeBytes
	p.challengeBytes = nil
	p.challenge(full, r, status, msg)
	p.challengeBytes = saved
	return cut, full
}

// sameAnswer fails t unless the two answers are byte for byte the same.
func sameAnswer(t *testing.T, what string, cut, full *httptest.ResponseRecorder) {
	t.Helper()
	if cut.Code != full.Code || cut.Body.String() != full.Body.String() {
		t.Fatalf("%s: cut %d %q\nfull %d %q", what, cut.Code, cut.Body, full.Code, full.Body)
	}
	for _, k := range []string{x402.HeaderPaymentRequired, "Content-Type", "Cache-Control"} {
		if cut.Header().Get(k) != full.Header().Get(k) {
			t.Fatalf("%s: %s cut %q, full %q", what, k, cut.Header().Get(k), full.Header().Get(k))
		}
	}
}

// TestChallengeBytes: the 402 written from cut bytes is the 402 rendered
// in full, byte for byte, for URLs and messages that JSON escapes, v1 and
// v2 payments, and each status a challenge has.
func TestChallengeBytes(t *testing.T) {
	t.Parallel()
	targets := []string{"/report", "/report?city=paris&x=<script>", "/r%C3%A9sum%C3%A9?q=%E2%80%A8", "/a\"b"}
	msgs := []string{"", "payment_identifier_required", `bad "quote" <b>&</b>`, "line\nbreak\u2028\x7f", "\xff\xfe invalid utf-8"}
	for name, p := range cutPaywalls(t) {
		for _, target := range targets {
			for _, msg := range msgs {
				for _, v1 := range []bool{false, true} {
					for _, status := range []int{http.StatusPaymentRequired, http.StatusBadRequest} {
						r := httptest.NewRequest(http.MethodGet, "http://shop.example"+target, nil)
						r = r.WithContext(context.WithValue(r.Context(), v1Payment{}, v1))
						cut, full := render(p, r, status, msg)
						sameAnswer(t, name+" "+target+" "+msg, cut, full)
					}
				}
			}
		}
	}
}

// FuzzChallengeBytes: whatever the request's path and the message, the
// cut 402 is the rendered one.
func FuzzChallengeBytes(f *testing.F) {
	f.Add("/report?x=1", "")
	f.Add("/%E2%80%A9", "a <b> \"c\" \\d")
	f.Add("/x", "\x00\x1f\xc3\x28")
	ps := cutPaywalls(f)
	f.Fuzz(func(t *testing.T, path, msg string) {
		r, err := http.NewRequest(http.MethodGet, "http://shop.example/", nil)
		if err != nil {
			t.Skip()
		}
		r.URL.Path, r.URL.RawQuery = "/"+path, ""
		for name, p := range ps {
			cut, full := render(p, r, http.StatusPaymentRequired, msg)
			sameAnswer(t, name, cut, full)
		}
	})
}

// noFacilitator refuses everything: the 402 tests call none.
type noFacilitator struct{}

func (noFacilitator) Verify(context.Context, *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return nil, errors.New("not called")
}

func (noFacilitator) Settle(context.Context, *x402.SettleRequest) (*x402.SettleResponse, error) {
	return nil, errors.New("not called")
}

// noIDs is an empty payment-identifier index: the 402 tests call none.
type noIDs struct{}

func (noIDs) Lookup(context.Context, string, string) (*PaymentIDEntry, error) { return nil, nil }
func (noIDs) Bind(context.Context, string, string, [32]byte) (PaymentIDEntry, error) {
	return PaymentIDEntry{}, errors.New("not called")
}
func (noIDs) Serve(context.Context, string, string, [32]byte, json.RawMessage) error { return nil }
func (noIDs) Release(context.Context, string, string, [32]byte) error                { return nil }

// BenchmarkChallengeBytes writes a route's 402 to a JSON client from the
// cut bytes and, for comparison in the same run, by rendering it in full.
func BenchmarkChallengeBytes(b *testing.B) {
	p := cutPaywalls(b)["v1 and v2"]
	r := httptest.NewRequest(http.MethodGet, "http://shop.example/report?city=paris", nil)
	w := &discardWriter{h: http.Header{}}
	for _, mode := range []string{"cut", "full"} {
		b.Run(mode, func(b *testing.B) {
			saved := p.challengeBytes
			if mode == "full" {
				p.challengeBytes = nil
			}
			defer func() { p.challengeBytes = saved }()
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				p.challenge(w, r, http.StatusPaymentRequired, "")
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps only its header.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

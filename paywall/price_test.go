package paywall_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// pathPricer prices /cheap at 0.01, /dear at 0.02 (as an amount), and
// answers the rest as its path says: /down with ErrPriceUnavailable, and
// /price/X with the price X.
func pathPricer(r *http.Request) (paywall.Quote, error) {
	switch p := r.URL.Path; {
	case p == "/cheap":
		return paywall.Quote{Price: "0.01"}, nil
	case p == "/dear":
		return paywall.Quote{Amount: "20000", Description: "the dear report"}, nil
	case p == "/down":
		return paywall.Quote{}, fmt.Errorf("price service: %w", paywall.ErrPriceUnavailable)
	case strings.HasPrefix(p, "/price/"):
		return paywall.Quote{Price: strings.TrimPrefix(p, "/price/")}, nil
	case strings.HasPrefix(p, "/amount/"):
		return paywall.Quote{Amount: strings.TrimPrefix(p, "/amount/")}, nil
	}
	return paywall.Quote{}, fmt.Errorf("no price for %s", r.URL.Path)
}

// challengeOf is the offer of the 402 that path answers without payment.
func challengeOf(t *testing.T, url string) (*x402.PaymentRequired, x402.PaymentRequirements) {
	t.Helper()
	resp, _ := do(t, url, "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if resp.StatusCode != http.StatusPaymentRequired || err != nil || len(pr.Accepts) != 1 {
		t.Fatalf("GET %s: %d %v %+v", url, resp.StatusCode, err, pr)
	}
	return pr, pr.Accepts[0]
}

// TestPricePerRequest: one paywall, two prices. Each 402 carries its
// request's price; a payment signed for the cheap request is refused on the
// dear one (amount_mismatch) and nobody's balance moves; a price that is
// not available or not a price answers 503 or 500, never the content.
func TestPricePerRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var served atomic.Int32
	offer := e.offer
	offer.Amount = "" // priced per request
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		report(w, r)
	}), func(c *paywall.Config) { c.Accepts, c.Pricer = []x402.PaymentRequirements{offer}, pathPricer })

	cheapPR, cheap := challengeOf(t, srv.URL+"/cheap")
	dearPR, dear := challengeOf(t, srv.URL+"/dear")
	if cheap.Amount != "10000" || dear.Amount != "20000" || cheapPR.Resource.Description != "a paid report" || dearPR.Resource.Description != "the dear report" {
		t.Fatalf("cheap %s %q, dear %s %q", cheap.Amount, cheapPR.Resource.Description, dear.Amount, dearPR.Resource.Description)
	}

	key := e.fund(30_000)
	payer := crypto.PubkeyToAddress(key.PublicKey)
	merchantBefore := e.balance(e.merchant)
	pay := func(offer x402.PaymentRequirements) string {
		tr := &client.Transport{Key: key, MaxAmount: big.NewInt(20_000)}
		p, err := tr.Pay(&x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{offer}}, &offer)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		return h
	}

	// The attack: the cheap request's payment on the dear request.
	resp, body := do(t, srv.URL+"/dear", pay(cheap))
	if resp.StatusCode != http.StatusPaymentRequired || !strings.HasPrefix(challengeError(t, resp), string(x402.ReasonAmountMismatch)) || strings.Contains(body, "paid content") {
		t.Fatalf("cheap payment on the dear request: %d %q", resp.StatusCode, body)
	}
	if served.Load() != 0 || e.balance(payer).Int64() != 30_000 || e.balance(e.merchant).Cmp(merchantBefore) != 0 {
		t.Fatalf("served %d times, payer has %s", served.Load(), e.balance(payer))
	}

	// Each request paid at its own price.
	for _, tc := range []struct {
		path  string
		offer x402.PaymentRequirements
	}{{"/dear", dear}, {"/cheap", cheap}} {
		resp, body := do(t, srv.URL+tc.path, pay(tc.offer))
		if receipt, ok, err := client.Receipt(resp); resp.StatusCode != 200 || body != `{"report":"paid content"}` || !ok || err != nil || !receipt.Success {
			t.Fatalf("%s paid: %d %q %+v %v", tc.path, resp.StatusCode, body, receipt, err)
		}
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), merchantBefore); got.Int64() != 30_000 || e.balance(payer).Sign() != 0 {
		t.Fatalf("merchant got %s, payer has %s left", got, e.balance(payer))
	}

	// No price, no access: a valid payment for the configured asset is
	// refused when the request's price is not known.
	served.Store(0)
	spare := e.fund(10_000)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/down", http.StatusServiceUnavailable},
		{"/unknown", http.StatusInternalServerError},
		{"/price/0", http.StatusInternalServerError},
		{"/price/0.0000001", http.StatusInternalServerError},
		{"/price/-1", http.StatusInternalServerError},
		{"/price/abc", http.StatusInternalServerError},
		{"/price/%20", http.StatusInternalServerError},
		{"/amount/0", http.StatusInternalServerError},
		{"/amount/1e6", http.StatusInternalServerError},
		{"/amount/" + strings.Repeat("9", 79), http.StatusInternalServerError},
	} {
		for _, payment := range []string{"", e.paidHeader(spare, e.offer)} {
			resp, body := do(t, srv.URL+tc.path, payment)
			var answer struct{ Error string }
			if resp.StatusCode != tc.status || json.Unmarshal([]byte(body), &answer) != nil || answer.Error == "" || resp.Header.Get(x402.HeaderPaymentRequired) != "" {
				t.Fatalf("%s (paid %v): %d %q, want %d JSON", tc.path, payment != "", resp.StatusCode, body, tc.status)
			}
			if tc.status == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
				t.Fatalf("%s: 503 without Retry-After", tc.path)
			}
		}
	}
	if served.Load() != 0 || e.balance(crypto.PubkeyToAddress(spare.PublicKey)).Int64() != 10_000 {
		t.Fatalf("served %d times without a price", served.Load())
	}
}

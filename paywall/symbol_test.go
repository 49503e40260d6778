package paywall_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestParseAssetPrice: a price in whole tokens, or in dollars for a token
// pegged to the dollar, converts to atomic units; a price in dollars of a
// token that is not pegged is refused with what to write instead, and so
// is anything that is not a price.
func TestParseAssetPrice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		price    string
		decimals uint8
		usd      bool
		want     string // the amount, or in the error
		ok       bool
	}{
		{"0.01", 6, false, "10000", true},
		{"0.01", 6, true, "10000", true},
		{"$0.01", 6, true, "10000", true},
		{"$0.001", 6, true, "1000", true},
		{"$1", 18, true, "1000000000000000000", true},
		{"$0.01", 6, false, `price "$0.01" is in US dollars, but the token is not one known to be pegged 1:1 to the dollar; give the price in whole tokens (such as "0.01")`, false},
		{"$0.0000001", 6, true, "more than 6 decimal places", false},
		{"$$0.01", 6, true, "not a decimal amount", false},
		{"$", 6, true, "not a decimal amount", false},
		{"$-1", 6, true, "not a decimal amount", false},
		{"$0", 6, true, "must be greater than zero", false},
		{"0.01$", 6, true, "not a decimal amount", false},
		{"USD 0.01", 6, true, "not a decimal amount", false},
	} {
		got, err := paywall.ParseAssetPrice(tc.price, tc.decimals, tc.usd)
		switch {
		case tc.ok && (err != nil || got != tc.want):
			t.Errorf("ParseAssetPrice(%q, %d, %v) = %q, %v; want %s", tc.price, tc.decimals, tc.usd, got, err, tc.want)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("ParseAssetPrice(%q, %d, %v) = %q, %v; want an error with %q", tc.price, tc.decimals, tc.usd, got, err, tc.want)
		}
	}
	if _, err := paywall.ParsePrice("$0.01", 6); err == nil {
		t.Error("ParsePrice, which knows no peg, took a price in dollars")
	}
}

// FuzzParseAssetPrice: whatever the input, a price either is refused or
// converts to a positive amount that formats back to the number given,
// and a price in dollars converts only for a pegged token, to what the
// number converts to in whole tokens.
func FuzzParseAssetPrice(f *testing.F) {
	for _, s := range []string{"0.01", "$0.01", "$", "$$1", "$0", "1.", "$.5", "$1e3", "$ 1"} {
		f.Add(s, uint8(6), true)
	}
	f.Fuzz(func(t *testing.T, price string, decimals uint8, usd bool) {
		decimals %= 40
		got, err := paywall.ParseAssetPrice(price, decimals, usd)
		if err != nil {
			return
		}
		number, dollars := strings.CutPrefix(price, "$")
		if dollars && !usd {
			t.Fatalf("%q converted for a token not pegged to the dollar", price)
		}
		whole, err := paywall.ParsePrice(number, decimals)
		if err != nil || whole != got {
			t.Fatalf("%q: %q, but %q in whole tokens is %q (%v)", price, got, number, whole, err)
		}
		v, err := x402.ParseAmount(got)
		if err != nil || v.Sign() <= 0 {
			t.Fatalf("%q: amount %q (%v)", price, got, err)
		}
	})
}

// TestSymbolAndDollars: the browser page names the token by its symbol,
// not its address, and a Pricer may quote in dollars an asset pegged to
// the dollar, but not one that is not (500, never free).
func TestSymbolAndDollars(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	asset := strings.ToLower(e.offer.Asset)
	offer := e.offer
	offer.Amount = ""
	srv := e.serve(report, func(c *paywall.Config) {
		c.Accepts = []x402.PaymentRequirements{offer}
		c.AssetSymbols = map[string]string{asset: "dUSD"}
		c.USDAssets = map[string]bool{asset: true}
		c.Pricer = func(r *http.Request) (paywall.Quote, error) { return paywall.Quote{Price: "$0.01"}, nil }
	})
	req, _ := http.NewRequest("GET", srv.URL+"/report", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired || !strings.Contains(string(page), `<span class="price">0.01 dUSD</span>`) {
		t.Fatalf("page: %d\n%s\nwant the price as 0.01 dUSD (the address stays in the script's data, which signs for it)", resp.StatusCode, page)
	}
	_, o := challengeOf(t, srv.URL+"/report")
	if o.Amount != "10000" {
		t.Fatalf("$0.01 offered as %s atomic units, want 10000", o.Amount)
	}

	notPegged := e.serve(report, func(c *paywall.Config) {
		c.Accepts = []x402.PaymentRequirements{offer}
		c.Pricer = func(r *http.Request) (paywall.Quote, error) { return paywall.Quote{Price: "$0.01"}, nil }
	})
	resp, body := do(t, notPegged.URL+"/report", "")
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("a price in dollars of a token not pegged: %d %s, want 500", resp.StatusCode, body)
	}
}

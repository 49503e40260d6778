package dashboard

import (
	"bytes"
	"context"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/webhook"
)

func TestReadable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v        string
		decimals uint8
		usd      bool
		want     string
	}{
		{"10000", 6, true, "0.01"},
		{"1234567", 6, true, "≈1.23"},
		{"1235000", 6, true, "≈1.24"}, // half up
		{"1000000000000000000", 18, false, "1"},
		{"1234567890123456789", 18, false, "≈1.2346"}, // no 18-decimal ETH
		{"123456789012345", 18, false, "≈0.000123"},
		{"1", 18, false, "≈0"}, // 3 significant digits stop at 8 decimals
		{"5", 6, true, "0.000005"},
		{"-5", 6, true, "-0.000005"},
		{"-1234567", 6, true, "≈-1.23"},
		{"120", 0, false, "120"},
	} {
		v, _ := new(big.Int).SetString(tc.v, 10)
		if got := readable(v, tc.decimals, tc.usd); got != tc.want {
			t.Errorf("readable(%s, %d, %v) = %q, want %q", tc.v, tc.decimals, tc.usd, got, tc.want)
		}
	}
}

// TestMerchantPages: revenue per route and payer in dUSD and USD, refused
// payments by reason and route with the last ones, failed settlements by
// code, webhook deliveries and explorer links, all escaped.
func TestMerchantPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	now := time.Now().UTC()
	alice, bob := common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")
	tx := f.settle(now.Add(-3*time.Minute), alice, 10_000, "", "http://shop/paid/report?x=1")
	f.settle(now.Add(-2*time.Minute), alice, 1_234_567, "", "http://shop/paid/big")
	f.settle(now.Add(-time.Minute), bob, 10_000, "", "http://shop/paid/report")
	f.settle(now.Add(-30*time.Second), bob, 10_000, "insufficient_funds", "http://shop/paid/report")
	f.settle(now.AddDate(0, 0, -10), bob, 999_000_000, "", "http://shop/paid/old") // outside 7 days

	rep, err := f.d.revenueReport(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count != 3 || rep.USD != "1254567000000000000" || rep.USDDisplay != "≈$1.25" {
		t.Errorf("the total: %d payments, %s USD (%s)", rep.Count, rep.USD, rep.USDDisplay)
	}
	if len(rep.Routes) != 2 || rep.Routes[0].Key != "/paid/big" || rep.Routes[1].Key != "/paid/report" || rep.Routes[1].Count != 2 || rep.Routes[1].USDDisplay != "$0.02" {
		t.Errorf("per route: %+v", rep.Routes)
	}
	if len(rep.Payers) != 2 || rep.Payers[0].Key != alice.Hex() || rep.Payers[0].Revenue[0].Display != "≈1.2446 dUSD" && rep.Payers[0].Revenue[0].Display != "≈1.24 dUSD" {
		t.Errorf("per payer: %+v", rep.Payers)
	}

	refusals, err := store.OpenRefusals(f.st)
	if err != nil {
		t.Fatal(err)
	}
	refusals.Record(store.Refusal{Time: now, Reason: "signature_invalid", Route: "/paid/<script>alert(1)</script>", Payer: bob.Hex(), Amount: "10000", Asset: f.token.Hex(), Scheme: "exact"})
	if err := refusals.Flush(); err != nil {
		t.Fatal(err)
	}
	f.d.cfg.Refusals = refusals.Summary
	f.d.cfg.Explorer = "https://basescan.org/"
	f.d.cfg.Deliveries = func() ([]webhook.Delivery, error) {
		return []webhook.Delivery{{Event: webhook.Event{ID: "settled_1", Type: "settled", Transaction: tx.Hex()}, Webhook: "shop/<b>events</b>", State: "delivered", Attempts: 2, Status: 200, Created: now}}, nil
	}
	c := webClient{f: f, user: "admin"}
	for path, want := range map[string][]string{
		"/revenue?days=7": {"/paid/big", "≈1.24 dUSD", "$0.02", `href="https://basescan.org/address/` + alice.Hex()},
		"/revenue":        {"/paid/old"},
		"/refused":        {"signature_invalid", "&lt;script&gt;", "0.01 dUSD", "insufficient_funds", `href="https://basescan.org/address/` + bob.Hex()},
		"/payments":       {`href="https://basescan.org/tx/` + tx.Hex()},
		"/webhooks":       {"settled_1", "delivered", "shop/&lt;b&gt;events&lt;/b&gt;", `href="https://basescan.org/tx/` + tx.Hex()},
		"/":               {`href="/refused"`, `href="/webhooks"`},
	} {
		w := c.do("GET", path, nil, "none")
		if w.Code != 200 {
			t.Fatalf("GET %s: %d\n%s", path, w.Code, w.Body)
		}
		for _, s := range want {
			if !strings.Contains(w.Body.String(), s) {
				t.Errorf("GET %s has no %q", path, s)
			}
		}
		if strings.Contains(w.Body.String(), "<script>alert") {
			t.Errorf("GET %s: a route is not escaped", path)
		}
	}
	if w := c.do("GET", "/revenue?days=5", nil, "none"); w.Code != 400 {
		t.Errorf("days=5: %d", w.Code)
	}
	// An explorer that is not a web URL is never a link a click runs.
	f.d.cfg.Explorer = "javascript:alert(1)//"
	if w := c.do("GET", "/payments", nil, "none"); strings.Contains(w.Body.String(), `href="javascript:`) {
		t.Error("a javascript: explorer became a link")
	}
}

var hrefs = regexp.MustCompile(`href="(/[^"?#]*)`)

// TestNoLinkToNotFound follows every link of every page of a dashboard
// without a paymaster and without webhooks, and of one with both: none
// leads to a page that is not there, and the projects and keys are linked
// only with a paymaster.
func TestNoLinkToNotFound(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.settle(time.Now().UTC().Add(-time.Minute), common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), 10_000, "", "http://shop/paid/report")
	without, err := New(Config{Payments: f.st, Audit: f.d.cfg.Audit, Network: "eip155:31337", Secret: bytes.Repeat([]byte{7}, 32), Balances: f.d.cfg.Balances})
	if err != nil {
		t.Fatal(err)
	}
	with := f.d
	with.cfg.Deliveries = func() ([]webhook.Delivery, error) { return nil, nil }
	for _, tc := range []struct {
		name      string
		d         *Dashboard
		sponsored bool
	}{{"without a paymaster", without, false}, {"with a paymaster and webhooks", with, true}} {
		c := webClient{f: &fixture{t: t, web: tc.d.Web("/")}, user: "admin"}
		seen := map[string]bool{}
		queue := []string{"/"}
		for len(queue) > 0 {
			path := queue[0]
			queue = queue[1:]
			if seen[path] {
				continue
			}
			seen[path] = true
			w := c.do("GET", path, nil, "none")
			if w.Code != 200 {
				t.Errorf("%s: GET %s (linked): %d", tc.name, path, w.Code)
				continue
			}
			if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
				continue
			}
			for _, m := range hrefs.FindAllStringSubmatch(w.Body.String(), -1) {
				queue = append(queue, m[1])
			}
		}
		if seen["/projects"] != tc.sponsored || seen["/keys"] != tc.sponsored {
			t.Errorf("%s: projects linked %v, keys %v", tc.name, seen["/projects"], seen["/keys"])
		}
		if seen["/webhooks"] != tc.sponsored {
			t.Errorf("%s: webhooks linked %v", tc.name, seen["/webhooks"])
		}
		if !seen["/revenue"] || !seen["/refused"] {
			t.Errorf("%s: the merchant's pages are not linked: %v", tc.name, seen)
		}
	}
}

// TestMerchantAPI: the admin API's revenue and refusals, exact amounts.
func TestMerchantAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	alice := common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	f.settle(time.Now().UTC().Add(-time.Minute), alice, 1_234_567, "", "http://shop/paid/big")
	var rep RevenueReport
	if code := f.call("GET", "/revenue?days=1", "", &rep); code != 200 || rep.Count != 1 || rep.USD != "1234567000000000000" || len(rep.Routes) != 1 || rep.Routes[0].Revenue[0].Amount != "1234567" {
		t.Errorf("GET /revenue: %d %+v", code, rep)
	}
	var e struct{ Code string }
	if code := f.call("GET", "/revenue?days=2", "", &e); code != 400 || e.Code == "" {
		t.Errorf("GET /revenue?days=2: %d %+v", code, e)
	}
	var s store.RefusalSummary
	if code := f.call("GET", "/refusals", "", &s); code != 200 || s.Counts == nil || s.Recent == nil {
		t.Errorf("GET /refusals without refusals: %d %+v", code, s)
	}
}

// TestUSDPeggedIsTheCallers: a token is shown in dollars only when its
// Asset says so (the caller's table of well-known tokens): a token that
// merely calls itself USDC is not taken for a dollar.
func TestUSDPeggedIsTheCallers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a    Asset
		want bool
	}{
		{Asset{Symbol: "USDC"}, false},
		{Asset{Symbol: "dUSD"}, false},
		{Asset{Symbol: "USDC", USD: true}, true},
	} {
		if got := USDPegged(tc.a); got != tc.want {
			t.Errorf("USDPegged(%+v) = %v, want %v", tc.a, got, tc.want)
		}
	}
}

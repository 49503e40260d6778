package caddymodule

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// pricesCaddyfile prices /chat per model, from the merchant's own table:
// the client names a model (X-Model), map turns it into a price, and a
// model the table does not know, or whose entry is not a price, has none.
const pricesCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		store_path {{store}}
	}
}

http://127.0.0.1:{{upstream}} {
	respond "answer of {http.request.header.X-Model}"
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	map {http.request.header.X-Model} {model_price} {
		small 0.01
		large 0.02
		broken 0.01.1
		zero 0
		blank ""
	}
	handle /chat {
		x402 {model_price} {
			pay_to {{merchant}}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
	handle /atomic {
		x402 {
			amount {vars.atomic}
			pay_to {{merchant}}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
	vars /atomic atomic 15000
}
`

// TestPlaceholderPrice: one Caddy route at two prices, set by map from
// the request. Each 402 carries its request's price; a payment signed for
// the cheap request is refused on the dear one (amount_mismatch) with
// every balance unchanged; each request paid at its own price is served
// and the merchant gets exactly that; a placeholder that resolves to no
// price (unknown model, empty, zero, not a number) answers 500 JSON, paid
// or not, and serves nothing.
func TestPlaceholderPrice(t *testing.T) {
	ports := map[string]int{}
	for _, name := range []string{"admin", "chain", "upstream", "api"} {
		ports[name] = freePort(t)
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	cf := strings.ReplaceAll(pricesCaddyfile, "{{store}}", filepath.Join(t.TempDir(), "x402.db"))
	cf = strings.ReplaceAll(cf, "{{merchant}}", merchant.Hex())
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "prices.Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	t.Cleanup(func() { caddy.Stop() })
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	e := &e2e{t: t, api: fmt.Sprintf("http://127.0.0.1:%d", ports["api"]), eth: eth,
		token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"), merchant: merchant}
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 5)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)

	// challenge is path's 402 for model, and its exact offer.
	challenge := func(t *testing.T, path, model string) (*x402.PaymentRequired, x402.PaymentRequirements) {
		t.Helper()
		resp, body := e.get(path, "", "X-Model", model)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != http.StatusPaymentRequired || err != nil || len(pr.Accepts) != 1 {
			t.Fatalf("%s %s unpaid: %d %v %s", path, model, resp.StatusCode, err, body)
		}
		return pr, pr.Accepts[0]
	}
	pay := func(t *testing.T, pr *x402.PaymentRequired, offer x402.PaymentRequirements) string {
		t.Helper()
		p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(20_000)}).Pay(pr, &offer)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		return h
	}

	smallPR, small := challenge(t, "/chat", "small")
	largePR, large := challenge(t, "/chat", "large")
	atomicPR, atomic := challenge(t, "/atomic", "")
	if small.Amount != "10000" || large.Amount != "20000" || atomic.Amount != "15000" || small.Scheme != x402.SchemeExact {
		t.Fatalf("prices: small %s, large %s, atomic %s", small.Amount, large.Amount, atomic.Amount)
	}

	t.Run("the cheap payment on the dear request is refused", func(t *testing.T) {
		payerBefore, merchantBefore := e.balance(payerAddr), e.balance(merchant)
		resp, body := e.get("/chat", pay(t, smallPR, small), "X-Model", "large")
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != http.StatusPaymentRequired || err != nil || !strings.HasPrefix(pr.Error, string(x402.ReasonAmountMismatch)) || strings.Contains(body, "answer of") {
			t.Fatalf("%d %q %+v", resp.StatusCode, body, pr)
		}
		if e.balance(payerAddr).Cmp(payerBefore) != 0 || e.balance(merchant).Cmp(merchantBefore) != 0 {
			t.Fatal("a refused payment moved tokens")
		}
	})
	t.Run("each request is paid at its own price", func(t *testing.T) {
		for _, tc := range []struct {
			path, model string
			pr          *x402.PaymentRequired
			offer       x402.PaymentRequirements
			want        int64
		}{
			{"/chat", "large", largePR, large, 20_000},
			{"/chat", "small", smallPR, small, 10_000},
			{"/atomic", "", atomicPR, atomic, 15_000},
		} {
			merchantBefore := e.balance(merchant)
			resp, body := e.get(tc.path, pay(t, tc.pr, tc.offer), "X-Model", tc.model)
			receipt, ok, err := client.Receipt(resp)
			if resp.StatusCode != 200 || body != "answer of "+tc.model || !ok || err != nil || !receipt.Success {
				t.Fatalf("%s %s: %d %q %+v %v", tc.path, tc.model, resp.StatusCode, body, receipt, err)
			}
			if r, err := waitReceipt(eth, receipt.TransactionHash); err != nil || r.Status != 1 {
				t.Fatalf("settlement %s: %v %v", receipt.TransactionHash, r, err)
			}
			if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != tc.want {
				t.Fatalf("%s %s: the merchant got %s, want %d", tc.path, tc.model, got, tc.want)
			}
		}
	})
	t.Run("no price, no access", func(t *testing.T) {
		payerBefore := e.balance(payerAddr)
		payment := pay(t, smallPR, small)
		for _, model := range []string{"unknown", "", "broken", "zero", "blank"} {
			for _, p := range []string{"", payment} {
				resp, body := e.get("/chat", p, "X-Model", model)
				var answer struct{ Error string }
				if resp.StatusCode != http.StatusInternalServerError || json.Unmarshal([]byte(body), &answer) != nil || answer.Error == "" ||
					resp.Header.Get(x402.HeaderPaymentRequired) != "" || strings.Contains(body, "answer of") {
					t.Fatalf("model %q (paid %v): %d %q", model, p != "", resp.StatusCode, body)
				}
			}
		}
		if e.balance(payerAddr).Cmp(payerBefore) != 0 {
			t.Fatal("a request without a price moved tokens")
		}
	})
}

const priceServiceCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		store_path {{store}}
	}
}

http://127.0.0.1:{{upstream}} {
	respond "answer of {http.request.header.X-Model}"
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /svc {
		x402 {
			pay_to {{merchant}}
			price_service {{service}} {
				headers X-Model
				cache 1h
				# Long, so that a loaded machine never sees the fallback instead.
				timeout 1m
				fallback 0.03
			}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
	handle /strict {
		x402 {
			pay_to {{merchant}}
			price_service {{service}} {
				header X-Model
				timeout 300ms
			}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
}
`

// TestPriceService: routes priced by an HTTP service (a real server in the
// test, stopped halfway). The service gets the method, path and the named
// header only; its answers are cached; an answer that is no price, a
// service that hangs past the timeout, and a service that is down give the
// route's fallback price, or 503 with Retry-After without one, never the
// resource for free; a payment for a cheaper answer is refused.
func TestPriceService(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	calls := map[string]int{}
	var leaked []string
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q paywall.PriceQuery
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil || r.Method != http.MethodPost || q.Method != http.MethodGet {
			http.Error(w, "bad query", http.StatusBadRequest)
			return
		}
		model := q.Headers["X-Model"]
		mu.Lock()
		calls[q.Path+" "+model]++
		for name := range q.Headers {
			if name != "X-Model" {
				leaked = append(leaked, name)
			}
		}
		mu.Unlock()
		switch model {
		case "small":
			io.WriteString(w, `{"price":"0.01"}`)
		case "large":
			io.WriteString(w, `{"amount":"20000","description":"the large model"}`)
		case "garbage":
			io.WriteString(w, `{"price":"0.0000001"}`)
		case "hang":
			<-release
		default:
			http.Error(w, "unknown model", http.StatusNotFound)
		}
	}))
	t.Cleanup(service.Close)
	t.Cleanup(func() { close(release) }) // runs first: the hung handler returns

	ports := map[string]int{}
	for _, name := range []string{"admin", "chain", "upstream", "api"} {
		ports[name] = freePort(t)
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")
	cf := strings.ReplaceAll(priceServiceCaddyfile, "{{store}}", filepath.Join(t.TempDir(), "x402.db"))
	cf = strings.ReplaceAll(cf, "{{merchant}}", merchant.Hex())
	cf = strings.ReplaceAll(cf, "{{service}}", service.URL)
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "pricesvc.Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	t.Cleanup(func() { caddy.Stop() })
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	e := &e2e{t: t, api: fmt.Sprintf("http://127.0.0.1:%d", ports["api"]), eth: eth, admin: fmt.Sprintf("http://127.0.0.1:%d", ports["admin"]),
		token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"), merchant: merchant}
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 6)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)

	challenge := func(t *testing.T, path, model string) (*x402.PaymentRequired, x402.PaymentRequirements) {
		t.Helper()
		resp, body := e.get(path, "", "X-Model", model, "Authorization", "Bearer not-for-the-price-service")
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != http.StatusPaymentRequired || err != nil || len(pr.Accepts) != 1 {
			t.Fatalf("%s %s unpaid: %d %v %s", path, model, resp.StatusCode, err, body)
		}
		return pr, pr.Accepts[0]
	}
	pay := func(t *testing.T, pr *x402.PaymentRequired, offer x402.PaymentRequirements) string {
		t.Helper()
		p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(30_000)}).Pay(pr, &offer)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		return h
	}
	// paid pays path at offer and checks the merchant got want.
	paid := func(t *testing.T, path, model string, pr *x402.PaymentRequired, offer x402.PaymentRequirements, want int64) {
		t.Helper()
		before := e.balance(merchant)
		resp, body := e.get(path, pay(t, pr, offer), "X-Model", model)
		receipt, ok, err := client.Receipt(resp)
		if resp.StatusCode != 200 || body != "answer of "+model || !ok || err != nil || !receipt.Success {
			t.Fatalf("%s %s paid: %d %q %+v %v", path, model, resp.StatusCode, body, receipt, err)
		}
		if r, err := waitReceipt(eth, receipt.TransactionHash); err != nil || r.Status != 1 {
			t.Fatalf("settlement: %v %v", r, err)
		}
		if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != want {
			t.Fatalf("%s %s: the merchant got %s, want %d", path, model, got, want)
		}
	}
	// unavailable checks that path answers 503 JSON with Retry-After for
	// model, paid or not, and serves nothing.
	unavailable := func(t *testing.T, path, model, payment string) {
		t.Helper()
		before := e.balance(payerAddr)
		for _, p := range []string{"", payment} {
			resp, body := e.get(path, p, "X-Model", model)
			var answer struct{ Error string }
			if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || json.Unmarshal([]byte(body), &answer) != nil ||
				answer.Error == "" || strings.Contains(body, "answer of") {
				t.Fatalf("%s %s (paid %v): %d %q", path, model, p != "", resp.StatusCode, body)
			}
		}
		if e.balance(payerAddr).Cmp(before) != 0 {
			t.Fatal("a request without a price moved tokens")
		}
	}

	smallPR, small := challenge(t, "/svc", "small")
	challenge(t, "/svc", "small")
	largePR, large := challenge(t, "/svc", "large")
	_, garbage := challenge(t, "/svc", "garbage")
	if small.Amount != "10000" || large.Amount != "20000" || largePR.Resource.Description != "the large model" || garbage.Amount != "30000" {
		t.Fatalf("prices: small %s, large %s %q, garbage %s (the fallback)", small.Amount, large.Amount, largePR.Resource.Description, garbage.Amount)
	}
	mu.Lock()
	if calls["/svc small"] != 1 || len(leaked) != 0 {
		t.Fatalf("calls %v (the second small should come from the cache), headers leaked %v", calls, leaked)
	}
	mu.Unlock()

	t.Run("the cheap answer's payment on the dear request is refused", func(t *testing.T) {
		payerBefore, merchantBefore := e.balance(payerAddr), e.balance(merchant)
		resp, body := e.get("/svc", pay(t, smallPR, small), "X-Model", "large")
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != http.StatusPaymentRequired || err != nil || !strings.HasPrefix(pr.Error, string(x402.ReasonAmountMismatch)) || strings.Contains(body, "answer of") {
			t.Fatalf("%d %q %+v", resp.StatusCode, body, pr)
		}
		if e.balance(payerAddr).Cmp(payerBefore) != 0 || e.balance(merchant).Cmp(merchantBefore) != 0 {
			t.Fatal("a refused payment moved tokens")
		}
	})
	t.Run("paid at the service's price", func(t *testing.T) {
		paid(t, "/svc", "large", largePR, large, 20_000)
	})
	t.Run("no valid answer without a fallback is 503", func(t *testing.T) {
		// Counted as unavailable, paid or not (the metrics are the
		// process's: count the difference).
		result := map[string]string{"result": resultUnavailable}
		before := e.metrics().sum("caddy_x402_payments_total", result)
		payment := pay(t, smallPR, small)
		for _, model := range []string{"garbage", "unknown", "hang"} {
			unavailable(t, "/strict", model, payment)
		}
		if got := e.metrics().sum("caddy_x402_payments_total", result) - before; got != 6 {
			t.Fatalf("caddy_x402_payments_total{result=%q} went up by %v, want 6", resultUnavailable, got)
		}
	})
	t.Run("the service down", func(t *testing.T) {
		service.CloseClientConnections()
		service.Listener.Close()
		unavailable(t, "/strict", "small", pay(t, smallPR, small))
		// The cache still answers what it has, the fallback the rest.
		if _, o := challenge(t, "/svc", "small"); o.Amount != "10000" {
			t.Fatalf("cached small: %s", o.Amount)
		}
		pr, o := challenge(t, "/svc", "medium")
		if o.Amount != "30000" {
			t.Fatalf("fallback: %s", o.Amount)
		}
		paid(t, "/svc", "medium", pr, o, 30_000)
	})
}

// TestPriceConfig: price_service reads its block, and a route refuses a
// price it cannot hold to: two prices, a URL that is not http(s), and
// aa-native at a price set per request.
func TestPriceConfig(t *testing.T) {
	t.Parallel()
	const payTo = "\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n"
	for _, tc := range []struct {
		name, input, want string // want: part of the error, or "" for none
	}{
		{"placeholder price", "x402 {vars.price} {" + payTo + "}", ""},
		{"placeholder amount", "x402 {" + payTo + " amount {http.request.header.X-Units}\n}", ""},
		{"price service", "x402 {" + payTo + " price_service http://127.0.0.1:4000/price {\n headers X-Model X-Region\n cache 30s\n timeout 1s\n fallback 0.05\n }\n}", ""},
		{"price service without a URL", "x402 {" + payTo + " price_service\n}", "price_service takes a URL"},
		{"price service with two URLs", "x402 {" + payTo + " price_service http://a http://b\n}", "price_service takes a URL"},
		{"unknown price service option", "x402 {" + payTo + " price_service http://a {\n retries 3\n }\n}", `unknown price_service option "retries"`},
		{"price service and a price", "x402 0.01 {" + payTo + " price_service http://127.0.0.1:4000\n}", "not two"},
		{"price service not http", "x402 {" + payTo + " price_service file:///etc/prices\n}", "want an http:// or https:// URL"},
		{"price service with aa-native", "x402 {" + payTo + " schemes aa-native\n price_service http://127.0.0.1:4000\n}", "aa-native needs a fixed price"},
		{"placeholder price with aa-native", "x402 {vars.price} {" + payTo + " schemes exact aa-native\n}", "aa-native needs a fixed price"},
		{"fixed price still checked", "x402 {" + payTo + " amount 0x10\n}", "x402 amount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var h Handler
			err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
			if err == nil {
				err = h.Validate()
			}
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	var h Handler
	if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 {" + payTo + " price_service http://127.0.0.1:4000/price {\n headers X-Model X-Region\n cache 30s\n timeout 1s\n fallback 0.05\n }\n}")); err != nil {
		t.Fatal(err)
	}
	s := h.PriceService
	if s == nil || s.URL != "http://127.0.0.1:4000/price" || len(s.Headers) != 2 || time.Duration(s.Cache) != 30*time.Second || time.Duration(s.Timeout) != time.Second || s.Fallback != "0.05" {
		t.Fatalf("parsed %+v", s)
	}
}

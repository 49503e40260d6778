package caddymodule

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

const uptoCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		asset dusd
		asset {{dpt}} "Devnet Permit Token" 1 6 permit2
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /bytes/* {
		x402 0.05 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto per_byte 0.000001
		}
		reverse_proxy {{upstream}}
	}
	handle /units/* {
		x402 0.05 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto usage_header X-Usage-Units 0.0001
		}
		reverse_proxy {{upstream}}
	}
	handle /fail/* {
		x402 0.05 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto per_byte 0.000001
		}
		reverse_proxy {{upstream}}
	}
	handle /huge/* {
		x402 0.001 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto per_byte 0.000001
		}
		reverse_proxy {{upstream}}
	}
}
`

// TestUptoThroughCaddy: upstream's @x402/fetch with @x402/evm's upto
// client pays routes that charge by usage under the price, on the devnet
// behind Caddy, approving Permit2 with an EIP-2612 permit in each payment.
// Per byte, the payer is charged the body's bytes; by the upstream's usage
// header, its units (and the client never sees the header); an upstream
// 500 is charged nothing and sends no transaction; a body past the maximum
// is charged the maximum. The payer pays, in all, exactly the sum.
func TestUptoThroughCaddy(t *testing.T) {
	dir := interopClients(t)
	var budget atomic.Value // the X402-Usage-Budget the units route's upstream was told
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/units/") {
			budget.Store(r.Header.Get(paywall.BudgetHeader))
		}
		switch {
		case strings.HasPrefix(r.URL.Path, "/bytes/"):
			fmt.Fprint(w, strings.Repeat("b", 1234))
		case strings.HasPrefix(r.URL.Path, "/units/"):
			w.Header().Set("X-Usage-Units", "37")
			fmt.Fprint(w, "thirty-seven units")
		case strings.HasPrefix(r.URL.Path, "/huge/"):
			// With its length: reverse_proxy flushes a response of unknown
			// length at once, as a stream.
			w.Header().Set("Content-Length", "5000")
			fmt.Fprint(w, strings.Repeat("h", 5000))
		default:
			http.Error(w, "upstream failure", http.StatusInternalServerError)
		}
	}))
	defer upstream.Close()

	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	payer := mustKey(t, 5)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)
	settler := crypto.PubkeyToAddress(mustKey(t, 0).PublicKey)
	dpt := wellknown.GenesisContracts().PermitToken
	cf := uptoCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{dpt}}", dpt.Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	rpcURL := fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])
	eth, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: dpt}
	merchantBefore, payerBefore := e.balance(merchant), e.balance(payerAddr)

	cmd := exec.Command("node", "upto.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BASE="+e.api, "PATHS=/bytes/a,/units/a,/fail/a,/huge/a", "RPC="+rpcURL, "ASSET="+dpt.Hex(),
		"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer)))
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	t.Logf("script: %s", out)
	var got struct {
		Results []struct {
			Path        string            `json:"path"`
			Status      int               `json:"status"`
			Bytes       int               `json:"bytes"`
			Headers     map[string]string `json:"headers"`
			Scheme      string            `json:"scheme"`
			Max         string            `json:"max"`
			Facilitator string            `json:"facilitator"`
			Permit      bool              `json:"permit"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("script output %s: %v", out, err)
	}
	want := map[string]struct {
		status int
		owed   int64
	}{
		"/bytes/a": {200, 1234},  // 1234 bytes at 1 unit
		"/units/a": {200, 3700},  // 37 units at 100
		"/fail/a":  {500, 0},     // the upstream failed
		"/huge/a":  {200, 1_000}, // 5000 bytes, cut at the 1000 the 0.001 maximum buys
	}
	var total int64
	for _, r := range got.Results {
		w := want[r.Path]
		total += w.owed
		if r.Status != w.status || r.Scheme != "upto" || common.HexToAddress(r.Facilitator) != settler {
			t.Errorf("%s: status %d, scheme %q, facilitator %s; want %d, upto, %s", r.Path, r.Status, r.Scheme, r.Facilitator, w.status, settler)
		}
		if _, leaked := r.Headers["x-usage-units"]; leaked {
			t.Errorf("%s: the client saw the upstream's usage header", r.Path)
		}
		// A response short enough to hold carries its settlement as a
		// header, which @x402/fetch (Node's fetch) reads; it cannot read
		// trailers.
		if w.status == 200 {
			res, err := x402.DecodePaymentResponse(r.Headers["payment-response"])
			if err != nil || !res.Success || res.Amount != fmt.Sprint(w.owed) {
				t.Errorf("%s: PAYMENT-RESPONSE header %q as @x402/fetch read it: %+v %v", r.Path, r.Headers["payment-response"], res, err)
			}
		}
	}
	for _, r := range got.Results {
		if r.Path == "/huge/a" && (r.Bytes != 1_000 || r.Headers[strings.ToLower(paywall.BudgetTrailer)] != "exhausted") {
			t.Errorf("/huge/a: %d bytes, %s %q; want the 1000 bytes the maximum buys, and the cut said", r.Bytes, paywall.BudgetTrailer, r.Headers[strings.ToLower(paywall.BudgetTrailer)])
		}
	}
	if b, _ := budget.Load().(string); b != "500" {
		t.Errorf("the units route's upstream was told a budget of %q units, want 500 (0.05 at 0.0001)", b)
	}
	if len(got.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(got.Results), len(want))
	}
	if paid := new(big.Int).Sub(payerBefore, e.balance(payerAddr)); paid.Int64() != total {
		t.Errorf("the payer paid %s, want %d", paid, total)
	}
	if earned := new(big.Int).Sub(e.balance(merchant), merchantBefore); earned.Int64() != total {
		t.Errorf("the merchant earned %s, want %d", earned, total)
	}
}

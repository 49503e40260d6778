package caddymodule

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

const payIDCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		reverse_proxy {{upstream}}
	}
}
`

// interopClients returns ../interop with its pinned npm packages
// (@x402/fetch, @x402/extensions) installed.
func interopClients(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; .ci/run installs it")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "interop"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@x402", "extensions")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	return dir
}

// TestPaymentIdentifier: through Caddy on the devnet, @x402/fetch with
// @x402/extensions' payment-identifier client pays once under an
// identifier; the same signed payment presented again under it gets the
// original settlement result, not the paid content and not a second
// charge; a new payment under the same identifier gets a JSON 409 and is
// not charged. The upstream serves once and the merchant is paid once.
// Another payer's identical identifier is its own, and a malformed one is
// a JSON 400. Not parallel: Caddy runs one config at a time.
func TestPaymentIdentifier(t *testing.T) {
	dir := interopClients(t)
	var hits atomic.Int64
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/paid/fail" {
			http.Error(w, "upstream failure", http.StatusInternalServerError)
			return
		}
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"report":"`+paidMarker+`"}`)
	}))
	defer upstream.Close()

	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	payer, other := mustKey(t, 6), mustKey(t, 5)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)
	cf := payIDCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9")}
	merchantBefore, payerBefore := e.balance(merchant), e.balance(payerAddr)

	const id = "pay_e2e_0123456789abcdef"
	cmd := exec.Command("node", "payment-identifier.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "URL="+e.api+"/paid/report", "PAYMENT_ID="+id,
		"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer)))
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	type step struct {
		Status  int                  `json:"status"`
		Body    string               `json:"body"`
		Receipt *x402.SettleResponse `json:"receipt"`
	}
	var got struct {
		Declared struct {
			Info struct {
				Required *bool `json:"required"`
			} `json:"info"`
			Schema map[string]any `json:"schema"`
		} `json:"declared"`
		SentID     string `json:"sentId"`
		First      step   `json:"first"`
		Again      step   `json:"again"`
		Conflict   step   `json:"conflict"`
		SecondSent bool   `json:"secondSent"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("script output %s: %v", out, err)
	}
	t.Logf("script: %s", out)

	if r := got.Declared.Info.Required; r == nil || *r || got.Declared.Schema == nil || got.SentID != id {
		t.Fatalf("declaration %+v, the client sent id %q", got.Declared, got.SentID)
	}
	first := got.First
	if first.Status != 200 || !strings.Contains(first.Body, paidMarker) || first.Receipt == nil || !first.Receipt.Success ||
		!strings.EqualFold(first.Receipt.Payer, payerAddr.Hex()) {
		t.Fatalf("first payment: %+v", first)
	}
	if _, err := waitReceipt(eth, first.Receipt.TransactionHash); err != nil {
		t.Fatal(err)
	}
	// The same payment under the same identifier: the original result, as
	// a 409 that no client takes for the content.
	var replay struct {
		Error             string              `json:"error"`
		PaymentIdentifier string              `json:"paymentIdentifier"`
		Replayed          bool                `json:"replayed"`
		Settlement        x402.SettleResponse `json:"settlement"`
	}
	again := got.Again
	if again.Status != http.StatusConflict || strings.Contains(again.Body, paidMarker) || json.Unmarshal([]byte(again.Body), &replay) != nil ||
		!replay.Replayed || replay.Error != paywall.PaymentIDReplayed || replay.PaymentIdentifier != id || replay.Settlement.TransactionHash != first.Receipt.TransactionHash ||
		again.Receipt == nil || again.Receipt.TransactionHash != first.Receipt.TransactionHash || !again.Receipt.Success {
		t.Fatalf("the same payment again: %+v", again)
	}
	// A new payment under the same identifier: 409, nothing charged.
	var conflict struct{ Error, PaymentIdentifier string }
	if c := got.Conflict; !got.SecondSent || c.Status != 409 || c.Receipt != nil || json.Unmarshal([]byte(c.Body), &conflict) != nil ||
		conflict.Error != "payment_identifier_conflict" || conflict.PaymentIdentifier != id {
		t.Fatalf("another payment under the identifier (sent: %v): %+v", got.SecondSent, c)
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("the upstream served %d times, want once", n)
	}
	if d := new(big.Int).Sub(e.balance(merchant), merchantBefore); d.Int64() != 10_000 {
		t.Fatalf("the merchant got %s, want 10000 (paid once)", d)
	}
	if d := new(big.Int).Sub(payerBefore, e.balance(payerAddr)); d.Int64() != 10_000 {
		t.Fatalf("the payer paid %s, want 10000 (once)", d)
	}

	// withID signs a payment of key for the route and names it id.
	withID := func(key []byte, id string) string {
		k, _ := crypto.ToECDSA(key)
		h := e.payment(k, nil)
		p, err := x402.DecodePaymentPayload(h)
		if err != nil {
			t.Fatal(err)
		}
		ext, _ := json.Marshal(map[string]any{"payment-identifier": map[string]any{"info": map[string]any{"required": false, "id": id}}})
		p.Extensions = ext
		out, err := x402.EncodeHeader(p)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("another payer's identifier is its own", func(t *testing.T) {
		resp, body := e.get("/paid/report", withID(crypto.FromECDSA(other), id))
		receipt, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
		if resp.StatusCode != 200 || !strings.Contains(body, paidMarker) || err != nil || !receipt.Success {
			t.Fatalf("%d %q %v", resp.StatusCode, body, err)
		}
		if n := hits.Load(); n != 2 {
			t.Fatalf("the upstream served %d times, want 2", n)
		}
	})
	t.Run("an unsettled payment frees its identifier", func(t *testing.T) {
		const id = "pay_e2e_unsettled_0123456789"
		before := e.balance(payerAddr)
		resp, body := e.get("/paid/fail", withID(crypto.FromECDSA(payer), id))
		if resp.StatusCode != 500 || resp.Header.Get(x402.HeaderPaymentResponse) != "" {
			t.Fatalf("the failing route: %d %q", resp.StatusCode, body)
		}
		resp, body = e.get("/paid/report", withID(crypto.FromECDSA(payer), id))
		receipt, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
		if resp.StatusCode != 200 || !strings.Contains(body, paidMarker) || err != nil || !receipt.Success {
			t.Fatalf("a new payment under the freed identifier: %d %q %v", resp.StatusCode, body, err)
		}
		if _, err := waitReceipt(eth, receipt.TransactionHash); err != nil {
			t.Fatal(err)
		}
		if d := new(big.Int).Sub(before, e.balance(payerAddr)); d.Int64() != 10_000 {
			t.Fatalf("the payer paid %s, want 10000 (once)", d)
		}
		if n := hits.Load(); n != 3 {
			t.Fatalf("the upstream served %d times, want 3", n)
		}
	})
	t.Run("a malformed identifier is a JSON 400", func(t *testing.T) {
		for _, bad := range []string{"short", strings.Repeat("a", 129), "pay_has spaces_0123456"} {
			resp, body := e.get("/paid/report", withID(crypto.FromECDSA(payer), bad))
			if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(body, "payment-identifier") {
				t.Fatalf("%q: %d %q", bad, resp.StatusCode, body)
			}
		}
		if n := hits.Load(); n != 3 {
			t.Fatalf("the upstream served %d times, want 3", n)
		}
	})
}

package caddymodule

import (
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestReloadRemovesAssetMidPayment: a payment in an asset is verified and
// its request reaches the upstream; while the upstream works, a reload
// removes the asset. Whatever the reload does to the payment in flight,
// money and content go together: a 200 carries the upstream's content,
// a PAYMENT-RESPONSE and exactly the price moved to the merchant, once;
// anything else carries neither the content nor a transfer. After the
// reload the asset is neither offered nor settled.
func TestReloadRemovesAssetMidPayment(t *testing.T) {
	d := startChain(t, 84532)
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	payer := mustKey(t, 1)
	merchant := common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
	second := deployToken(t, d, eth, "Second USD", big.NewInt(1_000_000_000), crypto.PubkeyToAddress(payer.PublicKey))

	entered, release := make(chan struct{}, 1), make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-time.After(time.Minute): // bound: the test releases it well before
		}
		fmt.Fprint(w, "upstream content")
	}))
	t.Cleanup(upstream.Close)

	t.Setenv("X402_MIDPAY_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	api := freePort(t)
	store := filepath.ToSlash(filepath.Join(t.TempDir(), "midpay.db"))
	dUSD := fmt.Sprintf("asset %s %q %q 6", d.Token.Address.Hex(), d.Token.Name, d.Token.Version)
	secondAsset := fmt.Sprintf(`asset %s "Second USD" "1" 6`, second.Hex())
	config := func(assets ...string) string {
		cf := fmt.Sprintf(`{
	x402 {
		network eip155:84532
		rpc %s
		settler_key {env.X402_MIDPAY_SETTLER_KEY}
		store_path %s
`, d.URL, store)
		for _, a := range assets {
			cf += "\t\t" + a + "\n"
		}
		return cf + fmt.Sprintf(`	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to %s
	}
	reverse_proxy %s
}
`, api, merchant.Hex(), upstream.Listener.Addr())
	}
	if _, err := runCaddyfile(t, config(dUSD, secondAsset)); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	resp, body := httpGet(t, base, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatalf("402: %d %s (%v)", resp.StatusCode, body, err)
	}
	i := slices.IndexFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return common.HexToAddress(o.Asset) == second })
	if i < 0 {
		t.Fatalf("the 402 offers no %s: %+v", second, pr.Accepts)
	}
	p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
	if err != nil {
		t.Fatal(err)
	}
	header, _ := x402.EncodeHeader(p)
	payerBefore, merchantBefore := tokenBalance(t, eth, second, crypto.PubkeyToAddress(payer.PublicKey)), tokenBalance(t, eth, second, merchant)

	type answer struct {
		resp *http.Response
		body string
	}
	done := make(chan answer, 1)
	go func() {
		resp, body := httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: header})
		done <- answer{resp, body}
	}()
	select {
	case <-entered:
	case <-time.After(time.Minute):
		t.Fatal("the paid request did not reach the upstream in a minute")
	}
	if _, err := runCaddyfile(t, config(dUSD)); err != nil {
		t.Fatalf("reloading without the asset: %v", err)
	}
	close(release)
	var got answer
	select {
	case got = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("no answer to the paid request in 2 minutes")
	}
	paid := new(big.Int).Sub(payerBefore, tokenBalance(t, eth, second, crypto.PubkeyToAddress(payer.PublicKey)))
	received := new(big.Int).Sub(tokenBalance(t, eth, second, merchant), merchantBefore)
	res, _ := x402.DecodePaymentResponse(got.resp.Header.Get(x402.HeaderPaymentResponse))
	t.Logf("the payment in flight across the reload: %d, paid %s", got.resp.StatusCode, paid)
	// The settlement comes after the reload, under the new allowlist: it
	// is refused, so the upstream's answer is discarded and nothing is
	// charged (docs/configuration.md, Reloads).
	pr, err = x402.DecodePaymentRequired(got.resp.Header.Get(x402.HeaderPaymentRequired))
	if got.resp.StatusCode != http.StatusPaymentRequired || err != nil || res != nil && res.Success ||
		got.body == "upstream content" || paid.Sign() != 0 || received.Sign() != 0 {
		t.Fatalf("the payment across the reload: %d, body %q, settlement %+v, payer paid %s, merchant received %s; want a 402, no content and no transfer",
			got.resp.StatusCode, got.body, res, paid, received)
	}
	if !strings.Contains(pr.Error, "asset") {
		t.Errorf("the 402's error %q does not name the asset", pr.Error)
	}

	// The asset is gone: not offered, and a payment in it is refused.
	resp, _ = httpGet(t, base, nil)
	pr, err = x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return common.HexToAddress(o.Asset) == second }) {
		t.Fatalf("the removed asset is still offered: %+v", pr.Accepts)
	}
	p, err = (&client.Transport{Key: payer, MaxAmount: big.NewInt(1 << 62)}).Pay(&x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{p.Accepted}}, &p.Accepted)
	if err != nil {
		t.Fatal(err)
	}
	header, _ = x402.EncodeHeader(p)
	if resp, body := httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: header}); resp.StatusCode == http.StatusOK {
		t.Fatalf("a payment in the removed asset was served: %s", body)
	}
}

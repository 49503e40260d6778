package client

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestV1BodyPaysAsV2: on a route that v1 clients can pay too (a devnet
// standing for base-sepolia), the 402's body is the v1 challenge; this v2
// client reads PAYMENT-REQUIRED instead, pays in PAYMENT-SIGNATURE and
// gets the content and a PAYMENT-RESPONSE on eip155:84532.
func TestV1BodyPaysAsV2(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", ChainID: 84532})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	chain, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(chain.Close)
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fac, err := facilitator.New(ctx, facilitator.Config{
		Network: "eip155:84532", Chain: chain, Records: st, SettlerKey: d.Accounts[0].Key,
		Assets:         []facilitator.Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
		ReceiptTimeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fac.Close() })
	pw, err := paywall.New(paywall.Config{Facilitator: fac, Accepts: []x402.PaymentRequirements{{
		Scheme: x402.SchemeExact, Network: "eip155:84532", Amount: "10000", Asset: d.Token.Address.Hex(),
		PayTo: d.Accounts[2].Address.Hex(), Extra: &x402.Extra{Name: d.Token.Name, Version: d.Token.Version},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(pw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "paid content")
	})))
	t.Cleanup(srv.Close)

	unpaid, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		X402Version int `json:"x402Version"`
	}
	json.NewDecoder(unpaid.Body).Decode(&body)
	unpaid.Body.Close()
	if unpaid.StatusCode != http.StatusPaymentRequired || body.X402Version != 1 {
		t.Fatalf("unpaid: %d, body of version %d; want the v1 challenge", unpaid.StatusCode, body.X402Version)
	}

	c := &http.Client{Transport: &Transport{Key: d.Accounts[1].Key, MaxAmount: big.NewInt(10000)}}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	receipt, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
	if resp.StatusCode != http.StatusOK || string(got) != "paid content" || err != nil || !receipt.Success || receipt.Network != "eip155:84532" {
		t.Fatalf("%d %q %+v %v", resp.StatusCode, got, receipt, err)
	}
	if resp.Header.Get(x402.HeaderXPaymentResponse) != "" {
		t.Fatal("a v2 payment got X-PAYMENT-RESPONSE")
	}
}

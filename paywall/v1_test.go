package paywall_test

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// baseSepolia is the chain id of base-sepolia, a chain x402 v1 names: a
// devnet on it stands for it.
const baseSepolia = 84532

// signV1 signs an exact payment of offer with key at the time now (nil:
// the wall clock), as a v2 payment; v1Header and x402.EncodeHeader present
// the same authorization in either version.
func signV1(t *testing.T, key *ecdsa.PrivateKey, offer x402.PaymentRequirements, now func() time.Time) *x402.PaymentPayload {
	t.Helper()
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(1 << 40), Now: now}
	p, err := tr.Pay(&x402.PaymentRequired{X402Version: x402.Version, Accepts: []x402.PaymentRequirements{offer}}, &offer)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// v1Header is the X-PAYMENT an x402 v1 client sends for the authorization
// of p: {x402Version:1, scheme, network (v1 name), payload}.
func v1Header(t *testing.T, p *x402.PaymentPayload) string {
	t.Helper()
	name, ok := x402.NetworkV1Name(p.Accepted.Network)
	if !ok {
		name = p.Accepted.Network
	}
	h, err := x402.EncodeHeader(&x402.PaymentPayloadV1{X402Version: 1, Scheme: p.Accepted.Scheme, Network: name, Payload: p.Payload})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func v2Header(t *testing.T, p *x402.PaymentPayload) string {
	t.Helper()
	h, err := x402.EncodeHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// get sends a GET with the given header pairs.
func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// TestV1Challenge: where a v1 client can pay, the 402's body is the v1
// challenge with only the offers v1 can pay (exact, on a network v1
// names) in v1's shape, while PAYMENT-REQUIRED stays the full v2
// challenge; where it cannot, the body stays v2 and its error says the
// route speaks x402 v2 only and names the networks.
func TestV1Challenge(t *testing.T) {
	t.Parallel()
	offer := benchOffer
	offer.Network = "eip155:84532"
	aa := offer
	aa.Scheme = x402.SchemeAANative
	local := benchOffer // eip155:31337, which v1 does not name
	otherToken := offer // same network, payee and price: v1 cannot tell them apart
	otherToken.Asset = "0x1111111111111111111111111111111111111111"
	cheaper := otherToken
	cheaper.Amount = "5000"
	tests := []struct {
		name    string
		accepts []x402.PaymentRequirements
		v1      int // offers in the v1 body; 0: a v2 body
	}{
		{"v1 network", []x402.PaymentRequirements{offer}, 1},
		{"mixed", []x402.PaymentRequirements{local, aa, offer}, 1},
		{"two tokens at one price", []x402.PaymentRequirements{offer, otherToken}, 1},
		{"two tokens at two prices", []x402.PaymentRequirements{offer, cheaper}, 2},
		{"no v1 network", []x402.PaymentRequirements{local}, 0},
		{"aa-native only", []x402.PaymentRequirements{aa}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pw, err := paywall.New(paywall.Config{Accepts: tc.accepts, Facilitator: accepting{}, Description: "a paid report", MimeType: "application/json"})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(pw.Handler(report))
			t.Cleanup(ts.Close)
			srv := ts.URL
			resp, body := get(t, srv+"/paid/report?day=1")
			pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
			if resp.StatusCode != http.StatusPaymentRequired || err != nil || len(pr.Accepts) != len(tc.accepts) || pr.Error != "" {
				t.Fatalf("%d %v %+v", resp.StatusCode, err, pr)
			}
			if !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), x402.HeaderXPaymentResponse) {
				t.Errorf("expose = %q", resp.Header.Get("Access-Control-Expose-Headers"))
			}
			if tc.v1 == 0 {
				var v2 x402.PaymentRequired
				if err := json.Unmarshal(body, &v2); err != nil || v2.X402Version != 2 || len(v2.Accepts) != len(tc.accepts) ||
					!strings.Contains(v2.Error, "x402 v2 only") || !strings.Contains(v2.Error, tc.accepts[0].Network) {
					t.Fatalf("v2 body %s: %v", body, err)
				}
				return
			}
			var v1 struct {
				X402Version int                          `json:"x402Version"`
				Accepts     []map[string]json.RawMessage `json:"accepts"`
			}
			if err := json.Unmarshal(body, &v1); err != nil || v1.X402Version != 1 || len(v1.Accepts) != tc.v1 {
				t.Fatalf("v1 body %s: %v", body, err)
			}
			got := v1.Accepts[0]
			want := map[string]string{
				"scheme": `"exact"`, "network": `"base-sepolia"`, "maxAmountRequired": `"10000"`,
				"resource": `"` + srv + `/paid/report?day=1"`, "description": `"a paid report"`, "mimeType": `"application/json"`,
				"payTo": `"` + offer.PayTo + `"`, "asset": `"` + offer.Asset + `"`, "maxTimeoutSeconds": "60",
				"extra": `{"name":"Devnet USD","version":"1"}`,
			}
			for k, v := range want {
				if string(got[k]) != v {
					t.Errorf("%s = %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

// TestV1PaysTheRoute: a v1 payment (X-PAYMENT) on a devnet standing for
// base-sepolia buys the response: the merchant is paid the offer's
// amount, the answer carries X-PAYMENT-RESPONSE as v1 reads it (network
// base-sepolia, the transaction) beside PAYMENT-RESPONSE, and the upstream
// sees neither payment header.
func TestV1PaysTheRoute(t *testing.T) {
	t.Parallel()
	e := newEnvOn(t, baseSepolia)
	var leaked atomic.Bool
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(x402.HeaderXPayment) != "" || r.Header.Get(x402.HeaderPaymentSignature) != "" {
			leaked.Store(true)
		}
		report(w, r)
	}), nil)
	key := e.chain.Accounts[1].Key
	before := e.balance(e.merchant)
	resp, body := get(t, srv.URL+"/paid/report", x402.HeaderXPayment, v1Header(t, signV1(t, key, e.offer, nil)))
	if resp.StatusCode != http.StatusOK || string(body) != `{"report":"paid content"}` {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	raw, err := base64.StdEncoding.DecodeString(resp.Header.Get(x402.HeaderXPaymentResponse))
	var v1 struct {
		Success     bool   `json:"success"`
		Transaction string `json:"transaction"`
		Network     string `json:"network"`
		Payer       string `json:"payer"`
		X402Version int    `json:"x402Version"`
	}
	if err != nil || json.Unmarshal(raw, &v1) != nil || !v1.Success || v1.Network != "base-sepolia" || len(v1.Transaction) != 66 ||
		!strings.EqualFold(v1.Payer, crypto.PubkeyToAddress(key.PublicKey).Hex()) || v1.X402Version != 1 {
		t.Fatalf("X-PAYMENT-RESPONSE %s: %v", raw, err)
	}
	if v2, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse)); err != nil || v2.TransactionHash != v1.Transaction || v2.Network != "eip155:84532" {
		t.Fatalf("PAYMENT-RESPONSE %+v %v", v2, err)
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != price {
		t.Fatalf("merchant got %s, want %d", got, price)
	}
	if leaked.Load() {
		t.Fatal("the upstream saw a payment header")
	}
}

// serveCounting serves the report behind the env's paywall and counts the
// requests that reach it.
func (e *env) serveCounting() (*httptest.Server, *atomic.Int32) {
	served := new(atomic.Int32)
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		report(w, r)
	}), nil)
	return srv, served
}

// TestV1ReplayAcrossVersions: one authorization buys one response,
// whichever version presents it: sent as v1 and then as v2, or as v2 and
// then as v1, the second is refused as a replay and the upstream runs once
// a payment.
func TestV1ReplayAcrossVersions(t *testing.T) {
	t.Parallel()
	e := newEnvOn(t, baseSepolia)
	srv, served := e.serveCounting()
	tests := []struct {
		name          string
		first, second string // header names
	}{
		{"v1 then v2", x402.HeaderXPayment, x402.HeaderPaymentSignature},
		{"v2 then v1", x402.HeaderPaymentSignature, x402.HeaderXPayment},
		{"v1 twice", x402.HeaderXPayment, x402.HeaderXPayment},
	}
	for i, tc := range tests {
		p := signV1(t, e.chain.Accounts[3+i].Key, e.offer, nil)
		value := map[string]string{x402.HeaderXPayment: v1Header(t, p), x402.HeaderPaymentSignature: v2Header(t, p)}
		before := served.Load()
		if resp, body := get(t, srv.URL+"/paid/report", tc.first, value[tc.first]); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: first: %d %s", tc.name, resp.StatusCode, body)
		}
		resp, body := get(t, srv.URL+"/paid/report", tc.second, value[tc.second])
		if resp.StatusCode != http.StatusPaymentRequired || !strings.Contains(string(body), string(x402.ReasonReplay)) {
			t.Fatalf("%s: second: %d %s, want 402 replay", tc.name, resp.StatusCode, body)
		}
		if got := served.Load() - before; got != 1 {
			t.Fatalf("%s: the upstream ran %d times for one payment", tc.name, got)
		}
	}
}

// TestV1Refusals: a v1 payment is held to the same offer as a v2 one. A
// header that does not decode, is too large, has another version, or comes
// with PAYMENT-SIGNATURE is a structured 4xx; a payment on another network
// or scheme, to another payee, for less, signed for another token, tampered
// with or expired is refused with its reason; none reaches the upstream
// or pays anything.
func TestV1Refusals(t *testing.T) {
	t.Parallel()
	e := newEnvOn(t, baseSepolia)
	srv, served := e.serveCounting()
	key := e.chain.Accounts[1].Key
	with := func(mutate func(*x402.PaymentRequirements)) *x402.PaymentPayload {
		o := e.offer
		mutate(&o)
		return signV1(t, key, o, nil)
	}
	encode := func(v any) string {
		h, err := x402.EncodeHeader(v)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	good := signV1(t, key, e.offer, nil)
	var payload map[string]any
	json.Unmarshal(good.Payload, &payload)
	tampered := func(field, value string) string {
		auth := map[string]any{}
		for k, v := range payload["authorization"].(map[string]any) {
			auth[k] = v
		}
		auth[field] = value
		raw, _ := json.Marshal(map[string]any{"signature": payload["signature"], "authorization": auth})
		return encode(&x402.PaymentPayloadV1{X402Version: 1, Scheme: "exact", Network: "base-sepolia", Payload: raw})
	}
	tests := []struct {
		name   string
		header []string
		status int
		want   string // in the body's error
	}{
		{"garbage", []string{x402.HeaderXPayment, "%%%not base64"}, 400, "malformed_request"},
		{"not JSON", []string{x402.HeaderXPayment, base64.StdEncoding.EncodeToString([]byte("[1,2"))}, 400, "malformed_request"},
		{"oversize", []string{x402.HeaderXPayment, strings.Repeat("A", x402.MaxHeaderSize+1)}, 431, "malformed_request"},
		{"version 2 in X-PAYMENT", []string{x402.HeaderXPayment, v2Header(t, good)}, 400, "x402Version is 2"},
		{"version 0", []string{x402.HeaderXPayment, encode(&x402.PaymentPayloadV1{Scheme: "exact", Network: "base-sepolia", Payload: good.Payload})}, 400, "x402Version is 0"},
		{"both headers", []string{x402.HeaderXPayment, v1Header(t, good), x402.HeaderPaymentSignature, v2Header(t, good)}, 400, "not both"},
		{"unknown network", []string{x402.HeaderXPayment, encode(&x402.PaymentPayloadV1{X402Version: 1, Scheme: "exact", Network: "solana", Payload: good.Payload})}, 402, "network_mismatch"},
		{"network not offered", []string{x402.HeaderXPayment, encode(&x402.PaymentPayloadV1{X402Version: 1, Scheme: "exact", Network: "base", Payload: good.Payload})}, 402, "network_mismatch"},
		{"other scheme", []string{x402.HeaderXPayment, encode(&x402.PaymentPayloadV1{X402Version: 1, Scheme: "upto", Network: "base-sepolia", Payload: good.Payload})}, 402, "scheme_mismatch"},
		{"payload not an object", []string{x402.HeaderXPayment, encode(map[string]any{"x402Version": 1, "scheme": "exact", "network": "base-sepolia", "payload": "x"})}, 400, "payload must be a JSON object"},
		{"other payee", []string{x402.HeaderXPayment, v1Header(t, with(func(o *x402.PaymentRequirements) { o.PayTo = e.chain.Accounts[5].Address.Hex() }))}, 402, "invalid_inner_payload"},
		{"less than the price", []string{x402.HeaderXPayment, v1Header(t, with(func(o *x402.PaymentRequirements) { o.Amount = "9999" }))}, 402, "amount_mismatch"},
		{"more than the price", []string{x402.HeaderXPayment, v1Header(t, with(func(o *x402.PaymentRequirements) { o.Amount = "10001" }))}, 402, "amount_mismatch"},
		{"another token's domain", []string{x402.HeaderXPayment, v1Header(t, with(func(o *x402.PaymentRequirements) { o.Asset = "0x1111111111111111111111111111111111111111" }))}, 402, "signature_invalid"},
		{"payee changed after signing", []string{x402.HeaderXPayment, tampered("to", e.chain.Accounts[5].Address.Hex())}, 402, "invalid_inner_payload"},
		{"value raised after signing", []string{x402.HeaderXPayment, tampered("value", "20000")}, 402, "amount_mismatch"},
		{"nonce changed after signing", []string{x402.HeaderXPayment, tampered("nonce", "0x"+strings.Repeat("11", 32))}, 402, "signature_invalid"},
		{"expired", []string{x402.HeaderXPayment, v1Header(t, signV1(t, key, e.offer, func() time.Time { return time.Now().Add(-time.Hour) }))}, 402, "invalid_inner_payload"},
	}
	before := e.balance(e.merchant)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+"/paid/report", tc.header...)
			var got struct {
				Error string `json:"error"`
			}
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &got) != nil || !strings.Contains(got.Error, tc.want) {
				t.Fatalf("%d %q %s, want %d with %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.status, tc.want)
			}
		})
	}
	if n := served.Load(); n != 0 {
		t.Fatalf("the upstream ran %d times", n)
	}
	if after := e.balance(e.merchant); after.Cmp(before) != 0 {
		t.Fatalf("the merchant was paid %s", new(big.Int).Sub(after, before))
	}
	// The good payment, never used above, still pays.
	if resp, body := get(t, srv.URL+"/paid/report", x402.HeaderXPayment, v1Header(t, good)); resp.StatusCode != http.StatusOK {
		t.Fatalf("the good payment: %d %s", resp.StatusCode, body)
	}
}

// TestV1OnV2OnlyRoute: on a route whose network has no v1 name, a v1
// payment is refused with 402 and an error that says the route speaks
// x402 v2 only and names its network; the same authorization as v2 pays.
func TestV1OnV2OnlyRoute(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // eip155:31337
	srv := e.serve(report, nil)
	p := signV1(t, e.chain.Accounts[1].Key, e.offer, nil)
	h, _ := x402.EncodeHeader(&x402.PaymentPayloadV1{X402Version: 1, Scheme: "exact", Network: "base-sepolia", Payload: p.Payload})
	resp, body := get(t, srv.URL+"/paid/report", x402.HeaderXPayment, h)
	var got x402.PaymentRequired
	if resp.StatusCode != http.StatusPaymentRequired || json.Unmarshal(body, &got) != nil || got.X402Version != 2 ||
		!strings.Contains(got.Error, "x402 v2 only") || !strings.Contains(got.Error, "eip155:31337") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, srv.URL+"/paid/report", x402.HeaderPaymentSignature, v2Header(t, p)); resp.StatusCode != http.StatusOK {
		t.Fatalf("as v2: %d %s", resp.StatusCode, body)
	}
}

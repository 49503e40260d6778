package caddymodule

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/webhook"
	"github.com/caddy-x402/caddy-x402/x402"
)

const merchantCaddyfile = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		webhook {{hook}}/events?token=t0ken {
			secret {env.X402_MERCHANT_WEBHOOK_SECRET}
		}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
		}
		respond "paid content"
	}
	handle /dashboard/* {
		x402_dashboard {
			path_prefix /dashboard/
			allow_anonymous
		}
	}
}
`

// TestMerchantEndToEnd runs Caddy on the devnet with a webhook: a paid
// request settles and its event reaches the merchant's receiver, signed,
// once; a tampered payment is answered 402 and counted on the refused
// page by reason and route, with the payer it claimed; the revenue page
// has the payment in dUSD and USD; the webhooks page shows the delivery
// without the URL's token.
func TestMerchantEndToEnd(t *testing.T) {
	const secret = "merchant-webhook-secret-0123456789"
	t.Setenv("X402_MERCHANT_WEBHOOK_SECRET", secret)
	old := refusalFlush
	t.Cleanup(func() { refusalFlush = old }) // after Caddy stopped, below
	refusalFlush = 100 * time.Millisecond

	var mu sync.Mutex
	var events []webhook.Event
	var bad []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := webhook.Verify([]byte(secret), r.Header.Get(webhook.SignatureHeader), body, time.Now(), webhook.DefaultTolerance); err != nil || r.URL.Query().Get("token") != "t0ken" {
			bad = append(bad, fmt.Sprint(err, r.URL))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var ev webhook.Event
		json.Unmarshal(body, &ev)
		events = append(events, ev)
	}))
	defer hook.Close()
	api := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	cf := strings.NewReplacer("{{chain}}", fmt.Sprint(freePort(t)), "{{hook}}", hook.URL, "{{api}}", strings.TrimPrefix(api, "http://127.0.0.1:")).Replace(merchantCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}

	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 1)
	c := &http.Client{Timeout: time.Minute, Transport: &client.Transport{Key: payer, MaxAmount: big.NewInt(50_000), Schemes: []string{"exact"}}}
	resp, err := c.Get(api + "/paid/report")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	receipt, ok, _ := client.Receipt(resp)
	if resp.StatusCode != 200 || !ok || !receipt.Success {
		t.Fatalf("paying: %d %+v", resp.StatusCode, receipt)
	}

	// A payment whose signature is not the payer's.
	resp, err = http.Get(api + "/paid/report")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := devnet.DeriveKey(devnet.TestMnemonic, 2)
	p, err := (&client.Transport{Key: other}).Pay(challenge, &challenge.Accepts[0])
	if err != nil {
		t.Fatal(err)
	}
	var ex x402.ExactPayload
	json.Unmarshal(p.Payload, &ex)
	sig := hexutil.MustDecode(ex.Signature)
	sig[10] ^= 0xff
	ex.Signature = hexutil.Encode(sig)
	p.Payload, _ = json.Marshal(ex)
	header, _ := x402.EncodeHeader(p)
	req, _ := http.NewRequest(http.MethodGet, api+"/paid/report?x=<b>", nil)
	req.Header.Set(x402.HeaderPaymentSignature, header)
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("a tampered payment: %d", resp.StatusCode)
	}

	page := func(path, want string) string {
		t.Helper()
		var body string
		for deadline := time.Now().Add(30 * time.Second); ; {
			resp, b := httpGet(t, api+"/dashboard/"+path, nil)
			body = b
			if resp.StatusCode == 200 && strings.Contains(body, want) {
				return body
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET /dashboard/%s: %d without %q:\n%s", path, resp.StatusCode, want, body)
			}
			time.Sleep(100 * time.Millisecond) // polling for the flush and the delivery
		}
	}
	// The counters and the list of the last refusals are written apart:
	// wait for the refusal itself (its payer) in the list.
	refused := page("refused", crypto.PubkeyToAddress(other.PublicKey).Hex())
	if !strings.Contains(refused, "127.0.0.1/paid/*") || !strings.Contains(refused, "signature_invalid") || strings.Contains(refused, "<b>") {
		t.Errorf("the refused page:\n%s", refused)
	}
	revenue := page("revenue", "$0.01")
	if !strings.Contains(revenue, crypto.PubkeyToAddress(payer.PublicKey).Hex()) || !strings.Contains(revenue, "0.01 dUSD") {
		t.Errorf("the revenue page:\n%s", revenue)
	}
	hooks := page("webhooks", "delivered")
	if !strings.Contains(hooks, receipt.TransactionHash) || strings.Contains(hooks, "t0ken") {
		t.Errorf("the webhooks page:\n%s", hooks)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 || len(events) != 1 || events[0].Type != webhook.EventSettled || events[0].Transaction != receipt.TransactionHash || events[0].Payer != receipt.Payer {
		t.Errorf("the receiver: %+v, refused %q", events, bad)
	}
}

// TestWebhookSecretRefused: a webhook whose secret is unset or too short
// fails the config's start, rather than sending nothing unnoticed.
func TestWebhookSecretRefused(t *testing.T) {
	for _, tc := range []struct{ name, value string }{{"unset", ""}, {"short", "0123456789"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("X402_MERCHANT_WEBHOOK_SECRET", tc.value)
			cf := strings.NewReplacer("{{chain}}", fmt.Sprint(freePort(t)), "{{hook}}", "http://127.0.0.1:9", "{{api}}", fmt.Sprint(freePort(t))).Replace(merchantCaddyfile)
			_, err := runCaddyfile(t, cf)
			if err == nil || !strings.Contains(err.Error(), "webhook secret") {
				t.Fatalf("started: %v", err)
			}
		})
	}
}

package main

import (
	"encoding/json"
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

// demoWebhookSecret is the secret of the webhook that startDemo adds to
// the demo, through the environment as a real config does.
const demoWebhookSecret = "demo-webhook-secret-for-the-browser-test"

// hookReceiver is the merchant's server that the demo's webhook posts to:
// it checks each delivery's signature as a receiver must, and keeps the
// events it accepted.
type hookReceiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	events []webhook.Event
	bad    []string
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		h.mu.Lock()
		defer h.mu.Unlock()
		if err := webhook.Verify([]byte(demoWebhookSecret), r.Header.Get(webhook.SignatureHeader), body, time.Now(), webhook.DefaultTolerance); err != nil {
			h.bad = append(h.bad, err.Error())
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var ev webhook.Event
		if err := json.Unmarshal(body, &ev); err != nil {
			h.bad = append(h.bad, err.Error())
		}
		h.events = append(h.events, ev)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// withWebhook adds the receiver's webhook to the demo's x402 app.
func (h *hookReceiver) withWebhook(cf string) string {
	return strings.Replace(cf, "\tx402 {\n", "\tx402 {\n\t\twebhook "+h.srv.URL+"/x402-events {\n\t\t\tsecret {env.X402_DEMO_WEBHOOK_SECRET}\n\t\t}\n", 1)
}

func (h *hookReceiver) got() ([]webhook.Event, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]webhook.Event(nil), h.events...), append([]string(nil), h.bad...)
}

// refused sends a payment whose signature was tampered with to the paid
// API: it is answered 402, and the refused page counts it by reason
// (signature_invalid) and route, with the payer it claimed, once the
// demo flushed its refusals.
func (s *session) refused(t *testing.T) {
	b, d := s.b, s.d
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 2)
	resp, err := http.Get(d.api + "/paid/report")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge, err := x402.DecodePaymentRequired(resp.Header.Get("PAYMENT-REQUIRED"))
	if err != nil || len(challenge.Accepts) == 0 {
		t.Fatalf("the challenge: %v", err)
	}
	var offer *x402.PaymentRequirements
	for i := range challenge.Accepts {
		if challenge.Accepts[i].Scheme == "exact" && offer == nil {
			offer = &challenge.Accepts[i]
		}
	}
	pay := &client.Transport{Key: payer, MaxAmount: big.NewInt(50_000)}
	payment, err := pay.Pay(challenge, offer)
	if err != nil {
		t.Fatal(err)
	}
	var p x402.ExactPayload
	if err := json.Unmarshal(payment.Payload, &p); err != nil {
		t.Fatal(err)
	}
	sig := hexutil.MustDecode(p.Signature)
	sig[10] ^= 0xff // another r: the signature is someone else's, or nobody's
	p.Signature = hexutil.Encode(sig)
	payment.Payload, _ = json.Marshal(p)
	header, err := x402.EncodeHeader(payment)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, d.api+"/paid/report", nil)
	req.Header.Set("PAYMENT-SIGNATURE", header)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("a tampered payment: %d, want 402", resp.StatusCode)
	}
	from := crypto.PubkeyToAddress(payer.PublicKey).Hex()
	var counts [][]string
	for deadline := time.Now().Add(30 * time.Second); ; {
		b.open(t, "/refused")
		counts = b.rows(t, "#refusal-counts")
		if len(counts) > 0 && len(counts[0]) == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the refused page counts nothing: %q", counts)
		}
		time.Sleep(500 * time.Millisecond) // polling for the demo's flush of its refusals
	}
	// Counted by the route as configured, never the request's path.
	if counts[0][1] != "/paid/*" || counts[0][2] != "1" || (counts[0][0] != "signature_invalid" && counts[0][0] != "invalid_inner_payload") {
		t.Errorf("the refusal counters: %q", counts)
	}
	recent := b.rows(t, "#refusals")
	if len(recent) != 1 || recent[0][2] != "/paid/*" || (recent[0][3] != from && recent[0][3] != "unknown") || !strings.Contains(recent[0][4], "dUSD") {
		t.Errorf("the last refusals: %q (payer %s)", recent, from)
	}
	// The facilitator's readable reason is kept beside the code, and the
	// refusal is grouped by its cause, in words.
	if !b.has(t, "#refusals .reason-message") || !b.has(t, ".reason-group .reason-words") {
		t.Errorf("the refused page has no readable reason: %q", recent)
	}
	b.shotBoth(t, "refused")
}

// revenue checks the revenue page after the payment of the pay step:
// one payment on /paid/report from test account #1, in dUSD and in USD.
func (s *session) revenue(t *testing.T) {
	b := s.b
	b.open(t, "/revenue?days=7")
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 1)
	from := crypto.PubkeyToAddress(payer.PublicKey).Hex()
	routes, payers := b.rows(t, "#routes"), b.rows(t, "#payers")
	if len(routes) != 1 || routes[0][0] != "/paid/report" || routes[0][1] != "1" || routes[0][2] != "$0.01" || routes[0][3] != "0.01 dUSD" {
		t.Errorf("revenue per route: %q", routes)
	}
	if len(payers) != 1 || !strings.EqualFold(payers[0][0], from) || payers[0][2] != "$0.01" {
		t.Errorf("revenue per payer: %q", payers)
	}
	if got := b.text(t, "#revenue-usd"); got != "$0.01" {
		t.Errorf("the USD total: %q", got)
	}
	b.shotBoth(t, "revenue")
}

// webhooks waits for the settled payment's delivery: the receiver got it,
// signed, with the transaction of the pay step, and the webhooks page and
// the audit log show it delivered.
func (s *session) webhooks(t *testing.T) {
	b, d := s.b, s.d
	var events []webhook.Event
	for deadline := time.Now().Add(30 * time.Second); ; {
		var bad []string
		events, bad = d.hooks.got()
		if len(bad) > 0 {
			t.Fatalf("the receiver refused deliveries: %q", bad)
		}
		if len(events) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no webhook delivery")
		}
		time.Sleep(200 * time.Millisecond) // polling for the delivery
	}
	ev := events[0]
	if len(events) != 1 || ev.Type != webhook.EventSettled || ev.Transaction == "" || ev.Amount != "10000" || !strings.HasSuffix(ev.Resource, "/paid/report") {
		t.Errorf("the deliveries: %+v", events)
	}
	var rows [][]string
	for deadline := time.Now().Add(10 * time.Second); ; {
		b.open(t, "/webhooks")
		rows = b.rows(t, "#deliveries")
		if len(rows) == 1 && strings.HasPrefix(rows[0][3], "delivered") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the webhooks page: %q", rows)
		}
		time.Sleep(200 * time.Millisecond) // polling for the delivery's record
	}
	if !strings.Contains(rows[0][1], ev.ID) || rows[0][4] != "1" || !strings.EqualFold(rows[0][6], ev.Transaction) {
		t.Errorf("the delivery's row: %q (event %+v)", rows[0], ev)
	}
	b.shotBoth(t, "webhooks")
	b.open(t, "/audit")
	if html := b.html(t); !strings.Contains(html, "webhook.delivered") || !strings.Contains(html, ev.ID) {
		t.Error("the audit log has no webhook.delivered entry for the event")
	}
}

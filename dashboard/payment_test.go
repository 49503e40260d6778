package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/webhook"
)

// merchantFixture is a dashboard over a store of its own and no chain (its
// balances cannot be read), with a webhook whose receiver is a test
// server: the merchant's pages as they are in an outage, or with the
// chain up but not asked.
type merchantFixture struct {
	*fixture
	webhookSender *webhook.Sender
	hooks         store.KV
	received      chan webhook.Event // what the receiver got, verified
	stop          func()             // stops the sender
	mu            sync.Mutex
	outage        *Outage
}

var (
	usdc     = common.HexToAddress("0x036CbD53842c5426634e7929541eC2318f3dCF7e")
	payerOne = common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
)

// testWebhooks is the Webhooks of a merchantFixture: its one sender.
type testWebhooks struct{ f *merchantFixture }

func (w testWebhooks) Test() ([]webhook.Delivery, error) {
	d, err := w.f.webhookSender.Test("eip155:84532")
	return []webhook.Delivery{d}, err
}

func (w testWebhooks) Resend(id string) (webhook.Delivery, error) {
	return webhook.Resend(w.f.hooks, id, time.Now())
}

// newMerchantFixture makes the fixture; run starts its webhook's sender.
func newMerchantFixture(t *testing.T, outage *Outage, run bool) *merchantFixture {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	bucket := func(name string) store.KV {
		kv, err := st.Bucket(name)
		if err != nil {
			t.Fatal(err)
		}
		return kv
	}
	secret := []byte("0123456789abcdef0123456789abcdef")
	f := &merchantFixture{fixture: &fixture{t: t, st: st, token: usdc}, hooks: bucket(webhook.Space), received: make(chan webhook.Event, 16), outage: outage}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev webhook.Event
		if webhook.Verify(secret, r.Header.Get(webhook.SignatureHeader), body, time.Now(), webhook.DefaultTolerance) != nil || json.Unmarshal(body, &ev) != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		f.received <- ev
	}))
	t.Cleanup(receiver.Close)
	f.webhookSender, err = webhook.New(webhook.Config{URL: receiver.URL + "/x402/events", Secret: secret, Store: f.hooks})
	if err != nil {
		t.Fatal(err)
	}
	f.stop = func() {}
	if run {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); f.webhookSender.Run(ctx, 20*time.Millisecond) }()
		f.stop = func() { cancel(); <-done }
		t.Cleanup(f.stop)
	}
	refusals, err := store.OpenRefusals(st)
	if err != nil {
		t.Fatal(err)
	}
	f.d, err = New(Config{
		Payments: st, Audit: bucket("x402_audit"), Network: "eip155:84532", Explorer: "https://sepolia.basescan.org",
		Assets: []Asset{{Address: usdc, Symbol: "USDC", Decimals: 6, USD: true}},
		Secret: bytes.Repeat([]byte{7}, 32),
		Balances: func(context.Context) (Balances, error) {
			return Balances{}, errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
		},
		Outage: func(context.Context) *Outage {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.outage
		},
		Refusals:   refusals.Summary,
		Deliveries: func() ([]webhook.Delivery, error) { return webhook.List(f.hooks, 200) },
		Webhooks:   testWebhooks{f},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.web, f.api = f.d.Web("/"), f.d.API("/x402/")
	rec := func(at time.Duration, reason, message string) {
		refusals.Record(store.Refusal{Time: time.Now().UTC().Add(at), Reason: reason, Route: "shop.example/paid/*", Payer: payerOne.Hex(),
			Scheme: "exact", Network: "eip155:84532", Amount: "10000", Asset: usdc.Hex(), Message: message})
	}
	rec(-3*time.Minute, "invalid_inner_payload", "the payer holds 0, the payment needs 10000")
	rec(-2*time.Minute, "invalid_inner_payload", "the payer holds 0, the payment needs 10000")
	rec(-time.Minute, "signature_invalid", "the signature is not the payer's")
	if err := refusals.Flush(); err != nil {
		t.Fatal(err)
	}
	return f
}

// anOutage is the outage of the fixtures: the RPC does not answer.
func anOutage() *Outage {
	return &Outage{
		What:   "The chain's RPC (rpc.example) does not answer, so the x402 facilitator did not start. It is tried again every 5s.",
		Since:  time.Date(2026, 11, 28, 9, 30, 0, 0, time.UTC),
		Payers: "Payers of its routes get 503 Service Unavailable with Retry-After: nothing is charged and nothing paid is served.",
		Detail: "the RPC refused the connection",
	}
}

// delivered waits until every delivery kept is delivered.
func (f *merchantFixture) delivered(t *testing.T, n int) []webhook.Delivery {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		list, err := webhook.List(f.hooks, 100)
		if err != nil {
			t.Fatal(err)
		}
		done := 0
		for _, d := range list {
			if d.State == webhook.StateDelivered {
				done++
			}
		}
		if len(list) == n && done == n {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %d deliveries to be delivered: %+v", n, list)
		}
		time.Sleep(20 * time.Millisecond) // polling for the sender
	}
}

// next is the next event the receiver verified, waited for at most 20 s.
func (f *merchantFixture) next(t *testing.T) webhook.Event {
	t.Helper()
	select {
	case ev := <-f.received:
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("waiting for the webhook receiver to get an event: none in 20 s")
		return webhook.Event{}
	}
}

// TestOutageBanner: with the chain down, every page of the dashboard
// answers 200 from the store with the banner (what is down, since when,
// what payers are told), and the overview's JSON carries the outage; with
// the chain up, no page has it.
func TestOutageBanner(t *testing.T) {
	t.Parallel()
	f := newMerchantFixture(t, anOutage(), false)
	f.settle(time.Now().UTC().Add(-time.Hour), payerOne, 10_000, "", "https://shop.example/paid/report")
	c := webClient{f: f.fixture, user: "admin"}
	for _, path := range []string{"/", "/payments", "/revenue", "/refused", "/webhooks", "/audit"} {
		w := c.do("GET", path, nil, "none")
		body := w.Body.String()
		if w.Code != http.StatusOK {
			t.Errorf("GET %s in an outage: %d\n%s", path, w.Code, body)
			continue
		}
		for _, want := range []string{`id="outage"`, "rpc.example", "2026-11-28 09:30:00", "503 Service Unavailable", "the RPC refused the connection"} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: the banner has no %q", path, want)
			}
		}
		if strings.Contains(body, "127.0.0.1:1") {
			t.Errorf("GET %s shows the chain's error text", path)
		}
	}
	if w := c.do("GET", "/payments", nil, "none"); !strings.Contains(w.Body.String(), "0.01 USDC") {
		t.Error("the payments page in an outage does not show the stored payment")
	}
	if w := c.do("GET", "/", nil, "none"); !strings.Contains(w.Body.String(), "not read while the chain is down") {
		t.Error("the overview does not say the balances are not read")
	}
	var o Overview
	if code := f.call("GET", "/overview", "", &o); code != 200 || o.Outage == nil || o.Outage.Payers == "" || !o.Outage.Since.Equal(anOutage().Since) {
		t.Errorf("the overview's JSON in an outage: %d %+v", code, o.Outage)
	}
	f.mu.Lock()
	f.outage = nil
	f.mu.Unlock()
	if w := c.do("GET", "/", nil, "none"); strings.Contains(w.Body.String(), `id="outage"`) {
		t.Error("the banner is shown with the chain up")
	}
}

// TestMoneyAndRefusalsInWords: the overview leads with the money received
// per token and in USD, the gas wallet in a card of its own; the network
// is named, its CAIP-2 id on hover; refusals are grouped by cause, in
// words, with the facilitator's reason beside the code.
func TestMoneyAndRefusalsInWords(t *testing.T) {
	t.Parallel()
	f := newMerchantFixture(t, nil, false)
	f.settle(time.Now().UTC().Add(-time.Hour), payerOne, 1_500_000, "", "https://shop.example/paid/report")
	c := webClient{f: f.fixture, user: "admin"}
	body := c.do("GET", "/", nil, "none").Body.String()
	for _, want := range []string{`id="day-received"`, "1.5 USDC", `<span class="usd">$1.50</span>`, `id="gas-card"`, `title="eip155:84532" id="network-name">Base Sepolia<`} {
		if !strings.Contains(body, want) {
			t.Errorf("the overview has no %q", want)
		}
	}
	if strings.Index(body, "Money received") > strings.Index(body, "Gas wallet") {
		t.Error("the gas wallet comes before the money received")
	}
	f.d.cfg.Balances = func(context.Context) (Balances, error) {
		return Balances{Settler: payerOne, SettlerBalance: big.NewInt(1e15)}, nil // 0.001 ETH, under the 0.05 default
	}
	body = c.do("GET", "/", nil, "none").Body.String()
	for _, want := range []string{`id="low-balance"`, `class="card gas low" id="gas-card"`, "0.001 ETH"} {
		if !strings.Contains(body, want) {
			t.Errorf("the overview with a low gas wallet has no %q", want)
		}
	}
	if strings.Index(body, `id="low-balance"`) < strings.Index(body, "<h2>Gas</h2>") {
		t.Error("the low-balance warning is not under Gas")
	}
	body = c.do("GET", "/refused", nil, "none").Body.String()
	for _, want := range []string{
		`id="reason-invalid_inner_payload"`, "The payment does not work on chain", "the payer holds 0, the payment needs 10000",
		`id="reason-signature_invalid"`, "The payment&#39;s signature is wrong",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused page has no %q", want)
		}
	}
	if i, j := strings.Index(body, `id="reason-invalid_inner_payload"`), strings.Index(body, `id="reason-signature_invalid"`); i > j {
		t.Error("the causes are not most refused first")
	}
	groups := groupRefusals([]store.RefusalCount{
		{Reason: "replay", Route: "/a", Count: 1}, {Reason: "amount_mismatch", Route: "/a", Count: 2}, {Reason: "replay", Route: "/b", Count: 3},
	}, []store.Refusal{{Reason: "replay", Message: "newest"}, {Reason: "replay", Message: "older"}})
	if len(groups) != 2 || groups[0].Reason != "replay" || groups[0].Count != 4 || groups[0].Message != "newest" || groups[0].Routes[0].Route != "/b" || groups[1].Count != 2 {
		t.Errorf("groupRefusals: %+v", groups)
	}
	for _, tc := range []struct{ id, want string }{
		{"eip155:8453", "Base"}, {"eip155:84532", "Base Sepolia"}, {"eip155:999999", "eip155:999999"},
	} {
		if got := NetworkName(tc.id); got != tc.want {
			t.Errorf("NetworkName(%s) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestPaymentPage: a payment's page shows its payer, route, amount (and
// in USD), transaction with the explorer's link, and its webhook
// deliveries; so does the admin API. An unknown key is 404, a key that
// is not one 400.
func TestPaymentPage(t *testing.T) {
	t.Parallel()
	f := newMerchantFixture(t, nil, true)
	created := time.Now().UTC().Add(-time.Hour)
	tx := f.settle(created, payerOne, 10_000, "", "https://shop.example/paid/report")
	var key common.Hash
	copy(key[:], crypto32(payerOne, created))
	ev := webhook.Event{ID: webhook.EventID(webhook.EventSettled, "eip155:31337", key.Hex()), Type: webhook.EventSettled, Time: created, Network: "eip155:31337", Transaction: tx.Hex(), Amount: "10000"}
	if err := f.webhookSender.Enqueue(ev); err != nil {
		t.Fatal(err)
	}
	f.delivered(t, 1)
	c := webClient{f: f.fixture, user: "admin"}
	list := c.do("GET", "/payments", nil, "none").Body.String()
	if !strings.Contains(list, `href="/payments/`+key.Hex()+`"`) {
		t.Fatal("the payments page does not link the payment's page")
	}
	w := c.do("GET", "/payments/"+key.Hex(), nil, "none")
	if w.Code != 200 {
		t.Fatalf("the payment's page: %d\n%s", w.Code, w.Body)
	}
	for _, want := range []string{payerOne.Hex(), "https://shop.example/paid/report", "0.01 USDC", "$0.01", "https://sepolia.basescan.org/tx/" + tx.Hex(), ev.ID, "delivered"} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("the payment's page has no %q", want)
		}
	}
	var p PaymentDetail
	if code := f.call("GET", "/payments/"+key.Hex(), "", &p); code != 200 || p.Payer != payerOne || len(p.Deliveries) != 1 || p.Transaction != tx.Hex() || p.USDDisplay != "$0.01" {
		t.Errorf("GET /x402/payments/{key}: %d %+v", code, p)
	}
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/payments/0x" + strings.Repeat("ab", 32), http.StatusNotFound},
		{"/payments/0x1234", http.StatusBadRequest},
		{"/payments/" + strings.Repeat("z", 66), http.StatusBadRequest},
	} {
		if w := c.do("GET", tc.path, nil, "none"); w.Code != tc.want {
			t.Errorf("GET %s: %d, want %d", tc.path, w.Code, tc.want)
		}
		var e apiError
		if code := f.call("GET", tc.path, "", &e); code != tc.want || e.Code == "" {
			t.Errorf("GET /x402%s: %d %+v, want %d with a JSON error", tc.path, code, e, tc.want)
		}
	}
}

// TestWebhookTestAndResend: the webhooks page sends a test event (type
// test, no payment) and resends a delivery with the same event id, both
// through forms that need the CSRF token and a same-origin request; the
// admin API does both, only with a JSON content type; each is in the
// audit log.
func TestWebhookTestAndResend(t *testing.T) {
	t.Parallel()
	f := newMerchantFixture(t, nil, true)
	c := webClient{f: f.fixture, user: "admin"}
	page := c.do("GET", "/webhooks", nil, "none").Body.String()
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the webhooks page has no form token")
	}
	if w := c.do("POST", "/webhooks/test", url.Values{}, "same-origin"); w.Code != http.StatusForbidden {
		t.Errorf("a test without the token: %d, want 403", w.Code)
	}
	if w := c.do("POST", "/webhooks/test", url.Values{"csrf": {m[1]}}, "cross-site"); w.Code != http.StatusForbidden {
		t.Errorf("a cross-site test: %d, want 403", w.Code)
	}
	if w := c.do("POST", "/webhooks/test", url.Values{"csrf": {m[1]}}, "same-origin"); w.Code != http.StatusSeeOther {
		t.Fatalf("the test form: %d\n%s", w.Code, w.Body)
	}
	list := f.delivered(t, 1)
	if ev := f.next(t); ev.Type != webhook.EventTest || ev.Amount != "" || ev.Transaction != "" {
		t.Errorf("the receiver got %+v, want a test event without a payment", ev)
	}
	if w := c.do("POST", "/webhooks/deliveries/"+list[0].ID+"/resend", url.Values{"csrf": {m[1]}}, "same-origin"); w.Code != http.StatusSeeOther {
		t.Fatalf("the resend form: %d\n%s", w.Code, w.Body)
	}
	list = f.delivered(t, 1)
	if ev := f.next(t); ev.ID != list[0].Event.ID || list[0].Resent != 1 {
		t.Errorf("the resend sent %s (delivery %+v), want the same event id", ev.ID, list[0])
	}

	// The admin API.
	r := httptest.NewRequest("POST", "/x402/webhooks/test", nil)
	w := httptest.NewRecorder()
	f.api.ServeHTTP(w, r)
	if w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("POST /x402/webhooks/test without a JSON content type: %d, want 415", w.Code)
	}
	var tested struct{ Deliveries []webhook.Delivery }
	if code := f.call("POST", "/webhooks/test", "", &tested); code != http.StatusAccepted || len(tested.Deliveries) != 1 || tested.Deliveries[0].Event.Type != webhook.EventTest {
		t.Fatalf("POST /x402/webhooks/test: %d %+v", code, tested)
	}
	f.delivered(t, 2)
	f.next(t)
	var resent webhook.Delivery
	if code := f.call("POST", "/webhooks/deliveries/"+tested.Deliveries[0].ID+"/resend", "", &resent); code != http.StatusAccepted || resent.Event.ID != tested.Deliveries[0].Event.ID {
		t.Errorf("POST resend: %d %+v", code, resent)
	}
	var e apiError
	if code := f.call("POST", "/webhooks/deliveries/nothing.here/resend", "", &e); code != http.StatusNotFound || e.Code != "not_found" {
		t.Errorf("resending nothing: %d %+v", code, e)
	}
	audit := c.do("GET", "/audit", nil, "none").Body.String()
	if strings.Count(audit, "webhook.test") != 2 || strings.Count(audit, "webhook.resend") != 2 {
		t.Errorf("the audit log has %d webhook.test and %d webhook.resend, want 2 each", strings.Count(audit, "webhook.test"), strings.Count(audit, "webhook.resend"))
	}
}

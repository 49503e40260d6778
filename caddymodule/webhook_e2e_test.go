package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/webhook"
	"github.com/caddy-x402/caddy-x402/x402"
)

// hookReceiver is a merchant's webhook receiver: it checks each delivery's
// signature and id, and answers 200 while up, 503 while down.
type hookReceiver struct {
	t      *testing.T
	secret []byte

	mu      sync.Mutex
	down    bool
	got     []webhook.Event // acknowledged, in order
	refused []string        // ids answered 503
	bad     []string
	changed chan struct{} // closed and replaced on every delivery
}

func newHookReceiver(t *testing.T, secret string) (*hookReceiver, *httptest.Server) {
	rc := &hookReceiver{t: t, secret: []byte(secret), changed: make(chan struct{})}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv
}

func (rc *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	defer func() { close(rc.changed); rc.changed = make(chan struct{}) }()
	var ev webhook.Event
	if err := webhook.Verify(rc.secret, r.Header.Get(webhook.SignatureHeader), body, time.Now(), webhook.DefaultTolerance); err != nil {
		rc.bad = append(rc.bad, err.Error())
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" || r.Header.Get(webhook.IDHeader) != ev.ID {
		rc.bad = append(rc.bad, fmt.Sprintf("id header %q, body %s", r.Header.Get(webhook.IDHeader), body))
	}
	if rc.down {
		rc.refused = append(rc.refused, ev.ID)
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	rc.got = append(rc.got, ev)
}

func (rc *hookReceiver) setDown(down bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.down = down
}

// waitFor waits up to a minute for cond, checked under the receiver's
// lock after every delivery, and fails the test with what it waited for.
func (rc *hookReceiver) waitFor(what string, cond func() bool) {
	rc.t.Helper()
	deadline := time.After(time.Minute)
	for {
		rc.mu.Lock()
		ok, changed := cond(), rc.changed
		rc.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			rc.mu.Lock()
			defer rc.mu.Unlock()
			rc.t.Fatalf("waited a minute for %s: got %+v, refused %q, bad %q", what, rc.got, rc.refused, rc.bad)
		}
	}
}

// delivered reports whether the receiver acknowledged the settled event of
// transaction tx; call it under the lock.
func (rc *hookReceiver) delivered(tx string) bool {
	return slices.ContainsFunc(rc.got, func(ev webhook.Event) bool { return ev.Type == webhook.EventSettled && ev.Transaction == tx })
}

// TestWebhookAtLeastOnce runs Caddy on the devnet with two webhooks and
// checks that no settled payment is lost to them: the first payment, made
// the moment the config is loaded (before the webhooks' senders exist),
// reaches both; payments made while a receiver is down, and across a
// reload of the config while their deliveries are pending, reach it once
// it is up again. Every delivery is signed and carries its event's id in
// the header and the body.
func TestWebhookAtLeastOnce(t *testing.T) {
	const secret = "merchant-webhook-secret-0123456789"
	t.Setenv("X402_MERCHANT_WEBHOOK_SECRET", secret)
	shop, shopSrv := newHookReceiver(t, secret)
	books, booksSrv := newHookReceiver(t, secret)
	api := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	chain := freePort(t)
	config := func(content string) string {
		return strings.NewReplacer(
			"{{chain}}", fmt.Sprint(chain), "{{api}}", strings.TrimPrefix(api, "http://127.0.0.1:"), "{{content}}", content,
			"{{shop}}", shopSrv.URL, "{{books}}", booksSrv.URL,
		).Replace(atLeastOnceCaddyfile)
	}
	if _, err := runCaddyfile(t, config("paid content")); err != nil {
		t.Fatal(err)
	}
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 4)
	c := &http.Client{Timeout: time.Minute, Transport: &client.Transport{Key: payer, MaxAmount: big.NewInt(50_000), Schemes: []string{"exact"}}}
	pay := func(what string) x402.SettleResponse {
		t.Helper()
		resp, err := c.Get(api + "/paid/report?order=" + strings.ReplaceAll(what, " ", "-"))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		resp.Body.Close()
		receipt, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 200 || !ok || !receipt.Success {
			t.Fatalf("%s: %d %+v", what, resp.StatusCode, receipt)
		}
		return *receipt
	}

	// The first payment, at once.
	first := pay("the first payment")
	for _, rc := range []*hookReceiver{shop, books} {
		rc.waitFor("the first payment's event", func() bool { return rc.delivered(first.TransactionHash) })
	}
	shop.mu.Lock()
	ev := shop.got[0]
	shop.mu.Unlock()
	books.mu.Lock()
	other := books.got[0]
	books.mu.Unlock()
	if ev.Payer != first.Payer || ev.Amount != "10000" || ev.Resource != api+"/paid/report" || ev.Network != first.Network || other.ID != ev.ID {
		t.Errorf("the first payment's event: %+v, and %+v", ev, other)
	}

	// The shop's receiver goes down; a payment's delivery is refused.
	shop.setDown(true)
	during := pay("a payment during the outage")
	books.waitFor("the second payment's event", func() bool { return books.delivered(during.TransactionHash) })
	shop.waitFor("an attempt to deliver the second payment's event", func() bool { return len(shop.refused) > 0 })

	// A reload while that delivery is pending, and a payment at once.
	if _, err := runCaddyfile(t, config("paid content, reloaded")); err != nil {
		t.Fatal(err)
	}
	after := pay("a payment right after the reload")
	shop.setDown(false)
	for _, rc := range []*hookReceiver{shop, books} {
		rc.waitFor("every payment's event", func() bool {
			return rc.delivered(first.TransactionHash) && rc.delivered(during.TransactionHash) && rc.delivered(after.TransactionHash)
		})
	}
	for _, rc := range []*hookReceiver{shop, books} {
		rc.mu.Lock()
		ids := map[string]bool{}
		for _, ev := range rc.got {
			ids[ev.ID] = true
		}
		if len(ids) != 3 || len(rc.bad) > 0 {
			t.Errorf("a receiver got %d events (%+v), bad deliveries %q; want the 3 payments'", len(ids), rc.got, rc.bad)
		}
		rc.mu.Unlock()
	}
}

const atLeastOnceCaddyfile = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		webhook {{shop}}/events {
			secret {env.X402_MERCHANT_WEBHOOK_SECRET}
		}
		webhook {{books}}/x402 {
			secret {env.X402_MERCHANT_WEBHOOK_SECRET}
			events settled
		}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
		}
		respond "{{content}}"
	}
}
`

// TestWebhookBeforeTheSenders: Caddy starts while its primary network's
// chain does not answer, so the webhooks' senders (whose deliveries live
// in that network's store) cannot run yet. A payment settled on the
// second network meanwhile, and the first payment on the primary network
// the moment its chain answers, both reach the webhook: the outcomes
// waited in the stores' outboxes. (Before the outbox, an event settled
// while the senders did not exist was dropped without a trace.)
func TestWebhookBeforeTheSenders(t *testing.T) {
	defer func(d time.Duration) { networkRetry = d }(networkRetry)
	networkRetry = 200 * time.Millisecond
	const secret = "merchant-webhook-secret-0123456789"
	t.Setenv("X402_MERCHANT_WEBHOOK_SECRET", secret)
	t.Setenv("X402_HOOK_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	rc, srv := newHookReceiver(t, secret)
	second := startChain(t, 84532)
	portA, api := freePort(t), freePort(t)
	dir := filepath.ToSlash(t.TempDir())
	tok := second.Token
	cf := fmt.Sprintf(`{
	x402 {
		network eip155:31337 {
			rpc http://127.0.0.1:%d
			settler_key {env.X402_HOOK_SETTLER_KEY}
			asset %s "%s" "%s" 6
			store_path %s/a.db
		}
		network eip155:84532 {
			rpc %s
			settler_key {env.X402_HOOK_SETTLER_KEY}
			asset %s "%s" "%s" 6
			store_path %s/b.db
		}
		webhook %s/events {
			secret {env.X402_MERCHANT_WEBHOOK_SECRET}
		}
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid content"
}
`, portA, tok.Address.Hex(), tok.Name, tok.Version, dir, second.URL, tok.Address.Hex(), tok.Name, tok.Version, dir, srv.URL, api)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("Caddy did not start with its primary network down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	pay := func(network string) (*http.Response, *x402.SettleResponse) {
		t.Helper()
		resp, body := httpGet(t, base, nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil || len(pr.Accepts) != 2 {
			t.Fatalf("402: %d %s (%v)", resp.StatusCode, body, err)
		}
		i := slices.IndexFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return o.Network == network })
		p, err := (&client.Transport{Key: mustKey(t, 1), MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		resp, _ = httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: h})
		receipt, _, _ := client.Receipt(resp)
		return resp, receipt
	}
	resp, onSecond := pay("eip155:84532")
	if resp.StatusCode != 200 || onSecond == nil || !onSecond.Success {
		t.Fatalf("paying on the second network while the primary is down: %d %+v", resp.StatusCode, onSecond)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	primary, err := devnet.Start(ctx, devnet.Config{Addr: fmt.Sprintf("127.0.0.1:%d", portA), ChainID: 31337})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { primary.Close() })
	var onPrimary *x402.SettleResponse
	for {
		resp, receipt := pay("eip155:31337")
		if resp.StatusCode == 200 {
			onPrimary = receipt
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the primary network never started once its chain answered: %d", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond) // the payer's retry after a 503
	}
	rc.waitFor("both payments' events", func() bool {
		return rc.delivered(onSecond.TransactionHash) && rc.delivered(onPrimary.TransactionHash)
	})
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, ev := range rc.got {
		want := map[string]string{onSecond.TransactionHash: "eip155:84532", onPrimary.TransactionHash: "eip155:31337"}[ev.Transaction]
		if ev.Network != want || ev.Resource != base {
			t.Errorf("event %+v; want network %s, resource %s", ev, want, base)
		}
	}
	if len(rc.bad) > 0 {
		t.Errorf("bad deliveries: %q", rc.bad)
	}
}

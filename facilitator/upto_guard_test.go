package facilitator

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// One upto payment presented again, in another encoding (the payer's
// address in lower case), while its first response streams is the same
// payment to the paywall's gate (x402.PaymentID of a Permit2 payload is
// its payer's Permit2 nonce): the copy is refused (402 replay) before the
// upstream, and the payer pays once for the one response served.
func TestUptoOnePaymentOneResponse(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant := e.chain.Accounts[2].Address
	offer := e.uptoRequirements(merchant, 50_000)
	payer := e.chain.Accounts[4]
	req := e.uptoPay(payer, offer, true, nil)

	body := strings.Repeat("x", 1000)
	reached, release := make(chan struct{}, 2), make(chan struct{})
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		<-release
		io.WriteString(w, body)
	})
	srv := e.uptoPaywall(offer, nil, upstream)
	// A copy let through would wait in the upstream: the client gives up.
	client := &http.Client{Timeout: time.Minute}
	get := func(p x402.PaymentPayload) (*http.Response, string) {
		h, err := x402.EncodeHeader(&p)
		if err != nil {
			t.Error(err)
			return nil, ""
		}
		r, _ := http.NewRequest(http.MethodGet, srv.URL+"/stream", nil)
		r.Header.Set(x402.HeaderPaymentSignature, h)
		resp, err := client.Do(r)
		if err != nil {
			t.Error(err)
			return nil, ""
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}

	copied := req.PaymentPayload
	copied.Payload = bytes.Replace(req.PaymentPayload.Payload, []byte(payer.Address.Hex()), []byte(strings.ToLower(payer.Address.Hex())), 1)
	if bytes.Equal(copied.Payload, req.PaymentPayload.Payload) {
		t.Fatal("the copy is not another encoding")
	}
	before := e.permitBalance(payer.Address)
	type answer struct {
		resp *http.Response
		body string
	}
	first := make(chan answer, 1)
	go func() {
		resp, body := get(req.PaymentPayload)
		first <- answer{resp, body}
	}()
	<-reached // the first response is in the upstream
	resp, got := get(copied)
	if resp == nil || resp.StatusCode != http.StatusPaymentRequired || strings.Contains(got, body) {
		t.Fatalf("the copy while the payment is in use: %+v %q", resp, got)
	}
	close(release)
	a := <-first
	if a.resp == nil || a.resp.StatusCode != http.StatusOK || a.body != body {
		t.Fatalf("the first response: %+v", a.resp)
	}
	if len(reached) != 0 {
		t.Fatal("the copy reached the upstream")
	}
	if paid := new(big.Int).Sub(before, e.permitBalance(payer.Address)); paid.Int64() != int64(len(body)) {
		t.Fatalf("the payer paid %s for one %d-byte response", paid, len(body))
	}
}

// leaseGuard is a fleet's paywall.SharedGuard over store.Leases, as
// caddymodule keeps it in the store every replica shares.
type leaseGuard struct{ l *store.Leases }

func (g leaseGuard) Claim(_ context.Context, key [32]byte, until time.Time) (bool, error) {
	return g.l.Take(key[:], until, time.Now())
}

func (g leaseGuard) Release(_ context.Context, key [32]byte) error { return g.l.Drop(key[:]) }

// Two replicas of a fleet, each with its own Guard, share the store: one
// upto payment presented to both at once streams one response. The second
// is refused (402 replay) before its upstream while the first holds the
// payment's lease, and the payer pays once.
func TestUptoOnePaymentAcrossReplicas(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant := e.chain.Accounts[2].Address
	offer := e.uptoRequirements(merchant, 50_000)
	payer := e.chain.Accounts[5]
	req := e.uptoPay(payer, offer, true, nil)
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "fleet.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kv, err := st.Bucket(store.PaymentsInUseBucket)
	if err != nil {
		t.Fatal(err)
	}
	shared := leaseGuard{store.NewLeases(kv)}

	body := strings.Repeat("y", 700)
	reached, release := make(chan struct{}, 2), make(chan struct{})
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		<-release
		io.WriteString(w, body)
	})
	a, b := e.uptoPaywall(offer, &paywall.Guard{Shared: shared}, upstream), e.uptoPaywall(offer, &paywall.Guard{Shared: shared}, upstream)
	h, err := x402.EncodeHeader(&req.PaymentPayload)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: time.Minute}
	get := func(url string) (int, string) {
		r, _ := http.NewRequest(http.MethodGet, url+"/stream", nil)
		r.Header.Set(x402.HeaderPaymentSignature, h)
		resp, err := client.Do(r)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(got)
	}
	before := e.permitBalance(payer.Address)
	first := make(chan string, 1)
	go func() {
		_, got := get(a.URL)
		first <- got
	}()
	<-reached // replica a streams the payment's response
	if code, got := get(b.URL); code != http.StatusPaymentRequired || strings.Contains(got, body) {
		t.Fatalf("replica b while a serves the payment: %d %q", code, got)
	}
	close(release)
	if got := <-first; got != body {
		t.Fatalf("replica a's response: %q", got)
	}
	if len(reached) != 0 {
		t.Fatal("replica b reached its upstream")
	}
	if paid := new(big.Int).Sub(before, e.permitBalance(payer.Address)); paid.Int64() != int64(len(body)) {
		t.Fatalf("the payer paid %s for one %d-byte response", paid, len(body))
	}
	if ok, err := shared.l.Take([]byte("probe"), time.Now().Add(time.Minute), time.Now()); !ok || err != nil {
		t.Fatalf("the store: %v %v", ok, err)
	}
	// The payment's lease ended with its response.
	if n, err := shared.l.Prune(time.Now().Add(2 * time.Minute)); n != 1 || err != nil {
		t.Fatalf("leases left: %d (%v), want only the probe's", n, err)
	}
}

// uptoPaywall serves upstream behind a paywall of the upto offer, metered
// at one unit a byte, with guard (nil for its own).
func (e *env) uptoPaywall(offer x402.PaymentRequirements, guard *paywall.Guard, upstream http.Handler) *httptest.Server {
	e.t.Helper()
	pw, err := paywall.New(paywall.Config{
		Accepts: []x402.PaymentRequirements{offer}, Facilitator: e.svc, Guard: guard,
		Usage: &paywall.Usage{Per: paywall.UsageBytes, Prices: map[string]*big.Int{strings.ToLower(offer.Asset): big.NewInt(1)}},
	})
	if err != nil {
		e.t.Fatal(err)
	}
	srv := httptest.NewServer(pw.Handler(upstream))
	e.t.Cleanup(srv.Close)
	return srv
}

// countingGuard counts the leases a paywall asked of a fleet's store.
type countingGuard struct {
	leaseGuard
	claims atomic.Int64
}

func (g *countingGuard) Claim(ctx context.Context, key [32]byte, until time.Time) (bool, error) {
	g.claims.Add(1)
	return g.leaseGuard.Claim(ctx, key, until)
}

// Nothing durable before a signature verifies: upto payments whose
// signature does not verify are refused without a lease in the fleet's
// store (issue 40, item 4: each one wrote and deleted a lease, an INSERT
// and a DELETE on a fleet's database per unauthenticated request); a
// signed one still takes its lease.
func TestUptoUnsignedWritesNothing(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	offer := e.uptoRequirements(e.chain.Accounts[2].Address, 50_000)
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "fleet.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kv, err := st.Bucket(store.PaymentsInUseBucket)
	if err != nil {
		t.Fatal(err)
	}
	guard := &countingGuard{leaseGuard: leaseGuard{store.NewLeases(kv)}}
	var hits atomic.Int64
	srv := e.uptoPaywall(offer, &paywall.Guard{Shared: guard}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "metered")
	}))
	client := &http.Client{Timeout: time.Minute}
	get := func(p *x402.PaymentPayload) int {
		h, err := x402.EncodeHeader(p)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := http.NewRequest(http.MethodGet, srv.URL+"/stream", nil)
		r.Header.Set(x402.HeaderPaymentSignature, h)
		resp, err := client.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	const unsigned = 100
	for i := range unsigned {
		req := e.uptoPay(e.chain.Accounts[5], offer, true, nil)
		forged := req.PaymentPayload
		var payload map[string]json.RawMessage
		if err := json.Unmarshal(forged.Payload, &payload); err != nil {
			t.Fatal(err)
		}
		var sig string
		json.Unmarshal(payload["signature"], &sig)
		// Another signature of the right shape: it recovers to someone
		// else, or to nobody.
		b := []byte(sig)
		b[10+i%50] ^= 1
		payload["signature"], _ = json.Marshal(string(b))
		forged.Payload, _ = json.Marshal(payload)
		if code := get(&forged); code != http.StatusPaymentRequired {
			t.Fatalf("forged payment %d: %d, want 402", i, code)
		}
	}
	if n := guard.claims.Load(); n != 0 || hits.Load() != 0 {
		t.Fatalf("%d unsigned payments took %d leases and reached the upstream %d times, want none", unsigned, n, hits.Load())
	}
	req := e.uptoPay(e.chain.Accounts[5], offer, true, nil)
	if code := get(&req.PaymentPayload); code != http.StatusOK || guard.claims.Load() != 1 {
		t.Fatalf("the signed payment: %d, %d leases", code, guard.claims.Load())
	}
}

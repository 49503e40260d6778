package paywall_test

import (
	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// replicaLedger is one replica's paywall.SharedExposure: store.Exposure
// over its own handle of the fleet's PostgreSQL store, as caddymodule's
// chainExposure keeps it.
type replicaLedger struct{ e *store.Exposure }

func (l replicaLedger) Reserve(_ context.Context, h paywall.SharedHold, perPayer int, site, route *big.Int) (bool, error) {
	return l.e.Reserve(store.Hold(h), store.ExposureLimits{PerPayer: perPayer, Site: site, Route: route}, time.Now())
}

func (l replicaLedger) Release(_ context.Context, h paywall.SharedHold, boxUntil time.Time) error {
	return l.e.Release(store.Hold(h), boxUntil, time.Now())
}

func (l replicaLedger) Boxed(_ context.Context, payer string) (bool, error) {
	_, boxed, err := l.e.BoxedUntil(payer, time.Now())
	return boxed, err
}

// TestFleetServeOnBroadcast: two replicas of a paywall serving on
// broadcast, each with its own ledger and its own handle of one
// PostgreSQL store, on a chain that seals a block every 3 s. A payer
// served on broadcast by one replica (at most one payment of a payer in
// flight) waits for inclusion on the other while the first is in flight;
// on each replica alone it would be served on broadcast twice. A payer
// that front-runs its settlement on one replica is boxed on the other.
func TestFleetServeOnBroadcast(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t, "serve-on-broadcast's ledger across a fleet")
	schema := pgtest.Schema(t, url, "exposure")
	ctx := context.Background()
	bc := newBroadcastChain(t, 3*time.Second, time.Now, 30*time.Second)
	d, eth, fac, offer, network := bc.d, bc.eth, bc.fac, bc.offer, bc.network

	// outcome is one answered payment: whether it was served on
	// broadcast, and, for one that was, when its settlement became final.
	type outcome struct {
		broadcast bool
		final     chan time.Time
	}
	var mu sync.Mutex
	outcomes := map[string]*outcome{} // by the payment's nonce
	// outcomeOf is e's outcome, made if new; mu is held.
	outcomeOf := func(e *paywall.Event) *outcome {
		key := string(e.Payment.Payload)
		if outcomes[key] == nil {
			outcomes[key] = &outcome{final: make(chan time.Time, 1)}
		}
		return outcomes[key]
	}
	unpaid := make(chan *paywall.Event, 4)
	type replica struct {
		exposure *paywall.Exposure
		url      string
	}
	var replicas []replica
	for range 2 {
		pg, err := postgres.Open(ctx, postgres.Config{URL: url, Schema: schema, MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		kv, err := pg.Bucket(store.ExposureBucket)
		if err != nil {
			t.Fatal(err)
		}
		exposure := &paywall.Exposure{Penalty: time.Hour, Shared: replicaLedger{store.NewExposure(kv)}}
		pw, err := paywall.New(paywall.Config{
			Accepts: []x402.PaymentRequirements{offer}, Facilitator: fac,
			Broadcast: &paywall.Broadcast{Exposure: exposure, Route: "report", MaxPerPayer: 1,
				MaxInFlight: map[string]*big.Int{paywall.AssetKey(network, offer.Asset): big.NewInt(10 * price)}},
			Hooks: paywall.Hooks{
				AfterSettle: func(_ *http.Request, e *paywall.Event) {
					mu.Lock()
					defer mu.Unlock()
					o := outcomeOf(e)
					o.broadcast = e.Broadcast
					if !e.Broadcast {
						o.final <- time.Now()
					}
				},
				AfterBroadcast: func(_ *http.Request, e *paywall.Event) {
					mu.Lock()
					o := outcomeOf(e)
					mu.Unlock()
					o.final <- time.Now()
					if !e.Settle.Success {
						unpaid <- e
					}
				},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(pw.Handler(report))
		t.Cleanup(srv.Close)
		replicas = append(replicas, replica{exposure: exposure, url: srv.URL + "/report"})
	}

	head := func() uint64 {
		n, err := eth.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	nextBlock := func() {
		for h, deadline := head(), time.Now().Add(time.Minute); head() == h; {
			if time.Now().After(deadline) {
				t.Fatal("no block in a minute")
			}
			time.Sleep(5 * time.Millisecond) // polling the chain for its next block
		}
	}
	// pay pays key's payment on a replica; ok is false when it was refused.
	pay := func(key *devnet.Account, on replica) (o *outcome, ok bool) {
		p, err := (&client.Transport{Key: key.Key}).Pay(&x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{offer}}, &offer)
		if err != nil {
			t.Fatal(err)
		}
		header, _ := x402.EncodeHeader(p)
		resp, body := do(t, on.url, header)
		if resp.StatusCode == http.StatusPaymentRequired {
			return nil, false
		}
		if resp.StatusCode != 200 || body != `{"report":"paid content"}` {
			t.Fatalf("paying: %d %s", resp.StatusCode, body)
		}
		mu.Lock()
		defer mu.Unlock()
		return outcomes[string(p.Payload)], true
	}
	finalOf := func(o *outcome) time.Time {
		select {
		case at := <-o.final:
			return at
		case <-time.After(time.Minute):
			t.Fatal("no final outcome of a payment served on broadcast in a minute")
			return time.Time{}
		}
	}

	// One payer, one payment in flight, across the fleet. A machine too
	// loaded to pay twice within a block period tries again.
	payer := &d.Accounts[1]
	for attempt := 0; ; attempt++ {
		nextBlock()
		first, ok := pay(payer, replicas[0])
		if !ok || first == nil || !first.broadcast {
			t.Fatalf("the first payment on replica 0: paid %v, %+v; want it served on broadcast", ok, first)
		}
		started := time.Now()
		second, ok := pay(payer, replicas[1])
		if !ok || second == nil {
			t.Fatalf("the second payment on replica 1: paid %v", ok)
		}
		if finalOf(first).Before(started) {
			if attempt == 4 {
				t.Fatal("the first payment was final before the second was made, 5 times")
			}
			if second.broadcast {
				finalOf(second)
			}
			continue
		}
		if second.broadcast {
			t.Fatal("replica 1 served on broadcast a payer with a payment in flight on replica 0 (max_per_payer 1)")
		}
		break
	}

	// A front-runner served on broadcast by replica 0 is boxed on both.
	attacker, sink := &d.Accounts[3], &d.Accounts[9]
	balance := (&env{t: t, chain: d, eth: eth}).balance(attacker.Address)
	transfer := bc.transfer
	for attempt := 0; ; attempt++ {
		nextBlock()
		transfer(attacker, sink.Address, balance)
		o, ok := pay(attacker, replicas[0])
		if ok {
			if !o.broadcast {
				t.Fatal("the front-runner's payment was not served on broadcast")
			}
			break
		}
		// Its transfer was mined before the payment was verified.
		if attempt == 4 {
			t.Fatal("the front-run never reached the paywall before its transfer was mined (5 attempts)")
		}
		if _, err := d.Wait(ctx, transfer(sink, attacker.Address, balance)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case e := <-unpaid:
		if e.Settle.Payer != attacker.Address.Hex() {
			t.Fatalf("served unpaid: %+v", e.Settle)
		}
	case <-time.After(time.Minute):
		t.Fatal("the front-run settlement was not reported in a minute")
	}
	for i, r := range replicas {
		if !r.exposure.Boxed(attacker.Address.Hex()) || r.exposure.Boxed(payer.Address.Hex()) {
			t.Fatalf("replica %d's penalty box: the front-runner boxed %v, the honest payer %v", i,
				r.exposure.Boxed(attacker.Address.Hex()), r.exposure.Boxed(payer.Address.Hex()))
		}
	}
}

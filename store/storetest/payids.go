package storetest

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
)

// runPaymentIDs checks the payment-identifier index (store.PaymentIDs) on
// the backend's key-value spaces: one payment per (payer, identifier),
// payers kept apart, the served result kept, an unserved binding released,
// expiry and pruning, a binding won by one payment under concurrency
// across handles, and entries that survive a reopen.
func runPaymentIDs(t *testing.T, b Backend) {
	const ttl = time.Hour
	open := func(t *testing.T, s store.Backend) *store.PaymentIDs {
		t.Helper()
		return store.NewPaymentIDs(bucket(t, s, store.PaymentIDBucket), ttl)
	}
	p1, p2 := [32]byte{1}, [32]byte{2}
	const payer, other, id = "0xpayer", "0xother", "pay_0123456789abcdef"

	t.Run("payment identifiers bind one payment per payer", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		ids := open(t, s)
		steps := []struct {
			name        string
			scope       string
			payment     [32]byte
			at          time.Duration
			wantBound   [32]byte
			wantBoundAt time.Duration
		}{
			{"a free identifier binds", payer, p1, 0, p1, 0},
			{"the same payment again keeps it", payer, p1, time.Minute, p1, 0},
			{"another payment conflicts", payer, p2, 2 * time.Minute, p1, 0},
			{"another payer's identifier is its own", other, p2, 3 * time.Minute, p2, 3 * time.Minute},
			{"an expired binding is free again", payer, p2, ttl, p2, ttl},
		}
		for _, st := range steps {
			e, err := ids.Bind(st.scope, id, st.payment, t0.Add(st.at))
			if err != nil || e.Payment != st.wantBound || !e.Bound.Equal(t0.Add(st.wantBoundAt)) || e.Served {
				t.Fatalf("%s: bound %+v, %v; want payment %x at %v", st.name, e, err, st.wantBound[:1], st.wantBoundAt)
			}
		}
	})

	t.Run("payment identifiers keep the served result", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		ids := open(t, s)
		result := json.RawMessage(`{"success":true,"transaction":"0x01"}`)
		if _, err := ids.Bind(payer, id, p1, t0); err != nil {
			t.Fatal(err)
		}
		must(t, ids.Serve(payer, id, p2, json.RawMessage(`{"success":false}`))) // not its payment: no effect
		must(t, ids.Serve(payer, id, p1, result))
		must(t, ids.Release(payer, id, p1)) // served: stays bound
		check := func(t *testing.T, ids *store.PaymentIDs) {
			t.Helper()
			e, ok, err := ids.Lookup(payer, id, t0.Add(time.Minute))
			if err != nil || !ok || e.Payment != p1 || !e.Served || string(e.Result) != string(result) {
				t.Fatalf("lookup: %+v %v %v", e, ok, err)
			}
			if _, ok, err := ids.Lookup(other, id, t0); ok || err != nil {
				t.Fatalf("another payer sees the binding: %v %v", ok, err)
			}
		}
		check(t, ids)
		if b.Reopen != nil {
			s = b.Reopen(t, s)
			check(t, open(t, s))
		}
	})

	t.Run("payment identifiers of unsettled payments are released", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		ids := open(t, s)
		if _, err := ids.Bind(payer, id, p1, t0); err != nil {
			t.Fatal(err)
		}
		must(t, ids.Release(payer, id, p2)) // not its payment: no effect
		if e, _ := ids.Bind(payer, id, p2, t0); e.Payment != p1 {
			t.Fatalf("released by another payment: %+v", e)
		}
		must(t, ids.Release(payer, id, p1))
		if _, ok, err := ids.Lookup(payer, id, t0); ok || err != nil {
			t.Fatalf("a released binding is found: %v %v", ok, err)
		}
		if e, err := ids.Bind(payer, id, p2, t0.Add(time.Second)); err != nil || e.Payment != p2 {
			t.Fatalf("a released identifier does not bind again: %+v %v", e, err)
		}
	})

	t.Run("payment identifiers expire and are pruned", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		ids := open(t, s)
		for i, at := range []time.Duration{0, 10 * time.Minute, 50 * time.Minute, 2 * ttl} {
			if _, err := ids.Bind(payer, id+string(rune('a'+i)), p1, t0.Add(at)); err != nil {
				t.Fatal(err)
			}
		}
		now := t0.Add(ttl + 10*time.Minute) // the first two are expired
		if _, ok, _ := ids.Lookup(payer, id+"a", now); ok {
			t.Fatal("an expired binding is found")
		}
		n, err := ids.Prune(now)
		if err != nil || n != 2 {
			t.Fatalf("pruned %d, %v; want 2", n, err)
		}
		for _, c := range []struct {
			suffix string
			found  bool
		}{{"a", false}, {"b", false}, {"c", true}, {"d", true}} {
			if _, ok, err := ids.Lookup(payer, id+c.suffix, t0.Add(50*time.Minute)); ok != c.found || err != nil {
				t.Errorf("%s: found %v, %v; want %v", c.suffix, ok, err, c.found)
			}
		}
		if n, err := ids.Prune(now); err != nil || n != 0 {
			t.Fatalf("a second prune deleted %d, %v", n, err)
		}
	})

	t.Run("payment identifiers bind one of concurrent payments", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []*store.PaymentIDs{open(t, s)}
		if b.Second != nil {
			handles = append(handles, open(t, b.Second(t, s)))
		}
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			bound = map[[32]byte]int{}
		)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				pay := [32]byte{byte(i + 1)}
				e, err := handles[i%len(handles)].Bind(payer, id, pay, t0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				bound[e.Payment]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if len(bound) != 1 {
			t.Fatalf("the identifier was bound to %d payments: %v", len(bound), bound)
		}
	})
}

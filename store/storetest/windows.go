package storetest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
)

// runAccessWindows checks paid access windows (store.AccessWindows) on the
// backend's key-value spaces: a window serves its payer on its scope only,
// until it expires or its budget is spent; a payment in a live window
// extends it; a budget is never overspent and a nonce never used twice
// under concurrency across handles; windows survive a reopen; and pruning
// deletes only what ended.
func runAccessWindows(t *testing.T, b Backend) {
	open := func(t *testing.T, s store.Backend) *store.AccessWindows {
		t.Helper()
		return store.NewAccessWindows(bucket(t, s, store.AccessWindowBucket), bucket(t, s, store.SignInNonceBucket))
	}
	const scope, other, payer, stranger = "https://a.example|route1", "https://a.example|route2", "0xpayer", "0xstranger"

	t.Run("access windows serve their payer and scope until they end", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		ws := open(t, s)
		w, err := ws.Open(scope, payer, time.Hour, 3, "0xt1", t0)
		if err != nil || w.Used != 1 || w.Budget != 3 || !w.Expires.Equal(t0.Add(time.Hour)) {
			t.Fatalf("opened %+v, %v", w, err)
		}
		for _, c := range []struct {
			name         string
			scope, payer string
			at           time.Duration
			want         bool
		}{
			{"another payer", scope, stranger, time.Minute, false},
			{"another scope", other, payer, time.Minute, false},
			{"the payer in the window", scope, payer, time.Minute, true},
			{"after it expired", scope, payer, time.Hour, false},
			{"the last request of the budget", scope, payer, 59 * time.Minute, true},
			{"past the budget", scope, payer, 59 * time.Minute, false},
		} {
			if _, ok, err := ws.Use(c.scope, c.payer, t0.Add(c.at)); ok != c.want || err != nil {
				t.Fatalf("%s: used %v, %v; want %v", c.name, ok, err, c.want)
			}
		}
		// A payment once the budget is spent opens a new window.
		w, err = ws.Open(scope, payer, time.Hour, 3, "0xt2", t0.Add(2*time.Hour))
		if err != nil || w.Used != 1 || w.Budget != 3 || !w.Opened.Equal(t0.Add(2*time.Hour)) || w.Transaction != "0xt2" {
			t.Fatalf("reopened %+v, %v", w, err)
		}
		// A payment in a live window extends it.
		w, err = ws.Open(scope, payer, time.Hour, 3, "0xt3", t0.Add(150*time.Minute))
		if err != nil || w.Used != 2 || w.Budget != 6 || !w.Expires.Equal(t0.Add(4*time.Hour)) || !w.Opened.Equal(t0.Add(2*time.Hour)) {
			t.Fatalf("extended %+v, %v", w, err)
		}
	})

	t.Run("access windows keep a budget and a nonce under concurrency", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []*store.AccessWindows{open(t, s)}
		if b.Second != nil {
			handles = append(handles, open(t, b.Second(t, s)))
		}
		if _, err := handles[0].Open(scope, payer, time.Hour, 10, "0xt", t0); err != nil {
			t.Fatal(err)
		}
		var used, nonces atomic.Int64
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ws := handles[i%len(handles)]
				if _, ok, err := ws.Use(scope, payer, t0.Add(time.Minute)); err != nil {
					t.Error(err)
				} else if ok {
					used.Add(1)
				}
				if ok, err := ws.UseNonce("nonce-1", t0.Add(5*time.Minute), t0); err != nil {
					t.Error(err)
				} else if ok {
					nonces.Add(1)
				}
			}()
		}
		wg.Wait()
		if used.Load() != 9 || nonces.Load() != 1 {
			t.Fatalf("%d requests served of a budget of 10 with one paid; nonce used %d times", used.Load(), nonces.Load())
		}
		// A nonce is free again once it is no longer remembered (its
		// message has expired by then).
		if ok, err := handles[0].UseNonce("nonce-1", t0.Add(10*time.Minute), t0.Add(5*time.Minute)); !ok || err != nil {
			t.Fatalf("a forgotten nonce: %v, %v", ok, err)
		}
	})

	t.Run("access windows survive a reopen and are pruned when they end", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		ws := open(t, s)
		must(t, func() error { _, err := ws.Open(scope, payer, time.Hour, 0, "0xt", t0); return err }())
		must(t, func() error { _, err := ws.Open(other, payer, 2*time.Hour, 0, "0xt", t0); return err }())
		must(t, func() error { _, err := ws.UseNonce("n1", t0.Add(time.Minute), t0); return err }())
		if b.Reopen != nil {
			s = b.Reopen(t, s)
			ws = open(t, s)
		}
		if w, ok, err := ws.Use(scope, payer, t0.Add(30*time.Minute)); !ok || err != nil || w.Used != 2 || w.Budget != 0 {
			t.Fatalf("after a reopen: %+v %v %v", w, ok, err)
		}
		if ok, _ := ws.UseNonce("n1", t0.Add(time.Minute), t0.Add(time.Second)); ok {
			t.Fatal("a used nonce was used again after a reopen")
		}
		must(t, func() error { _, err := ws.UseNonce("n2", t0.Add(10*time.Minute), t0); return err }())
		if n, err := ws.PruneNonces(t0.Add(5 * time.Minute)); n != 1 || err != nil {
			t.Fatalf("pruned %d nonces, %v; want the one no longer remembered", n, err)
		}
		if ok, _ := ws.UseNonce("n2", t0.Add(10*time.Minute), t0.Add(6*time.Minute)); ok {
			t.Fatal("a remembered nonce was pruned")
		}
		if n, err := ws.Prune(t0.Add(90 * time.Minute)); n != 2 || err != nil {
			t.Fatalf("pruned %d, %v; want the ended window and the nonce n2", n, err)
		}
		if _, ok, err := ws.Lookup(other, payer); !ok || err != nil {
			t.Fatalf("the live window was pruned: %v %v", ok, err)
		}
	})
}

package storetest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
)

// runLeases checks store.Leases: one lease of a key at a time, across
// handles under concurrency; a lease ends when dropped or at its end; and
// pruning deletes only the ended ones.
func runLeases(t *testing.T, b Backend) {
	t.Run("a payment is leased by one holder at a time", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []*store.Leases{store.NewLeases(bucket(t, s, store.PaymentsInUseBucket))}
		if b.Second != nil {
			handles = append(handles, store.NewLeases(bucket(t, b.Second(t, s), store.PaymentsInUseBucket)))
		}
		var (
			wg      sync.WaitGroup
			winners atomic.Int32
		)
		for i := range 20 {
			wg.Go(func() {
				ok, err := handles[i%len(handles)].Take([]byte("pay-1"), t0.Add(time.Hour), t0)
				if err != nil {
					t.Error(err)
				}
				if ok {
					winners.Add(1)
				}
			})
		}
		wg.Wait()
		if winners.Load() != 1 {
			t.Fatalf("%d holders of one lease", winners.Load())
		}
		l := handles[len(handles)-1]
		must(t, l.Drop([]byte("pay-1")))
		if ok, err := handles[0].Take([]byte("pay-1"), t0.Add(time.Minute), t0); !ok || err != nil {
			t.Fatalf("a dropped lease: %v %v", ok, err)
		}
		if ok, _ := l.Take([]byte("pay-1"), t0.Add(time.Hour), t0.Add(30*time.Second)); ok {
			t.Fatal("a live lease was taken again")
		}
		if ok, err := l.Take([]byte("pay-1"), t0.Add(time.Hour), t0.Add(time.Minute)); !ok || err != nil {
			t.Fatalf("an ended lease: %v %v", ok, err)
		}
		if ok, err := l.Take([]byte("pay-2"), t0.Add(time.Minute), t0); !ok || err != nil {
			t.Fatalf("another key: %v %v", ok, err)
		}
		if n, err := l.Prune(t0.Add(2 * time.Minute)); n != 1 || err != nil {
			t.Fatalf("pruned %d, %v; want pay-2's ended lease", n, err)
		}
		if ok, _ := l.Take([]byte("pay-1"), t0.Add(time.Hour), t0.Add(2*time.Minute)); ok {
			t.Fatal("pruning ended a live lease")
		}
	})
}

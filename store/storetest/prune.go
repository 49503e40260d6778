package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// runPrune checks the retention of final records (store.FinalPruner), and
// that final records are stored trimmed.
func runPrune(t *testing.T, b Backend) {
	t.Run("prune deletes old final records and nothing else", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		cutoff := t0.Add(time.Hour)
		final := func(key byte, created, updated time.Duration, state store.State) store.Record {
			r := at(common.Hash{0x30, key}, created, state)
			r.Updated = t0.Add(updated)
			return r
		}
		pruned := []store.Record{
			final(1, 0, time.Second, store.StateSettled),
			final(2, 10*time.Minute, 10*time.Minute, store.StateFailed),
			final(3, -30*24*time.Hour, -30*24*time.Hour, store.StateSettled),
			final(4, time.Hour-time.Microsecond, time.Hour-time.Microsecond, store.StateSettled),
		}
		kept := []store.Record{
			final(10, 30*time.Minute, time.Hour, store.StateSettled), // final at the cutoff
			final(11, 40*time.Minute, 3*time.Hour, store.StateFailed),
			final(12, time.Hour, time.Hour, store.StateSettled),
			final(13, 2*time.Hour, 2*time.Hour, store.StateSettled),
			final(14, -24*time.Hour, -24*time.Hour, store.StateClaimed),
			final(15, -time.Hour, -time.Hour, store.StateSubmitted),
		}
		lay(t, []store.Backend{s}, append(append([]store.Record(nil), pruned...), kept...))
		// A payment as the facilitator makes one: claimed with its
		// transaction, settled, handed over and served.
		paid := Payment(0, t0.Add(20*time.Minute))
		Settle(t, s, paid)
		pruned = append(pruned, paid)
		kv := bucket(t, s, "conformance_prune")
		must(t, kv.Put([]byte("k"), []byte("v")))

		n, err := s.PruneFinal(t.Context(), cutoff, 1000)
		if err != nil || n != len(pruned) {
			t.Fatalf("pruned %d records, %v; want %d", n, err, len(pruned))
		}
		check := func(t *testing.T, s store.Backend) {
			t.Helper()
			for _, r := range pruned {
				if got := get(t, s, r.Key); got != nil {
					t.Errorf("a pruned record stays: %+v", got)
				}
			}
			for _, r := range kept {
				if got := get(t, s, r.Key); got == nil || got.State != r.State {
					t.Errorf("a kept record is %+v, want state %s", got, r.State)
				}
			}
			sameKeys(t, "the listing", listAll(t, s, store.Query{Limit: 4}), newestFirst(kept))
			rep, err := s.Summarize(t.Context(), store.SummaryQuery{Since: t0.Add(-31 * 24 * time.Hour), Until: t0.Add(3 * time.Hour), Step: 24 * time.Hour})
			must(t, err)
			if rep.Settled != 3 || rep.Failed != 1 || rep.Pending != 2 {
				t.Errorf("the summary counts %d settled, %d failed, %d pending; want 3, 1, 2", rep.Settled, rep.Failed, rep.Pending)
			}
			recs, err := s.Unfinished()
			must(t, err)
			if len(recs) != 2 {
				t.Errorf("%d unfinished records, want 2", len(recs))
			}
			if v, err := bucket(t, s, "conformance_prune").Get([]byte("k")); err != nil || string(v) != "v" {
				t.Errorf("a key-value space changed: %q %v", v, err)
			}
			if n, err := s.PruneFinal(t.Context(), cutoff, 1000); err != nil || n != 0 {
				t.Errorf("pruned again: %d %v", n, err)
			}
		}
		check(t, s)
		if b.Reopen != nil {
			s = b.Reopen(t, s)
			check(t, s)
		}
		// The replay key of a pruned record is free: from now on the chain
		// refuses the payment (see store.FinalPruner).
		mustClaim(t, s, record(1))
	})

	t.Run("prune keeps to its limit, oldest first", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		var recs, finals []store.Record
		for i := range 600 {
			state := store.StateSettled
			switch i % 5 {
			case 1:
				state = store.StateFailed
			case 3:
				state = store.StateClaimed // in the way, every fifth
			}
			// Keys against the order of creation.
			r := at(common.Hash{0x31, byte(255 - i>>8), byte(255 - i)}, time.Duration(i)*time.Second, state)
			recs = append(recs, r)
			if state.Final() {
				finals = append(finals, r)
			}
		}
		lay(t, []store.Backend{s}, recs)
		for _, limit := range []int{0, -1} {
			if _, err := s.PruneFinal(t.Context(), t0.Add(time.Hour), limit); err == nil {
				t.Errorf("pruned with a limit of %d", limit)
			}
		}
		left := func() []store.Record {
			var out []store.Record
			for _, r := range newestFirst(recs) {
				if !r.State.Final() || get(t, s, r.Key) != nil {
					out = append(out, r)
				}
			}
			return out
		}
		want := len(finals)
		for _, limit := range []int{3, 300, 1000, 1000} {
			n, err := s.PruneFinal(t.Context(), t0.Add(time.Hour), limit)
			must(t, err)
			if wantN := min(limit, want); n != wantN {
				t.Fatalf("a prune limited to %d pruned %d, want %d", limit, n, wantN)
			}
			want -= n
			// The oldest went first: what is left is the newest.
			var kept []store.Record
			for _, r := range newestFirst(recs) {
				if !r.State.Final() {
					kept = append(kept, r)
				}
			}
			for _, r := range newestFirst(finals)[:want] {
				kept = append(kept, r)
			}
			sameKeys(t, fmt.Sprint("after a prune of ", limit), listAll(t, s, store.Query{Limit: store.MaxPageSize}), newestFirst(kept))
			if got := left(); len(got) != len(kept) {
				t.Fatalf("after a prune of %d: %d records left, want %d", limit, len(got), len(kept))
			}
		}
	})

	t.Run("a cancelled prune deletes nothing", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		r := at(common.Hash{0x32}, 0, store.StateSettled)
		mustClaim(t, s, r)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if n, err := s.PruneFinal(ctx, t0.Add(time.Hour), 10); !errors.Is(err, context.Canceled) || n != 0 {
			t.Fatalf("a cancelled prune: %d %v", n, err)
		}
		if get(t, s, r.Key) == nil {
			t.Fatal("a cancelled prune deleted a record")
		}
	})

	t.Run("prune is safe beside claims and other prunes", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []store.Backend{s}
		if b.Second != nil {
			handles = append(handles, b.Second(t, s))
		}
		cutoff := t0.Add(time.Hour)
		var old []store.Record
		for i := range 300 {
			r := at(common.Hash{0x33, byte(i >> 8), byte(i)}, time.Duration(i)*time.Millisecond, store.StateSettled)
			r.Updated = r.Created.Add(time.Second)
			old = append(old, r)
		}
		lay(t, handles, old)
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			total  int
			claims []store.Record
		)
		for i := range 4 {
			wg.Go(func() { // a pruner, on each handle in turn
				for {
					n, err := handles[i%len(handles)].PruneFinal(t.Context(), cutoff, 7)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					total += n
					mu.Unlock()
					if n == 0 {
						return
					}
				}
			})
			wg.Go(func() { // a settle, claiming keys among the old records
				h := handles[i%len(handles)]
				for j := range 50 {
					// Created among the records pruned, so a prune walks
					// past them.
					r := at(common.Hash{0x34, byte(i), byte(j)}, time.Duration(j)*time.Millisecond, store.StateClaimed)
					mustClaim(t, h, r)
					if j%2 == 1 {
						sub := submitted(r, byte(j))
						must(t, h.Submit(&sub))
						r = sub
						if j%4 == 1 {
							// Final after the cutoff: kept.
							fin := settled(sub)
							fin.Updated = cutoff.Add(time.Hour)
							must(t, h.Finish(&fin))
							r = fin
						}
					}
					mu.Lock()
					claims = append(claims, r)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		if n, err := s.PruneFinal(t.Context(), cutoff, 1000); err != nil || total+n != len(old) {
			t.Fatalf("pruned %d records, then %d (%v); want %d in all", total, n, err, len(old))
		}
		for _, r := range claims {
			if got := get(t, s, r.Key); got == nil || got.State != r.State {
				t.Fatalf("a record claimed beside the prunes is %+v, want state %s", got, r.State)
			}
		}
		sameKeys(t, "the listing", listAll(t, s, store.Query{Limit: store.MaxPageSize}), newestFirst(claims))
		rep, err := s.Summarize(t.Context(), store.SummaryQuery{Since: t0, Until: cutoff, Step: time.Hour})
		must(t, err)
		if rep.Settled+rep.Pending != len(claims) || rep.Failed != 0 {
			t.Fatalf("the summary counts %d settled, %d failed, %d pending; want %d in all", rep.Settled, rep.Failed, rep.Pending, len(claims))
		}
	})

	t.Run("final records are stored without their transaction", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		check := func(s store.Backend, key common.Hash, tx common.Hash) {
			t.Helper()
			got := get(t, s, key)
			if got == nil || len(got.RawTx) != 0 || got.TxHash != tx || got.Response == nil {
				t.Fatalf("the final record: %+v", got)
			}
		}
		r := record(50)
		mustClaim(t, s, r)
		sub := submitted(r, 50)
		must(t, s.Submit(&sub))
		if got := get(t, s, r.Key); string(got.RawTx) != "\x32" {
			t.Fatalf("the submitted record holds %x", got.RawTx)
		}
		fin := settled(sub)
		must(t, s.Finish(&fin))
		if string(fin.RawTx) != "\x32" {
			t.Fatal("Finish changed the record it was given")
		}
		check(s, r.Key, sub.TxHash)
		if _, ok, err := s.Consume(r.Key, "owner"); err != nil || !ok {
			t.Fatalf("consume: %v %v", ok, err)
		}
		must(t, s.Serve(r.Key, "owner"))
		check(s, r.Key, sub.TxHash)

		f := submitted(record(51), 51)
		mustClaim(t, s, f)
		f.State, f.Response = store.StateFailed, &x402.SettleResponse{X402Version: 2, Network: f.Network, ErrorCode: x402.ErrorUserOpFailed}
		must(t, s.Finish(&f))
		check(s, f.Key, f.TxHash)

		p := Payment(1, t0) // aa-native, with its transaction of 1.7 kB
		Settle(t, s, p)
		check(s, p.Key, p.TxHash)
		if b.Reopen != nil {
			s = b.Reopen(t, s)
			check(s, r.Key, sub.TxHash)
			check(s, p.Key, p.TxHash)
		}
	})
}

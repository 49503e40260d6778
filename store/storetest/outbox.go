package storetest

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// outbox lists the entries of s's outbox, decoded, in key order.
func outbox(t *testing.T, s store.Backend) (keys [][]byte, recs []*store.Record) {
	t.Helper()
	err := bucket(t, s, store.OutboxBucket).ForEach(func(k, v []byte) error {
		rec, err := store.DecodeOutbox(v)
		if err != nil {
			return err
		}
		keys, recs = append(keys, bytes.Clone(k)), append(recs, rec)
		return nil
	})
	must(t, err)
	return keys, recs
}

// runOutbox checks the outbox (store.OutboxBucket): Finish writes the
// final outcome of a record with Notify set in the same commit, once,
// whichever handle finishes it and however many try; a record without
// Notify writes nothing, and neither does a refused transition; the
// entries survive a reopen and list in the order the records finished.
func runOutbox(t *testing.T, b Backend) {
	t.Run("finishing a record to be told writes its outcome to the outbox", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		quiet, told, failed := record(1), record(2), record(3)
		told.Notify, failed.Notify = true, true
		for _, r := range []store.Record{quiet, told, failed} {
			mustClaim(t, s, r)
			sub := submitted(r, r.Key[0])
			must(t, s.Submit(&sub))
		}
		if keys, _ := outbox(t, s); len(keys) != 0 {
			t.Fatalf("%d outbox entries before any record is final", len(keys))
		}
		fq := settled(submitted(quiet, 1))
		must(t, s.Finish(&fq))
		// Finished in the order failed, then told: the outbox lists them
		// so, by their Updated time.
		ff := submitted(failed, 3)
		ff.State, ff.Updated = store.StateFailed, t0.Add(time.Minute)
		ff.Response = &x402.SettleResponse{X402Version: 2, Network: ff.Network, ErrorCode: x402.ErrorVerifyFailed, TransactionHash: ff.TxHash.Hex()}
		must(t, s.Finish(&ff))
		ft := settled(submitted(told, 2))
		ft.Updated = t0.Add(2 * time.Minute)
		must(t, s.Finish(&ft))
		if err := s.Finish(&ft); !errors.Is(err, store.ErrTransition) {
			t.Fatalf("finishing twice: %v", err)
		}
		s = reopen(t, b, s)
		keys, recs := outbox(t, s)
		if len(recs) != 2 || recs[0].Key != failed.Key || recs[1].Key != told.Key {
			t.Fatalf("outbox %+v, want the failed record, then the settled one", recs)
		}
		if !bytes.Equal(keys[0], store.OutboxKey(&ff)) || !bytes.Equal(keys[1], store.OutboxKey(&ft)) {
			t.Errorf("outbox keys %x", keys)
		}
		if recs[0].State != store.StateFailed || recs[0].Response.ErrorCode != x402.ErrorVerifyFailed ||
			recs[1].State != store.StateSettled || !recs[1].Response.Success || recs[1].RawTx != nil || recs[1].Amount.Cmp(told.Amount) != 0 {
			t.Errorf("outbox records %+v %+v", recs[0], recs[1])
		}
	})

	t.Run("a record finished by several handles at once is told once", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []store.Backend{s}
		if b.Second != nil {
			handles = append(handles, b.Second(t, s))
		}
		r := record(7)
		r.Notify = true
		mustClaim(t, s, r)
		sub := submitted(r, 7)
		must(t, s.Submit(&sub))
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			wins int
		)
		for i := range 8 {
			wg.Go(func() {
				f := settled(submitted(r, 7))
				f.Updated = t0.Add(time.Duration(i) * time.Second) // each would be a different key
				err := handles[i%len(handles)].Finish(&f)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
				case !errors.Is(err, store.ErrTransition):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if keys, _ := outbox(t, s); wins != 1 || len(keys) != 1 {
			t.Fatalf("%d finishes won, %d outbox entries; want 1 and 1", wins, len(keys))
		}
	})
}

// reopen is b.Reopen(s), or s if the backend cannot reopen.
func reopen(t *testing.T, b Backend, s store.Backend) store.Backend {
	t.Helper()
	if b.Reopen == nil {
		return s
	}
	return b.Reopen(t, s)
}
